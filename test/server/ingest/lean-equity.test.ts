import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import type { IngestSummary } from '../../../src/server/ingest/run-jobs.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { leanSubset, n, onlyEntryRows, tempStore, wallToUtc } from './helpers.js';

const NY = 'America/New_York';
const FILES = [
  'equity/usa/tick/spy/20131007_trade.zip',
  'equity/usa/tick/ibm/20131010_quote.zip',
  'equity/usa/minute/ibm/20131008_trade.zip',
  'equity/usa/minute/ibm/20131008_quote.zip',
  'equity/usa/daily/aapl.zip',
  'equity/usa/factor_files/aapl.csv',
  'equity/usa/map_files/twx.csv',
  'equity/usa/map_files/googl.csv',
];

describe('ingestLean: US equities', () => {
  let store: DuckDbStore;
  let summary: IngestSummary;
  const cleanups: (() => void)[] = [];

  before(async () => {
    if (!existsSync(leanDir)) return;
    const subset = leanSubset(FILES);
    const temp = await tempStore();
    cleanups.push(subset.cleanup, temp.cleanup);
    store = temp.store;
    summary = await ingestLean(store, subset.dir);
  });
  after(() => {
    for (const c of cleanups.reverse()) c();
  });

  it('ingests every file of the subset', (t) => {
    if (!hasShared(t, leanDir)) return;
    assert.equal(summary.filesSeen, FILES.length);
    assert.equal(summary.filesIngested, FILES.length);
    assert.deepEqual(summary.unrecognised, []);
  });

  it('SPY trade ticks: count, first and last tick with UTC ns times and deci-cent prices', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const raw = onlyEntryRows('equity/usa/tick/spy/20131007_trade.zip');
    const [count] = await store.all<{ n: bigint }>("SELECT count(*) AS n FROM trades WHERE ticker = 'SPY'");
    assert.equal(n(count?.n), raw.length);
    const rows = [
      ...(await store.all<Record<string, unknown>>(
        "SELECT * FROM trades WHERE ticker = 'SPY' ORDER BY sip_timestamp, sequence_number LIMIT 1",
      )),
      ...(await store.all<Record<string, unknown>>(
        "SELECT * FROM trades WHERE ticker = 'SPY' ORDER BY sip_timestamp DESC, sequence_number DESC LIMIT 1",
      )),
    ];
    for (const [row, rawRow] of [
      [rows[0], raw[0]],
      [rows[1], raw[raw.length - 1]],
    ] as const) {
      const [ms, price, size] = rawRow as string[];
      const expectedNs = BigInt(wallToUtc('20131007', Number(ms), NY)) * 1_000_000n;
      assert.equal(row?.sip_timestamp, expectedNs);
      assert.equal(row?.price, Number(price) / 10_000);
      assert.equal(row?.size, Number(size));
    }
    // 14400464 ms after midnight EDT is 08:00:00.464 UTC.
    assert.equal(rows[0]?.sip_timestamp, BigInt(Date.UTC(2013, 9, 7, 8, 0, 0, 464)) * 1_000_000n);
    assert.equal(rows[0]?.exchange, 11, 'P (NYSE Arca) is exchange 11');
  });

  it('SPY trade ticks: sale-condition masks become condition ids; sums match the raw file', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const raw = onlyEntryRows('equity/usa/tick/spy/20131007_trade.zip');
    const rawVolume = raw.reduce((s, r) => s + Number(r[2]), 0);
    const iso = raw.filter((r) => (Number.parseInt(r[4] as string, 16) & 0x20) !== 0).length;
    const [agg] = await store.all<{ v: number; iso: bigint; seqs: bigint }>(
      `SELECT sum(size) AS v, count(*) FILTER (WHERE list_contains(conditions, 14)) AS iso,
              count(DISTINCT sequence_number) AS seqs FROM trades WHERE ticker = 'SPY'`,
    );
    assert.equal(agg?.v, rawVolume);
    assert.equal(n(agg?.iso), iso, 'intermarket sweep bit 0x20 → condition 14');
    assert.equal(n(agg?.seqs), raw.length, 'one sequence number per file row');
  });

  it('IBM quote ticks: bid-only and ask-only rows pair into one NBBO quote', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const raw = onlyEntryRows('equity/usa/tick/ibm/20131010_quote.zip');
    // Independent pairing: a bid-only row followed by an ask-only row with the same time.
    let pairs = 0;
    for (let i = 0; i + 1 < raw.length; i++) {
      const a = raw[i] as string[];
      const b = raw[i + 1] as string[];
      if (a[3] === '0' && a[4] === '0' && b[1] === '0' && b[2] === '0' && a[0] === b[0]) {
        pairs++;
        i++;
      }
    }
    const [count] = await store.all<{ n: bigint }>("SELECT count(*) AS n FROM quotes WHERE ticker = 'IBM'");
    assert.equal(pairs * 2, raw.length, 'every row of this day pairs up (DATA.md 4.4)');
    assert.equal(n(count?.n), pairs);
    // The first pair, checked field by field.
    const [bidRow, askRow] = [raw[0] as string[], raw[1] as string[]];
    const [first] = await store.all<Record<string, unknown>>(
      "SELECT * FROM quotes WHERE ticker = 'IBM' ORDER BY sip_timestamp, sequence_number LIMIT 1",
    );
    assert.equal(first?.sip_timestamp, BigInt(wallToUtc('20131010', Number(bidRow[0]), NY)) * 1_000_000n);
    assert.equal(first?.bid_price, Number(bidRow[1]) / 10_000);
    assert.equal(first?.bid_size, Number(bidRow[2]));
    assert.equal(first?.ask_price, Number(askRow[3]) / 10_000);
    assert.equal(first?.ask_size, Number(askRow[4]));
    assert.equal(first?.sequence_number, 1n);
  });

  it('IBM minute trade and quote bars at bar start in UTC ms', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const trade = onlyEntryRows('equity/usa/minute/ibm/20131008_trade.zip');
    const open = trade.find((r) => r[0] === '34200000') as string[];
    const t0 = wallToUtc('20131008', 34_200_000, NY);
    assert.equal(t0, Date.UTC(2013, 9, 8, 13, 30), '09:30 EDT is 13:30 UTC');
    const [bar] = await store.all<Record<string, unknown>>(
      "SELECT * FROM bars WHERE ticker = 'IBM' AND resolution = 'minute' AND t = $1",
      [BigInt(t0)],
    );
    assert.deepEqual(
      [bar?.o, bar?.h, bar?.l, bar?.c, bar?.v],
      [...open.slice(1, 5).map((x) => Number(x) / 10_000), Number(open[5])],
    );
    const quote = onlyEntryRows('equity/usa/minute/ibm/20131008_quote.zip');
    const q = quote[quote.length - 1] as string[];
    const [qb] = await store.all<Record<string, unknown>>(
      "SELECT * FROM quote_bars WHERE ticker = 'IBM' AND resolution = 'minute' AND t = $1",
      [BigInt(wallToUtc('20131008', Number(q[0]), NY))],
    );
    assert.equal(qb?.bid_c, Number(q[4]) / 10_000);
    assert.equal(qb?.bid_size, Number(q[5]));
    assert.equal(qb?.ask_c, Number(q[9]) / 10_000);
    assert.equal(qb?.ask_size, Number(q[10]));
    const [counts] = await store.all<{ b: bigint; q: bigint }>(
      "SELECT (SELECT count(*) FROM bars WHERE ticker = 'IBM' AND resolution = 'minute') AS b, (SELECT count(*) FROM quote_bars WHERE ticker = 'IBM') AS q",
    );
    assert.deepEqual([n(counts?.b), n(counts?.q)], [trade.length, quote.length]);
  });

  it('AAPL daily bars: raw closes around the 7:1 split, stamped at midnight New York', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const raw = onlyEntryRows('equity/usa/daily/aapl.zip');
    const rows = await store.all<{ t: bigint; c: number }>(
      "SELECT t, c FROM bars WHERE ticker = 'AAPL' AND resolution = 'day' ORDER BY t",
    );
    assert.equal(rows.length, raw.length);
    for (const date of ['20140606', '20140609', '20210331']) {
      const r = raw.find((x) => x[0] === `${date} 00:00`) as string[];
      const t0 = wallToUtc(date, 0, NY);
      const row = rows.find((x) => n(x.t) === t0);
      assert.equal(row?.c, Number(r[4]) / 10_000, date);
    }
    assert.equal(rows.find((x) => n(x.t) === Date.UTC(2014, 5, 6, 4))?.c, 645.57);
    assert.equal(rows.find((x) => n(x.t) === Date.UTC(2014, 5, 9, 4))?.c, 93.7);
  });

  it('AAPL factor file: 7:1 on 2014-06-09 and 4:1 on 2020-08-31 among the splits', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const splits = await store.all<{ d: string; f: number; to: number }>(
      "SELECT strftime(execution_date, '%Y-%m-%d') AS d, split_from AS f, split_to AS to FROM splits WHERE ticker = 'AAPL' ORDER BY d",
    );
    const byDate = new Map(splits.map((s) => [s.d, [s.f, s.to]]));
    assert.deepEqual(byDate.get('2014-06-09'), [1, 7]);
    assert.deepEqual(byDate.get('2020-08-31'), [1, 4]);
    assert.deepEqual(byDate.get('2000-06-21'), [1, 2]);
    assert.deepEqual(byDate.get('2005-02-28'), [1, 2]);
    assert.equal(splits.length, 4);
  });

  it('map files: ticker history and delisting', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const history = await store.all<{ d: string; symbol: string; exchange: string }>(
      "SELECT strftime(date, '%Y%m%d') AS d, symbol, exchange FROM ticker_history WHERE ticker = 'TWX' ORDER BY date",
    );
    assert.deepEqual(
      history.map((h) => [h.d, h.symbol, h.exchange]),
      [
        ['19980102', 'AOL', 'XNYS'],
        ['20031015', 'AOL', 'XNYS'],
        ['20180615', 'TWX', 'XNYS'],
      ],
    );
    const [twx] = await store.all<Record<string, unknown>>(
      "SELECT active, primary_exchange, strftime(delisted_utc, '%Y-%m-%d') AS delisted FROM tickers WHERE ticker = 'TWX'",
    );
    assert.deepEqual(twx, { active: false, primary_exchange: 'XNYS', delisted: '2018-06-15' });
    const [googl] = await store.all<Record<string, unknown>>(
      "SELECT active, type, market, locale FROM tickers WHERE ticker = 'GOOGL'",
    );
    assert.deepEqual(googl, { active: true, type: 'CS', market: 'stocks', locale: 'us' });
  });

  it('tickers: SPY is an ETF, IBM and AAPL common stock', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const rows = await store.all<{ ticker: string; type: string }>(
      "SELECT ticker, type FROM tickers WHERE ticker IN ('SPY', 'IBM', 'AAPL') ORDER BY ticker",
    );
    assert.deepEqual(
      rows.map((r) => [r.ticker, r.type]),
      [
        ['AAPL', 'CS'],
        ['IBM', 'CS'],
        ['SPY', 'ETF'],
      ],
    );
  });
});
