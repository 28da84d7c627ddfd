import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openDemoStore } from '../../src/demo/demo-store.js';
import { simulateMarket } from '../../src/demo/simulate.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { simDbPath } from './support.js';

let cached: DuckDbStore;

before(async () => {
  ({ store: cached } = await openDemoStore(simDbPath));
});
after(() => cached.close());

const CHECKSUM = `SELECT count(*) AS n, sum(hash(ticker, resolution, t, o, h, l, c, v) % 1000000007) AS h FROM bars`;

test('the market is the same on every run: a fresh generation equals the cached one', async () => {
  const fresh = await DuckDbStore.open(':memory:');
  try {
    await simulateMarket(fresh);
    const [a, b] = await Promise.all([fresh.all(CHECKSUM), cached.all(CHECKSUM)]);
    assert.deepEqual(a, b);
    const trades =
      'SELECT count(*) AS n, sum(hash(ticker, sip_timestamp, price, size) % 1000000007) AS h FROM trades';
    assert.deepEqual(await fresh.all(trades), await cached.all(trades));
  } finally {
    fresh.close();
  }
});

test('everything is labelled as simulated', async () => {
  const names = await cached.all<{ ticker: string; name: string }>('SELECT ticker, name FROM tickers');
  assert.ok(names.length >= 10);
  for (const { ticker, name } of names) assert.match(name, /^Simulated /, ticker);
  const meta = await cached.all<{ value: string }>("SELECT value FROM meta WHERE key = 'simulated'");
  assert.match(meta[0]?.value ?? '', /^simulated market/);
});

test('intraday pattern: volume is heavier at the open and the close than at midday', async () => {
  const rows = await cached.all<{ ticker: string; edge: number; mid: number }>(
    `WITH m AS (
       SELECT ticker, v, (t - (t // 86400000) * 86400000 - 14.5 * 3600000) / 60000 AS minute FROM bars
        WHERE resolution = 'minute' AND NOT contains(ticker, ':'))
     SELECT ticker, avg(v) FILTER (WHERE minute < 30 OR minute BETWEEN 360 AND 389) AS edge,
            avg(v) FILTER (WHERE minute BETWEEN 150 AND 240) AS mid
       FROM m GROUP BY ticker`,
  );
  assert.equal(rows.length, 5);
  for (const r of rows) assert.ok(r.edge > 1.5 * r.mid, `${r.ticker}: ${r.edge} vs ${r.mid}`);
});

test('the split: raw prices drop by the ratio on the split day, as the splits table says', async () => {
  const [split] = await cached.all<{ ticker: string; day: string; ratio: number }>(
    'SELECT ticker, execution_date::VARCHAR AS day, split_to / split_from AS ratio FROM splits',
  );
  assert.ok(split);
  const [around] = await cached.all<{ before: number; after: number }>(
    `SELECT arg_max(c, t) FILTER (WHERE to_timestamp(t / 1000)::DATE < $2::DATE) AS before,
            arg_min(o, t) FILTER (WHERE to_timestamp(t / 1000)::DATE >= $2::DATE) AS after
       FROM bars WHERE ticker = $1 AND resolution = 'day'`,
    [split.ticker, split.day],
  );
  const jump = (around?.before ?? 0) / (around?.after ?? 1);
  assert.ok(Math.abs(jump / split.ratio - 1) < 0.1, `close/open across the split ${jump} ≈ ${split.ratio}`);
});

test('ticks: minute bars of the tick days are their trades, and every quote has bid below ask', async () => {
  const mismatches = await cached.all<{ n: bigint }>(
    `WITH agg AS (
       SELECT ticker, (sip_timestamp // 60000000000) * 60000 AS t, arg_min(price, sequence_number) AS o, max(price) AS h,
              min(price) AS l, arg_max(price, sequence_number) AS c, sum(size) AS v
         FROM trades GROUP BY ALL)
     SELECT count(*) AS n FROM agg JOIN bars b USING (ticker, t)
      WHERE b.resolution = 'minute' AND (b.o <> agg.o OR b.h <> agg.h OR b.l <> agg.l OR b.c <> agg.c OR b.v <> agg.v)`,
  );
  assert.equal(Number(mismatches[0]?.n), 0);
  const [q] = await cached.all<{ n: bigint; bad: bigint }>(
    'SELECT count(*) AS n, count(*) FILTER (WHERE bid_price >= ask_price) AS bad FROM quotes',
  );
  assert.ok(Number(q?.n) > 10_000);
  assert.equal(Number(q?.bad), 0);
});

test('the option chain is priced consistently with its underlying: put-call parity at the close', async () => {
  const rows = await cached.all<{ strike: number; expiry: string; call: number; put: number; spot: number }>(
    `WITH last AS (
       SELECT q.ticker, arg_max((q.bid_c + q.ask_c) / 2, q.t) AS mid FROM quote_bars q
        WHERE starts_with(q.ticker, 'O:') GROUP BY q.ticker)
     SELECT c.strike_price AS strike, c.expiration_date::VARCHAR AS expiry,
            max(mid) FILTER (WHERE c.contract_type = 'call') AS call,
            max(mid) FILTER (WHERE c.contract_type = 'put') AS put,
            (SELECT arg_max(price, sip_timestamp) FROM trades WHERE ticker = c.underlying_ticker) AS spot
       FROM last JOIN option_contracts c USING (ticker) GROUP BY ALL`,
  );
  assert.ok(rows.length >= 20);
  for (const r of rows) {
    // Zero rate and no dividends: call − put = spot − strike, within the quotes' spreads and a minute's move.
    const gap = r.call - r.put - (r.spot - r.strike);
    assert.ok(Math.abs(gap) < 0.05 * r.spot * 0.05 + 0.5, `${r.expiry} ${r.strike}: ${gap}`);
  }
});
