import type { Candle } from '../../chart/candles.js';
import { type ChartRequest, chartTitle, writeChartFile } from '../../chart/file.js';
import { renderTerminalChart } from '../../chart/terminal.js';
import type { AsyncFuturesClient } from '../../clients/futures.js';
import { FUTURES_RESOLUTION_UNITS, futuresResolution } from '../../operations/futures.js';
import type { FuturesAggregate } from '../../types/futures.js';
import { type CommandDef, type CommandInput, flagOption, intOption } from '../command.js';
import type { CliContext } from '../context.js';
import { type ClientFamily, familyOfTicker } from '../families.js';
import { UsageError } from '../usage-error.js';

/**
 * The candles of a futures chart: second, minute and hour candles of the range in chunks (with
 * progress), times in New York; longer ones (sessions and up) in one walk of the pages, from the candle
 * holding `from` to the one holding `to`, times in UTC (a session candle starts at UTC midnight of its
 * trading date).
 */
async function fetchFuturesCandles(
  ctx: CliContext,
  req: ChartRequest,
  family: ClientFamily,
): Promise<{ candles: Candle[]; timeZone: string }> {
  const resolution = futuresResolution(req.multiplier, req.timespan);
  if (resolution === undefined) {
    throw new UsageError(
      `Invalid --timespan: ${JSON.stringify(req.timespan)}; expected one of ${Object.keys(FUTURES_RESOLUTION_UNITS).join(', ')}`,
    );
  }
  const unit = FUTURES_RESOLUTION_UNITS[req.timespan as keyof typeof FUTURES_RESOLUTION_UNITS];
  const client = family.create(ctx.connection.apiKey, {
    ...(ctx.connection.baseUrl !== undefined && { baseUrl: ctx.connection.baseUrl }),
    logger: (line) => ctx.note(line),
  }) as AsyncFuturesClient;
  const progress = ctx.progress(`${req.symbol} bars`);
  try {
    let bars: FuturesAggregate[];
    const intraday = ['sec', 'min', 'hour'].includes(unit);
    if (intraday) {
      bars = await client.getFullRangeAggregates(req.symbol, req.from, req.to, {
        resolution,
        onProgress: progress.fullRange.bind(progress),
      });
    } else {
      // Unix ms bounds become nanoseconds; days stay days (UTC, as the service reads them).
      const ns = (v: string | number, end: bigint) =>
        typeof v === 'number' ? BigInt(v) * 1_000_000n + end : v;
      const page = await client.getAggregates(req.symbol, {
        resolution,
        windowStartGte: ns(req.from, 0n),
        windowStartLte: ns(req.to, 999_999n),
        sort: 'window_start.asc',
        limit: 50000,
        allPages: true,
      });
      bars = page.results ?? [];
    }
    const candles = bars.map((b) => ({
      t: Number(BigInt(b.window_start) / 1_000_000n),
      o: b.open,
      h: b.high,
      l: b.low,
      c: b.close,
      v: b.volume ?? 0,
    }));
    return { candles, timeZone: intraday ? family.timeZone : 'UTC' };
  } finally {
    progress.done();
    await client.close();
  }
}

/** Fetches the bars of a chart (every chunk, with progress) through the async client of the ticker's market. */
export async function fetchCandles(
  ctx: CliContext,
  req: ChartRequest,
): Promise<{ candles: Candle[]; timeZone: string }> {
  const family = familyOfTicker(req.symbol);
  if (family.name === 'futures') return fetchFuturesCandles(ctx, req, family);
  const client = family.create(ctx.connection.apiKey, {
    ...(ctx.connection.baseUrl !== undefined && { baseUrl: ctx.connection.baseUrl }),
    logger: (line) => ctx.note(line),
  }) as unknown as {
    getAggregateBars(s: string, f: unknown, t: unknown, o: object): Promise<Candle[]>;
    close(): Promise<void>;
  };
  const progress = ctx.progress(`${req.symbol} bars`);
  try {
    const bars = await client.getAggregateBars(req.symbol, req.from, req.to, {
      timespan: req.timespan,
      multiplier: req.multiplier,
      ...(req.adjusted !== undefined && { adjusted: req.adjusted }),
      fullRange: true,
      info: false,
      onProgress: progress.fullRange.bind(progress),
    });
    progress.done();
    return {
      candles: bars.map(({ t, o, h, l, c, v }) => ({ t, o, h, l, c, v: v ?? 0 })),
      timeZone: family.timeZone,
    };
  } finally {
    progress.done();
    await client.close();
  }
}

function readRequest(input: CommandInput): ChartRequest {
  const bound = (s: string) => (/^\d+$/.test(s) ? Number(s) : s);
  const timespan = input.options.get('timespan') ?? 'day';
  return {
    symbol: input.args[0] as string,
    from: bound(input.args[1] as string),
    to: bound(input.args[2] as string),
    timespan,
    multiplier: intOption(input, 'multiplier', 1),
    ...(input.options.has('adjusted') && { adjusted: flagOption(input, 'adjusted', true) }),
    ...(input.options.has('title') && { title: input.options.get('title') as string }),
  };
}

/** `mdq chart`. */
export const chartCommand: CommandDef = {
  path: 'chart',
  summary:
    'A candlestick chart with volume: in the terminal, or as a picture with --out chart.svg|chart.png.',
  args: [
    {
      name: 'symbol',
      type: 'ticker',
      doc: 'AAPL, I:SPX, C:EURUSD, X:BTCUSD, an O: option ticker or a futures contract (ESZ3).',
    },
    { name: 'from', type: 'YYYY-MM-DD|unix ms', doc: 'First day.' },
    { name: 'to', type: 'YYYY-MM-DD|unix ms', doc: 'Last day (inclusive).' },
  ],
  options: [
    {
      name: 'timespan',
      type: 'second|minute|hour|day|week|month|quarter|year',
      default: 'day',
      doc: 'Bar size.',
    },
    { name: 'multiplier', type: 'int ≥ 1', default: '1', doc: 'Bars of multiplier × timespan.' },
    { name: 'adjusted', type: 'flag', flag: true, default: 'true', doc: 'Split-adjusted prices.' },
    { name: 'out', type: 'path (.svg|.png)', doc: 'Write a picture instead of drawing in the terminal.' },
    { name: 'width', type: 'int', default: '1200 px, or the terminal width', doc: 'Width of the chart.' },
    {
      name: 'height',
      type: 'int',
      default: '700 px, or 16 rows',
      doc: 'Height of the chart (price area in the terminal).',
    },
    { name: 'title', type: 'string', default: 'symbol, bar size and range', doc: 'Title of the chart.' },
  ],
  async run(ctx, input) {
    const req = readRequest(input);
    const out = input.options.get('out');
    if (out !== undefined && !/\.(svg|png)$/i.test(out)) {
      throw new UsageError(`Invalid --out: ${JSON.stringify(out)}; the file name must end in .svg or .png`);
    }
    const { candles, timeZone } = await fetchCandles(ctx, req);
    if (out !== undefined) {
      writeChartFile(out, candles, req, timeZone, {
        ...(input.options.has('width') && { width: intOption(input, 'width', 1200, 200) }),
        ...(input.options.has('height') && { height: intOption(input, 'height', 700, 150) }),
      });
      ctx.note(`wrote ${out} (${candles.length} bars)`);
      return;
    }
    ctx.out(
      renderTerminalChart(candles, {
        title: `${chartTitle(req)} (${timeZone})`,
        width: intOption(input, 'width', ctx.columns, 30),
        height: intOption(input, 'height', 16, 6),
        timeZone,
        color: ctx.streams.stdout.isTTY === true && ctx.streams.env.NO_COLOR === undefined,
      }),
    );
  },
};
