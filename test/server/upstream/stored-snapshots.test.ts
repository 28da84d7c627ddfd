import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startServer } from '../../../src/server/index.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { cacheStatus, clearCache } from '../../../src/server/upstream/cache-admin.js';
import {
  countRows,
  get,
  withCachingApp,
  withCachingServer,
  withoutOrigin,
} from '../../support/upstream-rig.js';

/**
 * Snapshots stored as data: each ticker's snapshot object of any snapshot answer is a row, and a request
 * naming tickers is answered from their rows, whichever answer brought them.
 */

/** 2015-12-24 16:00 UTC, 11:00 in New York: the day of GOOG's full option chain. */
const NOW = Date.UTC(2015, 11, 24, 16);

/** Wider requests, each followed by narrower ones their rows answer. */
const WIDER_THEN_NARROWER: readonly [string, readonly string[]][] = [
  [
    '/v2/snapshot/locale/us/markets/stocks/tickers',
    [
      '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,GOOG',
      '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=GOOG',
      '/v2/snapshot/locale/us/markets/stocks/tickers/SPY',
    ],
  ],
  [
    '/v2/snapshot/locale/global/markets/forex/tickers?tickers=C:EURUSD,C:NZDUSD',
    [
      '/v2/snapshot/locale/global/markets/forex/tickers/C:EURUSD',
      '/v2/snapshot/locale/global/markets/forex/tickers?tickers=NZDUSD',
    ],
  ],
  [
    '/v3/snapshot?ticker.any_of=GOOG,SPY,C:EURUSD',
    ['/v3/snapshot?ticker.any_of=C:EURUSD,GOOG', '/v3/snapshot?ticker.any_of=SPY&limit=5'],
  ],
  [
    '/v3/snapshot/indices',
    ['/v3/snapshot/indices?ticker.any_of=I:VIX', '/v3/snapshot/indices?ticker.any_of=VIX'],
  ],
];

const CHAIN = '/v3/snapshot/options/GOOG?limit=4';

const OTHER_ANSWERS = [
  '/v1/indicators/sma/GOOG?timespan=day&window=5&limit=3',
  '/v2/aggs/grouped/locale/global/market/crypto/2015-12-23',
  '/v2/snapshot/locale/us/markets/stocks/gainers',
];

describe('caching server: snapshots stored as rows', () => {
  test('a subset, one ticker, a universal list or a contract of a chain fetched before is answered from rows with no upstream call, as the service answers it; offline too, and by a server with no upstream', async (t) => {
    await withCachingServer(
      t,
      {},
      async ({ lean, proxy, cache, db }) => {
        const truth = await startServer({ store: lean, port: 0, log: () => {}, now: NOW });
        const same = async (base: string, path: string) => {
          const got = await get(base, path);
          const want = await get(truth.url, path);
          assert.equal(got.status, 200, `${path}: ${got.text.slice(0, 300)}`);
          assert.equal(want.status, 200, `${path} (upstream): ${want.text.slice(0, 300)}`);
          assert.equal(withoutOrigin(got.text, base), withoutOrigin(want.text, truth.url), path);
          return got;
        };
        const narrower: string[] = [];
        try {
          for (const [wide, narrow] of WIDER_THEN_NARROWER) {
            const calls = proxy.seen.length;
            await same(cache.url, wide);
            assert.equal(proxy.seen.length, calls + 1, wide);
            for (const path of narrow) {
              await same(cache.url, path);
              assert.equal(proxy.seen.length, calls + 1, `${path}: answered from rows`);
              narrower.push(path);
            }
          }
          // An option contract after its chain's page.
          const chain = await same(cache.url, CHAIN);
          const contract = chain.body.results[2].details.ticker as string;
          const calls = proxy.seen.length;
          const one = `/v3/snapshot/options/GOOG/${contract}`;
          await same(cache.url, one);
          assert.equal(proxy.seen.length, calls, `${one}: answered from rows`);
          narrower.push(one);
          // A ticker not stored is fetched with its request, which stores its row.
          await same(cache.url, '/v2/snapshot/locale/global/markets/forex/tickers?tickers=C:EURUSD,C:EURGBP');
          assert.equal(proxy.seen.length, calls + 1);
          await same(cache.url, '/v2/snapshot/locale/global/markets/forex/tickers/C:EURGBP');
          assert.equal(proxy.seen.length, calls + 1);
          // Other answers stored as fetched, which a server with no upstream answers too.
          for (const path of OTHER_ANSWERS) await same(cache.url, path);
          await cache.close();

          const offline = await startServer({
            db,
            port: 0,
            upstream: { offline: true },
            log: () => {},
            now: NOW,
          });
          try {
            for (const path of narrower) await same(offline.url, path);
            const missing = await get(
              offline.url,
              '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,ZZZQ',
            );
            assert.equal(missing.status, 404, missing.text);
            assert.equal(missing.body.status, 'NOT_FOUND');
            assert.match(missing.body.message, /stocks snapshot of ZZZQ;.*offline/);
          } finally {
            await offline.close();
          }

          // No upstream at all: the store answers what was recorded (it holds no bars to compute from).
          const plain = await startServer({ db, port: 0, log: () => {}, now: NOW });
          try {
            for (const path of narrower) await same(plain.url, path);
            for (const [wide] of WIDER_THEN_NARROWER) await same(plain.url, wide);
            await same(plain.url, CHAIN);
            for (const path of OTHER_ANSWERS) await same(plain.url, path);
            // Nothing stored for it: the local route answers from the store, which holds no bars.
            const bars = await get(plain.url, '/v2/aggs/ticker/GOOG/range/1/day/2015-12-01/2015-12-23');
            assert.equal(bars.status, 200, bars.text);
            assert.equal(bars.body.resultsCount, 0);
          } finally {
            await plain.close();
          }
          assert.equal(proxy.seen.length, calls + 1 + OTHER_ANSWERS.length);
        } finally {
          await truth.close();
        }
      },
      NOW,
    );
  });

  test('rows older than the age allowed are fetched again; mdq cache status lists them and clear removes them', async (t) => {
    await withCachingApp(
      t,
      { now: NOW, upstreamNow: NOW, upstream: { maxAgeSeconds: 60 } },
      async ({ app, proxy, clock, store }) => {
        const ask = async (path: string) => {
          const res = await app.request(`${path}${path.includes('?') ? '&' : '?'}apiKey=local`);
          assert.equal(res.status, 200, await res.clone().text());
        };
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers');
        assert.equal(proxy.seen.length, 1);
        clock.now += 59_000;
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers/SPY');
        assert.equal(proxy.seen.length, 1, 'fresh: from its row');
        clock.now += 2_000;
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers/SPY');
        assert.equal(proxy.seen.length, 2, 'aged: fetched again');
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY');
        assert.equal(proxy.seen.length, 2, 'fetched again: fresh');
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,GOOG');
        assert.equal(proxy.seen.length, 3, 'GOOG aged');

        const status = await cacheStatus(store as DuckDbStore);
        const spy = status.ranges.find((r) => r.ticker === 'SPY' && r.kind === 'snapshot:stocks');
        assert.equal(spy?.rows, 1);
        assert.ok((spy?.bytes ?? 0) > 100);
        assert.equal(await clearCache(store, 'SPY'), 1);
        assert.equal(await countRows(store, "SELECT * FROM snapshots WHERE ticker = 'SPY'"), 0);
        assert.equal(await countRows(store, "SELECT * FROM snapshots WHERE ticker = 'GOOG'"), 1);
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers/SPY');
        assert.equal(proxy.seen.length, 4, 'cleared: fetched again');
      },
    );
  });

  test('a fetch cut mid-answer stores nothing', async (t) => {
    await withCachingServer(
      t,
      { maxRetries: 0 },
      async ({ proxy, cache }) => {
        const store = cache.store as DuckDbStore;
        proxy.script = () => 'drop-mid-body';
        for (const path of [
          '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,GOOG',
          '/v2/snapshot/locale/us/markets/stocks/tickers',
          CHAIN,
        ]) {
          const failed = await get(cache.url, path);
          assert.equal(failed.status, 502, failed.text);
          assert.match(failed.body.error, /nothing of this request was stored/);
        }
        for (const table of ['snapshots', 'coverage', 'reference_records'])
          assert.equal(await countRows(store, `SELECT * FROM ${table}`), 0, table);
        proxy.script = () => 'forward';
        assert.equal(
          (await get(cache.url, '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,GOOG')).status,
          200,
        );
        assert.equal(await countRows(store, 'SELECT * FROM snapshots'), 2);
      },
      NOW,
    );
  });
});
