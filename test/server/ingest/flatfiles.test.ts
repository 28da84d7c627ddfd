import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { ingestFlatFiles } from '../../../src/server/ingest/flatfiles.js';
import { isIngestError } from '../../../src/server/ingest/ingest-error.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { n, tempStore } from './helpers.js';

const DAY = `ticker,volume,open,close,high,low,window_start,transactions
AAPL,82488674,187.15,185.64,188.44,183.885,1704171600000000000,1008871
SPY,123623724,472.16,472.65,473.67,470.49,1704171600000000000,739839
`;
const MINUTE = `ticker,volume,open,close,high,low,window_start,transactions
AAPL,452,187.15,187.2,187.21,187.1,1704205800000000000,31
AAPL,1200,187.2,187.05,187.25,187.0,1704205860000000000,54
O:SPY240119C00470000,12,3.1,3.2,3.25,3.05,1704205800000000000,4
`;
const FX_DAY = `ticker,volume,open,close,high,low,window_start,transactions
C:EURUSD,411,1.10402,1.09403,1.10452,1.09388,1704153600000000000,411
`;
const TRADES = `ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_timestamp,size,tape,trf_id,trf_timestamp
AAPL,"12,37",0,4,52983525029241,1704207600134549504,187.15,1173,1704207600134959253,1,3,201,1704207600134567000
AAPL,,0,12,52983525029242,1704207600200000000,187.16,1174,1704207600200100001,100,3,,
`;
const QUOTES = `ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,conditions,indicators,participant_timestamp,sequence_number,sip_timestamp,tape,trf_timestamp
AAPL,12,187.2,2,11,187.1,3,1,,1704207600000000000,5,1704207600000100007,3,
AAPL,19,187.3,1,12,187.15,4,"1,8","604",1704207600500000000,9,1704207600500000011,3,
`;

/** Rows of a fixture as objects keyed by its header, parsed here without the code under test. */
function records(csv: string): Record<string, string>[] {
  const [head, ...lines] = csv.trim().split('\n');
  const names = (head as string).split(',');
  return lines.map((line) => {
    const fields =
      line.match(/("[^"]*"|[^,]*)(,|$)/g)?.map((f) => f.replace(/,$/, '').replace(/^"|"$/g, '')) ?? [];
    return Object.fromEntries(names.map((name, i) => [name, fields[i] ?? '']));
  });
}

describe('ingestFlatFiles', () => {
  let store: DuckDbStore;
  let dir: string;
  const cleanups: (() => void)[] = [];
  const file = (rel: string, content: string, gzip = false): string => {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, gzip ? gzipSync(content) : content);
    return path;
  };

  before(async () => {
    const temp = await tempStore();
    store = temp.store;
    dir = mkdtempSync(join(tmpdir(), 'mdq-flat-'));
    cleanups.push(temp.cleanup, () => rmSync(dir, { recursive: true, force: true }));
  });
  after(() => {
    for (const c of cleanups.reverse()) c();
  });

  it('round-trips day and minute aggregates (gzip or not); window_start ns → t ms', async () => {
    const files = [
      file('us_stocks_sip/day_aggs_v1/2024/01/2024-01-02.csv.gz', DAY, true),
      file('us_stocks_sip/minute_aggs_v1/2024/01/2024-01-02.csv', MINUTE),
      file('fx/2024-01-02.csv', FX_DAY),
    ];
    const summary = await ingestFlatFiles(store, files);
    assert.equal(summary.filesIngested, 3);
    assert.equal(summary.rows.bars, 6);
    for (const [csv, resolution] of [
      [DAY, 'day'],
      [MINUTE, 'minute'],
      [FX_DAY, 'day'],
    ] as const) {
      for (const r of records(csv)) {
        const t = BigInt(r.window_start as string) / 1_000_000n;
        const [bar] = await store.all<Record<string, unknown>>(
          'SELECT * FROM bars WHERE ticker = $1 AND resolution = $2 AND t = $3',
          [r.ticker as string, resolution, t],
        );
        assert.deepEqual(
          [bar?.o, bar?.h, bar?.l, bar?.c, bar?.v, bar?.n],
          [
            Number(r.open),
            Number(r.high),
            Number(r.low),
            Number(r.close),
            Number(r.volume),
            BigInt(r.transactions as string),
          ],
          `${r.ticker} ${resolution}`,
        );
      }
    }
    const [contract] = await store.all<Record<string, unknown>>(
      "SELECT underlying_ticker, contract_type, strftime(expiration_date, '%Y-%m-%d') AS exp, strike_price FROM option_contracts WHERE ticker = 'O:SPY240119C00470000'",
    );
    assert.deepEqual(contract, {
      underlying_ticker: 'SPY',
      contract_type: 'call',
      exp: '2024-01-19',
      strike_price: 470,
    });
    const [fx] = await store.all<Record<string, unknown>>(
      "SELECT market, base_currency_symbol FROM tickers WHERE ticker = 'C:EURUSD'",
    );
    assert.deepEqual(fx, { market: 'fx', base_currency_symbol: 'EUR' });
  });

  it('round-trips trades and quotes with exact nanosecond times and condition lists', async () => {
    const summary = await ingestFlatFiles(store, [
      file('trades/2024-01-02.csv.gz', TRADES, true),
      file('quotes/2024-01-02.csv', QUOTES),
    ]);
    assert.deepEqual([summary.rows.trades, summary.rows.quotes], [2, 2]);
    for (const r of records(TRADES)) {
      const [row] = await store.all<Record<string, unknown>>(
        'SELECT * FROM trades WHERE ticker = $1 AND sequence_number = $2',
        [r.ticker as string, BigInt(r.sequence_number as string)],
      );
      assert.equal(row?.sip_timestamp, BigInt(r.sip_timestamp as string));
      assert.equal(row?.participant_timestamp, BigInt(r.participant_timestamp as string));
      assert.equal(row?.trf_timestamp, r.trf_timestamp === '' ? null : BigInt(r.trf_timestamp as string));
      assert.deepEqual(
        [row?.price, row?.size, row?.exchange, row?.id],
        [Number(r.price), Number(r.size), Number(r.exchange), r.id],
      );
      const conditions = (row?.conditions as { items: number[] } | null)?.items ?? null;
      assert.deepEqual(
        conditions,
        r.conditions === '' ? null : (r.conditions as string).split(',').map(Number),
      );
    }
    for (const r of records(QUOTES)) {
      const [row] = await store.all<Record<string, unknown>>(
        'SELECT * FROM quotes WHERE ticker = $1 AND sequence_number = $2',
        [r.ticker as string, BigInt(r.sequence_number as string)],
      );
      assert.equal(row?.sip_timestamp, BigInt(r.sip_timestamp as string));
      assert.deepEqual(
        [row?.bid_price, row?.bid_size, row?.bid_exchange, row?.ask_price, row?.ask_size, row?.ask_exchange],
        [r.bid_price, r.bid_size, r.bid_exchange, r.ask_price, r.ask_size, r.ask_exchange].map(Number),
      );
      assert.deepEqual(
        (row?.conditions as { items: number[] } | undefined)?.items,
        (r.conditions as string).split(',').map(Number),
      );
    }
  });

  it('other asset classes: crypto trades and forex quotes without sip times, options trades without ids', async () => {
    const crypto = `ticker,conditions,exchange,id,participant_timestamp,price,size
X:BTCUSD,2,1,191450340,1704153600018000000,42283.05,0.00061
X:BTCUSD,1,1,191450341,1704153600018000000,42283.06,0.0171
`;
    const forex = `ticker,ask_exchange,ask_price,bid_exchange,bid_price,participant_timestamp
C:EURUSD,48,1.10412,48,1.10404,1704153600000000000
`;
    const options = `ticker,conditions,correction,exchange,participant_timestamp,price,sip_timestamp,size
O:SPY240119C00470000,209,0,312,1704205800100000000,3.15,1704205800100500000,2
`;
    const summary = await ingestFlatFiles(store, [
      file('global_crypto/trades_v1/2024-01-02.csv.gz', crypto, true),
      file('global_forex/quotes_v1/2024-01-02.csv', forex),
      file('us_options_opra/trades_v1/2024-01-02.csv', options),
    ]);
    assert.deepEqual([summary.rows.trades, summary.rows.quotes], [3, 1]);
    const btc = await store.all<Record<string, unknown>>(
      "SELECT sip_timestamp, participant_timestamp, sequence_number, price, size, id FROM trades WHERE ticker = 'X:BTCUSD' ORDER BY sequence_number",
    );
    const rows = records(crypto);
    assert.deepEqual(
      btc.map((r) => [r.sip_timestamp, r.participant_timestamp, r.price, r.size, r.id]),
      rows.map((r) => {
        const t = BigInt(r.participant_timestamp as string);
        return [t, t, Number(r.price), Number(r.size), r.id];
      }),
    );
    assert.deepEqual(
      btc.map((r) => r.sequence_number),
      [2n, 3n],
      'line numbers keep two ticks at one time apart',
    );
    const [eur] = await store.all<Record<string, unknown>>("SELECT * FROM quotes WHERE ticker = 'C:EURUSD'");
    const fx = records(forex)[0] as Record<string, string>;
    assert.deepEqual(
      [eur?.sip_timestamp, eur?.bid_price, eur?.ask_price, eur?.bid_size, eur?.ask_exchange],
      [BigInt(fx.participant_timestamp as string), Number(fx.bid_price), Number(fx.ask_price), null, 48],
    );
    const [opt] = await store.all<Record<string, unknown>>(
      "SELECT sip_timestamp, price, size, exchange FROM trades WHERE ticker = 'O:SPY240119C00470000'",
    );
    const o = records(options)[0] as Record<string, string>;
    assert.deepEqual(
      [opt?.sip_timestamp, opt?.price, opt?.size, opt?.exchange],
      [BigInt(o.sip_timestamp as string), Number(o.price), Number(o.size), Number(o.exchange)],
    );
  });

  it('is idempotent, and overlapping content keeps one row per trade', async () => {
    const before = await store.all<{ n: bigint }>('SELECT count(*) AS n FROM trades');
    const again = await ingestFlatFiles(store, [join(dir, 'trades/2024-01-02.csv.gz')]);
    assert.deepEqual([again.filesIngested, again.filesSkipped], [0, 1]);
    // The same trades plus one more, as a differently named, uncompressed file.
    const more = `${TRADES}AAPL,,0,12,52983525029243,1704207601000000000,187.2,1175,1704207601000000500,10,3,,\n`;
    const summary = await ingestFlatFiles(store, [file('trades/2024-01-02-fixed.csv', more)]);
    assert.equal(summary.filesIngested, 1);
    const after = await store.all<{ n: bigint }>('SELECT count(*) AS n FROM trades');
    assert.equal(n(after[0]?.n), n(before[0]?.n) + 1);
  });

  it('ticks without sequence numbers ingested again from another file are not duplicated', async () => {
    // Crypto trades, forex quotes and options trades carry no sequence_number: line numbers stand in.
    const layouts = [
      {
        table: 'trades',
        ticker: 'X:ETHUSD',
        header: 'ticker,conditions,exchange,id,participant_timestamp,price,size',
        row: (i: number) =>
          `X:ETHUSD,1,1,${9000 + i},${1704240000000000000n + BigInt(i) * 1000000n},2350.${i},0.5`,
      },
      {
        table: 'quotes',
        ticker: 'C:GBPUSD',
        header: 'ticker,ask_exchange,ask_price,bid_exchange,bid_price,participant_timestamp',
        row: (i: number) => `C:GBPUSD,48,1.27${i},48,1.26${i},${1704240000000000000n + BigInt(i) * 1000000n}`,
      },
      {
        table: 'trades',
        ticker: 'O:SPY240119P00460000',
        header: 'ticker,conditions,correction,exchange,participant_timestamp,price,sip_timestamp,size',
        row: (i: number) =>
          `O:SPY240119P00460000,209,0,312,${1704292200000000000n + BigInt(i) * 1000000n},1.${i},${1704292200000500000n + BigInt(i) * 1000000n},2`,
      },
    ];
    for (const [k, { table, ticker, header, row }] of layouts.entries()) {
      const count = async () =>
        n(
          (
            await store.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table} WHERE ticker = $1`, [ticker])
          )[0]?.n,
        );
      const rows = [0, 1, 2, 3, 4].map(row);
      // Two ticks at one time stay two ticks.
      rows.push(row(4));
      await ingestFlatFiles(store, [file(`noseq/${k}/day.csv`, `${header}\n${rows.join('\n')}\n`)]);
      assert.equal(await count(), 6, ticker);
      // The same ticks in another order, one of them new, in another (compressed) file.
      const again = [row(5), ...rows].reverse();
      const summary = await ingestFlatFiles(store, [
        file(`noseq/${k}/day-again.csv.gz`, `${header}\n${again.join('\n')}\n`, true),
      ]);
      assert.equal(summary.filesIngested, 1);
      assert.equal(await count(), 7, `${ticker}: the file again holds 7 ticks, and so does the store`);
    }
  });

  it('a bad header or malformed row names file:line and writes nothing of the file', async () => {
    const badHeader = file('bad/header.csv', 'ticker,price\nAAPL,1\n');
    await assert.rejects(ingestFlatFiles(store, [badHeader]), (e: unknown) => {
      assert.ok(isIngestError(e));
      assert.equal(e.line, 1);
      assert.match(e.message, /header\.csv:1: unknown header "ticker,price"/);
      return true;
    });
    const badRow = file(
      'bad/2024-01-03.csv.gz',
      `${DAY.replace('2024', '2025')}MSFT,1,2,3,4,5,not-a-time,6\n`,
      true,
    );
    const [before] = await store.all<{ n: bigint }>('SELECT count(*) AS n FROM bars');
    await assert.rejects(ingestFlatFiles(store, [badRow]), (e: unknown) => {
      assert.ok(isIngestError(e));
      assert.equal(e.file, badRow);
      assert.equal(e.line, 4);
      assert.match(
        e.message,
        /2024-01-03\.csv\.gz:4: window_start is not an integer from -2\^63 to 2\^63 - 1: "not-a-time"$/,
      );
      return true;
    });
    const [afterCount] = await store.all<{ n: bigint }>('SELECT count(*) AS n FROM bars');
    assert.equal(n(afterCount?.n), n(before?.n));
    assert.deepEqual(await store.all("SELECT * FROM tickers WHERE ticker = 'MSFT'"), []);
    const shortRow = file('bad/trades.csv', `${TRADES}AAPL,1,2\n`);
    await assert.rejects(ingestFlatFiles(store, [shortRow]), /trades\.csv:4: expected 13 columns, found 3/);
    const noTicker = file('bad/quotes.csv', `${QUOTES}${QUOTES.split('\n')[1]?.replace('AAPL', '')}\n`);
    await assert.rejects(ingestFlatFiles(store, [noTicker]), /quotes\.csv:4: ticker is empty/);
    const badList = file('bad/trades2.csv', TRADES.replace('"12,37"', '"12,x"'));
    await assert.rejects(
      ingestFlatFiles(store, [badList]),
      /trades2\.csv:2: conditions is not a list of integers/,
    );
    const twice = file('bad/day_aggs.csv', `${DAY}${DAY.split('\n')[2]}\n`);
    await assert.rejects(
      ingestFlatFiles(store, [twice]),
      /day_aggs\.csv:4: a second row for SPY at this window_start/,
    );
    const [quotesAfter] = await store.all<{ n: bigint }>(
      "SELECT count(*) AS n FROM quotes WHERE ticker = ''",
    );
    assert.equal(n(quotesAfter?.n), 0);
  });
});
