import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeChartFile } from '../chart/file.js';
import { renderTerminalChart } from '../chart/terminal.js';
import {
  AsyncForexClient,
  AsyncFuturesClient,
  AsyncOptionsClient,
  AsyncStocksClient,
  CryptoClient,
  IndexClient,
  StocksClient,
} from '../clients/index.js';
import { NEW_YORK } from '../dates/time-zone.js';
import type { StocksEvent } from '../stream/events.js';
import { StocksStream } from '../stream/index.js';
import { convertOptionSymbolFormats, OPTION_SYMBOL_FORMATS, parseOptionSymbol } from '../symbols/index.js';
import { rowsOf } from '../table/rows.js';
import { table as textTable } from '../table/table.js';
import { formatTime } from '../table/time-format.js';
import type { DemoConsole } from './console.js';
import type { DemoPlan } from './plan.js';

/** How the walk-through reaches the server and labels its output. */
export interface WalkthroughOptions {
  /** The local server, which needs no key (it is on loopback and has none configured). */
  readonly baseUrl: string;
  /** Printed in every section heading: where the data comes from. */
  readonly label: string;
  /** Folder for the chart pictures. */
  readonly outDir: string;
  /** Where the bars of a custom window and the chart end (New York day). */
  readonly plan: DemoPlan;
  /** Fail on the first error (the simulated market has everything); else note it and go on. */
  readonly strict: boolean;
  /** Whether the server's stream is the live simulated market (else a replay of stored ticks). */
  readonly live: boolean;
}

/** Events the streaming step prints at most, and how long it listens at most. */
const STREAM_EVENTS = 10;
const STREAM_SECONDS = 4;

/** One event as a line: its time of day in New York, channel, ticker and what it says. */
function streamLine(ev: StocksEvent): string {
  const $ = (x: number) => x.toFixed(2);
  const what =
    ev.ev === 'T'
      ? `${$(ev.p)} × ${ev.s}`
      : ev.ev === 'Q'
        ? `bid ${$(ev.bp)} × ${ev.bs}  ask ${$(ev.ap)} × ${ev.as}`
        : ev.ev === 'A' || ev.ev === 'AM'
          ? `o ${$(ev.o)}  h ${$(ev.h)}  l ${$(ev.l)}  c ${$(ev.c)}  v ${ev.v}`
          : '';
  const ms = ev.ev === 'A' || ev.ev === 'AM' ? ev.s : 't' in ev && typeof ev.t === 'number' ? ev.t : 0;
  const sym = 'sym' in ev ? ev.sym : '';
  // The time of day only (the date and zone are the same on every line).
  return `   ${formatTime(ms, NEW_YORK).slice(11).padEnd(16)}  ${ev.ev.padEnd(2)}  ${sym.padEnd(6)}  ${what}\n`;
}

const first = <T>(rows: readonly T[], n: number) => rows.slice(0, n);

/**
 * The demo's steps, each a real call through the clients to the running server, printed as the
 * equivalent `mdq` command and its result.
 */
export async function runWalkthrough(ctx: DemoConsole, o: WalkthroughOptions): Promise<void> {
  const { plan } = o;
  let step = 0;
  const section = async (title: string, command: string, body: () => Promise<void>) => {
    step++;
    ctx.out(`\n── ${step}. ${title}  [${o.label}]\n   $ ${command}\n`);
    try {
      await body();
    } catch (e) {
      if (o.strict) throw e;
      ctx.out(`   (skipped: ${(e as Error).message})\n`);
    }
  };
  const table = (value: unknown, timeZone = NEW_YORK, n = 8) => {
    const rows = rowsOf(value);
    ctx.out(textTable(first(rows, n), timeZone).replace(/^(?=.)/gm, '   '));
    if (rows.length > n) ctx.out(`   … ${rows.length - n} more rows\n`);
  };
  const connection = { baseUrl: o.baseUrl };
  const stocks = new AsyncStocksClient(undefined, connection);
  const forex = new AsyncForexClient(undefined, connection);
  const options = new AsyncOptionsClient(undefined, connection);
  try {
    await section(
      'Bars of a custom window (async client)',
      `mdq stocks get-aggregate-bars ${plan.stock} ${plan.windowFrom} ${plan.lastDay} --timespan minute --multiplier 30`,
      async () => {
        const bars = await stocks.getAggregateBars(plan.stock, plan.windowFrom, plan.lastDay, {
          timespan: 'minute',
          multiplier: 30,
        });
        ctx.out(`   ${bars.resultsCount} bars of 30 minutes; the first ones:\n`);
        table(bars, NEW_YORK, 6);
      },
    );

    await section(
      'Every minute bar of the whole range, fetched in chunks (full range)',
      `mdq stocks get-aggregate-bars ${plan.stock} ${plan.firstDay} ${plan.lastDay} --timespan minute --full-range`,
      async () => {
        const progress = ctx.progress(`   ${plan.stock} minute bars`);
        const started = performance.now();
        let chunks = 0;
        const bars = await stocks.getAggregateBars(plan.stock, plan.firstDay, plan.lastDay, {
          timespan: 'minute',
          fullRange: true,
          info: false,
          onProgress: (p) => {
            chunks = p.chunksTotal;
            progress.fullRange(p);
          },
        });
        progress.done();
        const seconds = (performance.now() - started) / 1000;
        const days = new Set(bars.map((b) => new Date(b.t).toISOString().slice(0, 10))).size;
        ctx.out(
          `   ${bars.length.toLocaleString('en-US')} minute bars over ${days} trading days, in ${chunks} chunks, ${seconds.toFixed(1)}s (${Math.round(bars.length / seconds).toLocaleString('en-US')} bars/s)\n`,
        );
        table([bars[0], bars[bars.length - 1]]);
      },
    );

    await section(
      'Indicators on daily bars: SMA 20, RSI 14, MACD (async client)',
      `mdq stocks get-sma ${plan.stock} --timespan day --window-size 20 --limit 3`,
      async () => {
        const [sma, rsi, macd] = await Promise.all([
          stocks.getSma(plan.stock, { timespan: 'day', windowSize: 20, limit: 3 }),
          stocks.getRsi(plan.stock, { timespan: 'day', windowSize: 14, limit: 3 }),
          stocks.getMacd(plan.stock, { timespan: 'day', limit: 3 }),
        ]);
        const rows = rowsOf(sma).map((r, i) => ({
          timestamp: r.timestamp,
          sma20: r.value,
          rsi14: rowsOf(rsi)[i]?.value,
          macd: rowsOf(macd)[i]?.value,
          signal: rowsOf(macd)[i]?.signal,
          histogram: rowsOf(macd)[i]?.histogram,
        }));
        table(rows);
      },
    );

    await section(
      'A snapshot and the day’s gainers (sync client: results come back directly)',
      `mdq stocks get-snapshot ${plan.stock}   and   mdq stocks get-gainers-and-losers --direction gainers`,
      async () => {
        const sync = StocksClient(undefined, connection);
        try {
          const snap = sync.getSnapshot(plan.stock);
          const t = (snap as unknown as { ticker?: Record<string, unknown> }).ticker ?? {};
          table([
            {
              ticker: t.ticker,
              'day.close': (t.day as { c?: number } | undefined)?.c,
              'prevDay.close': (t.prevDay as { c?: number } | undefined)?.c,
              todaysChangePerc: t.todaysChangePerc,
              'lastTrade.p': (t.lastTrade as { p?: number } | undefined)?.p,
              'lastQuote.P': (t.lastQuote as { P?: number } | undefined)?.P,
              'lastQuote.p': (t.lastQuote as { p?: number } | undefined)?.p,
            },
          ]);
          const gainers = sync.getGainersAndLosers({ direction: 'gainers' });
          table(
            rowsOf(gainers).map((r) => ({
              ticker: r.ticker,
              todaysChangePerc: r.todaysChangePerc,
              'day.c': r['day.c'],
              'prevDay.c': r['prevDay.c'],
              'day.v': r['day.v'],
            })),
          );
        } finally {
          sync.close();
        }
      },
    );

    if (plan.option) {
      const contract = plan.option.ticker;
      await section(
        'An option symbol in every format, and its snapshot',
        `mdq symbols convert ${contract} polygon tda   and   mdq options get-snapshot ${plan.option.underlying} ${contract}`,
        async () => {
          const parsed = parseOptionSymbol(contract, { outputFormat: 'dict', expiryFormat: 'string' });
          ctx.out(
            `   ${parsed.underlyingSymbol} ${parsed.expiry} ${parsed.callOrPut === 'C' ? 'call' : 'put'} strike ${parsed.strikePrice}\n`,
          );
          table(
            OPTION_SYMBOL_FORMATS.map((format) => ({
              format,
              symbol: convertOptionSymbolFormats(contract, 'polygon', format, {
                prefixO: format === 'polygon',
              }),
            })),
            NEW_YORK,
            10,
          );
          const snap = await options.getSnapshot(plan.option?.underlying as string, contract);
          const r = rowsOf(snap)[0] ?? {};
          table([
            {
              'day.close': r['day.close'],
              implied_volatility: r.implied_volatility,
              'greeks.delta': r['greeks.delta'],
              'greeks.gamma': r['greeks.gamma'],
              'greeks.theta': r['greeks.theta'],
              'greeks.vega': r['greeks.vega'],
              'underlying_asset.price': r['underlying_asset.price'],
            },
          ]);
        },
      );
    }

    if (plan.pair) {
      const { from, to } = plan.pair;
      await section(
        'A currency conversion at the latest quote',
        `mdq forex real-time-currency-conversion ${from} ${to} 100`,
        async () => {
          const conv = (await forex.realTimeCurrencyConversion(from, to, 100)) as unknown as Record<
            string,
            unknown
          >;
          const last = (conv.last ?? {}) as Record<string, unknown>;
          ctx.out(
            `   100 ${from} = ${String(conv.converted)} ${to}  (bid ${String(last.bid)}, ask ${String(last.ask)})\n`,
          );
          table([last], 'UTC');
        },
      );
    }

    if (plan.index || plan.crypto) {
      await section(
        'An index and crypto around the clock (sync clients)',
        `mdq indices get-previous-close ${plan.index ?? ''}   and   mdq crypto get-aggregate-bars ${plan.crypto?.ticker ?? ''} ${plan.crypto?.lastDay ?? ''} ${plan.crypto?.lastDay ?? ''} --timespan hour --multiplier 4`,
        async () => {
          if (plan.index) {
            const indices = IndexClient(undefined, connection);
            try {
              table(indices.getPreviousClose(plan.index));
            } finally {
              indices.close();
            }
          }
          if (plan.crypto) {
            const crypto = CryptoClient(undefined, connection);
            try {
              const day = plan.crypto.lastDay;
              table(
                crypto.getAggregateBars(plan.crypto.ticker, day, day, { timespan: 'hour', multiplier: 4 }),
                'UTC',
              );
            } finally {
              crypto.close();
            }
          }
        },
      );
    }

    if (plan.futures) {
      const { ticker, lastSession } = plan.futures;
      await section(
        'Futures: a contract’s last sessions and its facts (FuturesClient)',
        `mdq futures get-aggregates ${ticker} --resolution 1session --window-start-lte ${lastSession} --limit 5`,
        async () => {
          const futures = new AsyncFuturesClient(undefined, connection);
          try {
            const sessions = await futures.getAggregates(ticker, {
              resolution: '1session',
              windowStartLte: lastSession,
              limit: 5,
            });
            table(
              (sessions.results ?? []).map((r) => ({
                session_end_date: r.session_end_date,
                open: r.open,
                high: r.high,
                low: r.low,
                close: r.close,
                volume: r.volume,
              })),
              'UTC',
            );
            const contracts = await futures.getContracts({ ticker, date: lastSession });
            const c = contracts.results?.[0];
            if (c) {
              ctx.out(
                `   ${ticker}: trades ${c.first_trade_date} to ${c.last_trade_date} on ${c.trading_venue}, tick ${c.trade_tick_size}\n`,
              );
            }
          } finally {
            await futures.close();
          }
        },
      );
    }

    await section(
      o.live
        ? 'Streaming: the simulated market live over WebSocket (StocksStream)'
        : 'Streaming: a replay of the stored ticks over WebSocket (StocksStream)',
      `mdq stream stocks T.${plan.stock} Q.${plan.stock} A.${plan.stock} --limit ${STREAM_EVENTS} --stream-url ${o.baseUrl.replace(/^http/, 'ws')}`,
      async () => {
        const stream = StocksStream(undefined, { baseUrl: o.baseUrl.replace(/^http/, 'ws') });
        // Stops after a few seconds even when the ticker has no ticks to send.
        const timer = setTimeout(() => stream.close(), STREAM_SECONDS * 1000);
        const started = performance.now();
        let n = 0;
        try {
          stream.subscribe(`T.${plan.stock}`, `Q.${plan.stock}`, `A.${plan.stock}`);
          for await (const ev of stream) {
            ctx.out(streamLine(ev));
            if (++n === STREAM_EVENTS) break;
          }
        } finally {
          clearTimeout(timer);
          stream.close();
        }
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        ctx.out(
          n > 0
            ? `   ${n} events in ${seconds} s, then the stream closed cleanly\n`
            : `   no events in ${seconds} s (no trades or quotes of ${plan.stock} stored), then the stream closed cleanly\n`,
        );
      },
    );

    await section(
      'A candlestick chart with volume, in the terminal and as pictures',
      `mdq chart ${plan.stock} ${plan.firstDay} ${plan.lastDay} --timespan day   (add --out chart.svg or chart.png)`,
      async () => {
        const bars = await stocks.getAggregateBars(plan.stock, plan.firstDay, plan.lastDay, {
          timespan: 'day',
          fullRange: true,
          info: false,
        });
        const candles = bars.map(({ t, o: op, h, l, c, v }) => ({ t, o: op, h, l, c, v: v ?? 0 }));
        const title = `${plan.stock} · daily bars · ${plan.firstDay} → ${plan.lastDay} · ${o.label}`;
        ctx.out(
          renderTerminalChart(candles, {
            title,
            width: Math.min(ctx.columns, 120) - 3,
            height: 14,
            timeZone: NEW_YORK,
            color: ctx.streams.stdout.isTTY === true && ctx.streams.env.NO_COLOR === undefined,
          }).replace(/^(?=.)/gm, '   '),
        );
        mkdirSync(o.outDir, { recursive: true });
        const req = {
          symbol: plan.stock,
          from: plan.firstDay,
          to: plan.lastDay,
          timespan: 'day',
          multiplier: 1,
          title,
        };
        for (const file of ['chart.svg', 'chart.png'])
          writeChartFile(join(o.outDir, file), candles, req, NEW_YORK);
        ctx.out(`   wrote ${join(o.outDir, 'chart.svg')} and ${join(o.outDir, 'chart.png')}\n`);
      },
    );
  } finally {
    await Promise.all([stocks.close(), forex.close(), options.close()]);
  }
}
