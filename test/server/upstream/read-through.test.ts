import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startServer } from '../../../src/server/index.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { cacheStatus } from '../../../src/server/upstream/cache-admin.js';
import {
  firstPass,
  get,
  offlinePass,
  type Recorded,
  secondPass,
  withCachingServer,
} from '../../support/upstream-rig.js';

/**
 * The caching server (`startServer({ upstream })`) over real loopback HTTP: a server over the Lean test
 * store is the upstream (behind a proxy that counts its calls), another server over the same store is
 * the truth answers are compared with, and the caching server starts on an empty store.
 */

/**
 * An answer's text without what differs between servers: request ids, the server's own origin, and the
 * query time the legacy ticks report.
 */
const normal = (text: string, base: string) =>
  text
    .replace(/"request_id":"[^"]*"/g, '"request_id":""')
    .replace(/"db_latency":\d+/g, '"db_latency":0')
    .replaceAll(base, 'ORIGIN');

/**
 * Bars built by rolling up stored bars (5-minute bars from minute bars, weeks from days) carry a vw
 * averaged from the rounded vw of their parts: equal to the service's within the last of its four
 * decimals. Everything else is exact.
 */
function sameBars(got: any, want: any, what: string): void {
  const { results: g = [], request_id: _g, next_url: gn, ...gRest } = got;
  const { results: w = [], request_id: _w, next_url: wn, ...wRest } = want;
  assert.deepEqual(gRest, wRest, what);
  assert.equal(gn === undefined, wn === undefined, `${what}: next_url`);
  assert.equal(g.length, w.length, `${what}: bar count`);
  g.forEach((bar: any, i: number) => {
    const { vw: gv, ...gb } = bar;
    const { vw: wv, ...wb } = w[i];
    assert.deepEqual(gb, wb, `${what}: bar ${i}`);
    assert.ok(Math.abs((gv ?? 0) - (wv ?? 0)) <= 1.0001e-4, `${what}: bar ${i} vw ${gv} vs ${wv}`);
  });
}

/** Requests answered first through the upstream, then from the store alone. */
const RECORDED = [
  '/v2/aggs/ticker/SPY/range/1/minute/2013-10-07/2013-10-08?limit=50000',
  '/v2/aggs/ticker/SPY/range/1/minute/2013-10-09/2013-10-09?limit=300',
  '/v2/aggs/ticker/IBM/range/1/day/2013-09-01/2013-10-31',
  '/v2/aggs/ticker/AAPL/range/1/day/2014-05-01/2014-06-30',
  '/v2/aggs/ticker/AAPL/range/1/day/2014-05-01/2014-06-30?adjusted=false',
  '/v2/aggs/ticker/X:BTCUSD/range/1/minute/2018-04-04/2018-04-04?limit=50000',
  '/v2/aggs/ticker/C:EURUSD/range/1/hour/2014-05-01/2014-05-02',
  '/v2/aggs/ticker/I:VIX/range/1/day/2013-10-01/2013-10-31',
  '/v3/trades/IBM?timestamp=2013-10-07&order=asc&limit=5000',
  '/v3/quotes/IBM?timestamp=2013-10-08&limit=20000',
  '/v3/reference/splits?ticker=AAPL',
  '/v3/reference/tickers/AAPL',
  // The Lean data has no dividends: an empty listing is stored as covered all the same.
  '/v3/reference/dividends?ticker=AAPL',
  '/v2/snapshot/locale/us/markets/stocks/tickers/SPY',
  '/v2/snapshot/locale/global/markets/forex/tickers/C:EURUSD',
  '/v2/last/trade/IBM',
  '/v2/last/nbbo/IBM',
];

const RECORDING: Recorded = { paths: RECORDED, normal };

/** 2013-10-07 14:00 UTC (10:00 in New York). */
const TEN_AM = Date.UTC(2013, 9, 7, 14);
const ns = (ms: number) => BigInt(ms) * 1_000_000n;

/** Requests the recorded ones cover: sub-ranges, other limits and sorts, other window sizes. */
const COVERED: [path: string, rolledUp: boolean][] = [
  ['/v2/aggs/ticker/SPY/range/5/minute/2013-10-07/2013-10-08', true],
  ['/v1/open-close/SPY/2013-10-08', false],
  ['/v2/aggs/ticker/SPY/range/1/hour/2013-10-08/2013-10-08', true],
  ['/v2/aggs/ticker/SPY/range/1/day/2013-10-07/2013-10-09', true],
  [`/v2/aggs/ticker/SPY/range/1/minute/${TEN_AM}/${TEN_AM + 3_600_000}?sort=desc&limit=30`, false],
  ['/v2/aggs/ticker/IBM/range/1/day/2013-10-02/2013-10-04?sort=desc', false],
  ['/v2/aggs/ticker/IBM/range/2/day/2013-09-03/2013-09-30', true],
  ['/v2/aggs/ticker/IBM/range/1/week/2013-09-08/2013-10-26', true],
  ['/v2/aggs/ticker/IBM/range/1/month/2013-09-01/2013-10-31', true],
  ['/v2/aggs/ticker/AAPL/range/1/week/2014-05-04/2014-06-28', true],
  ['/v2/aggs/ticker/X:BTCUSD/range/15/minute/2018-04-04/2018-04-04', true],
  [
    `/v3/trades/IBM?timestamp.gte=${ns(TEN_AM)}&timestamp.lt=${ns(TEN_AM + 600_000)}&limit=100&order=desc`,
    false,
  ],
  ['/v3/quotes/IBM?timestamp=2013-10-08&limit=777&order=asc', false],
  ['/v2/ticks/stocks/trades/IBM/2013-10-07?limit=300', false],
  ['/v2/ticks/stocks/nbbo/IBM/2013-10-08?limit=300&reverse=true', false],
  ['/v3/reference/splits?ticker=AAPL&execution_date.gte=2010-01-01', false],
];

describe('caching server (startServer upstream)', () => {
  test('records through the upstream, then answers the same and covered requests from the store alone, also offline', async (t) => {
    await withCachingServer(t, {}, async (rig) => {
      const { lean, proxy, cache, logged } = rig;
      const truth = await startServer({ store: lean, port: 0, log: () => {} });
      try {
        const first = await firstPass(cache.url, truth.url, RECORDING, {
          check: (path, got) => {
            if (path.includes('snapshot'))
              assert.equal(typeof got[0]?.body.ticker?.day, 'object', `${path} has a day`);
            else if (!path.includes('dividends'))
              assert.ok(got[0]?.body.results !== undefined, `${path} has results`);
            if (path.includes('/v2/aggs') || path.includes('/v3/trades') || path.includes('/v3/quotes'))
              assert.ok(got[0]?.body.results.length > 0, `${path} has results`);
          },
        });
        // A listing the store cannot filter as the service does (a search) is not stored: the service
        // answers it while online.
        const listing = '/v3/reference/tickers?search=inc&limit=5';
        const live = await get(cache.url, listing);
        assert.equal(live.status, 200, live.text);
        assert.equal(normal(live.text, cache.url), normal((await get(truth.url, listing)).text, truth.url));
        assert.ok(proxy.seen.some((s) => s.url === listing));
        const calls = proxy.seen.length;
        assert.ok(calls >= RECORDED.length, `upstream calls: ${calls}`);
        assert.equal(cache.upstream?.upstreamRequests, calls);

        await secondPass(rig, first, RECORDING);
        for (const [path, rolledUp] of COVERED) {
          const got = await get(cache.url, path);
          const want = await get(truth.url, path);
          assert.equal(got.status, 200, `${path}: ${got.text.slice(0, 300)}`);
          if (path.startsWith('/v1/open-close')) assert.equal(typeof want.body.afterHours, 'number');
          else assert.ok(want.body.results?.length > 0, `${path} has results`);
          if (rolledUp) sameBars(got.body, want.body, path);
          else assert.equal(normal(got.text, cache.url), normal(want.text, truth.url), path);
        }
        assert.equal(proxy.seen.length, calls, 'no upstream call on the second pass');
        assert.ok(logged.some((l) => /stored \d+ trades of IBM for 2013-10-07\.\.2013-10-07/.test(l)));

        const status = await cacheStatus(cache.store as DuckDbStore);
        assert.ok(status.ranges.some((r) => r.ticker === 'IBM' && r.kind === 'quotes' && r.final));

        // The same file, offline: what is stored answers; what is not is a 404 naming it.
        await offlinePass(rig, undefined, first, RECORDING, async (offline) => {
          const details = await get(offline.url, '/v3/reference/tickers/IBM');
          assert.equal(details.status, 404);
          assert.match(details.body.message, /ticker details of IBM; this server is offline/);
          const missing = await get(offline.url, '/v2/aggs/ticker/IBM/range/1/day/2013-08-20/2013-09-05');
          assert.equal(missing.status, 404);
          assert.equal(missing.body.status, 'NOT_FOUND');
          assert.match(missing.body.message, /daily bars of IBM for 2013-08-20\.\.2013-08-31.*offline/);
          const noTicks = await get(offline.url, '/v3/trades/SPY?timestamp=2013-10-07');
          assert.equal(noTicks.status, 404);
          assert.match(noTicks.body.message, /trades of SPY for 2013-10-07\.\.2013-10-07/);
        });
      } finally {
        await truth.close();
      }
    });
  });
});

test('a caching server keeps what it fetches in a DuckDB store: a ClickHouse store is refused by name, before anything opens', async () => {
  await assert.rejects(
    startServer({
      store: 'clickhouse://default@127.0.0.1:1/default',
      upstream: { url: 'http://127.0.0.1:1', apiKey: 'k' },
      port: 0,
      log: () => {},
    }),
    /Invalid store: "clickhouse:\/\/default@127\.0\.0\.1:1\/default"; the caching server \(upstream\) keeps what it fetches in a duckdb:PATH store/,
  );
});
