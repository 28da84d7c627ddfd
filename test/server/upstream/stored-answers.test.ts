import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startServer } from '../../../src/server/index.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import type { ProxyAction } from '../../support/scripted-proxy.js';
import {
  countRows,
  firstPass,
  get,
  offlinePass,
  type Recorded,
  secondPass,
  withCachingApp,
  withCachingServer,
  withoutOrigin,
} from '../../support/upstream-rig.js';

/**
 * Answers stored as fetched, under their request: snapshots of many tickers, of an option chain and of
 * indices, universal snapshots, the v1 last forex quote and crypto trade, adjusted and crypto grouped
 * daily bars and indicators. Answered as stored until older than the age allowed, and offline.
 */

/** 2015-12-24 16:00 UTC, 11:00 in New York: the day of GOOG's full option chain. */
const NOW = Date.UTC(2015, 11, 24, 16);

const normal = withoutOrigin;

const RECORDED = [
  '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=GOOG,SPY',
  '/v2/snapshot/locale/us/markets/stocks/tickers',
  '/v2/snapshot/locale/global/markets/forex/tickers?tickers=C:EURUSD',
  '/v2/snapshot/locale/global/markets/crypto/tickers',
  '/v3/snapshot/options/GOOG?limit=4',
  '/v3/snapshot/options/GOOG/O:GOOG151224C00750000',
  '/v3/snapshot/indices?ticker.any_of=I:VIX',
  '/v3/snapshot?ticker.any_of=GOOG,SPY,C:EURUSD',
  '/v1/last_quote/currencies/EUR/USD',
  '/v2/aggs/grouped/locale/us/market/stocks/2015-12-23',
  '/v2/aggs/grouped/locale/global/market/crypto/2015-12-23',
  '/v1/indicators/sma/GOOG?timespan=day&window=5&limit=3',
  '/v1/indicators/macd/GOOG?timespan=day&limit=2&expand_underlying=true',
  '/v1/indicators/rsi/X:BTCUSD?timespan=day&window=14&limit=2',
];

/** At most three pages of each (GOOG's chain has more). */
const RECORDING: Recorded = { paths: RECORDED, normal, maxPages: 3 };

describe('caching server: answers stored as fetched', () => {
  test('snapshots of many tickers, chains and indices and the v1 last quote and trade are stored, then answered identically with no upstream call, also offline', async (t) => {
    await withCachingServer(
      t,
      {},
      async (rig) => {
        const truth = await startServer({ store: rig.lean, port: 0, log: () => {}, now: NOW });
        try {
          const first = await firstPass(rig.cache.url, truth.url, RECORDING, { proxy: rig.proxy });
          const chain = first.get('/v3/snapshot/options/GOOG?limit=4') ?? [];
          assert.ok(chain.length > 1, 'the chain has further pages');
          await secondPass(rig, first, RECORDING);
          await offlinePass(rig, NOW, first, RECORDING);
        } finally {
          await truth.close();
        }
      },
      NOW,
    );
  });

  test('a stored answer is fetched again once older than the age allowed', async (t) => {
    await withCachingApp(
      t,
      { now: NOW, upstreamNow: NOW, upstream: { maxAgeSeconds: 60 } },
      async ({ app, proxy, clock }) => {
        const path = '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=GOOG&apiKey=local';
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 1);
        clock.now += 59_000;
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 1, 'fresh: answered as stored');
        clock.now += 2_000;
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 2, 'aged: fetched again');
        // Another request is another answer.
        assert.equal((await app.request(`${path}&tickers=SPY`)).status, 200);
        assert.equal(proxy.seen.length, 3);
      },
    );
  });

  test('an upstream failure reaches the client in the error shape and stores nothing', async (t) => {
    await withCachingServer(t, { maxRetries: 0 }, async ({ proxy, cache }) => {
      const store = cache.store as DuckDbStore;
      proxy.script = (): ProxyAction => ({ status: 500 });
      const path = '/v3/snapshot/indices?ticker.any_of=I:VIX';
      const failed = await get(cache.url, path);
      assert.equal(failed.status, 500, failed.text);
      assert.equal(failed.body.status, 'ERROR');
      assert.match(failed.body.error, /upstream service answered 500.*nothing of this request was stored/);
      assert.equal(await countRows(store, 'SELECT * FROM reference_records'), 0);
      assert.equal(await countRows(store, 'SELECT * FROM snapshots'), 0);
      assert.equal(await countRows(store, 'SELECT * FROM coverage'), 0);
      proxy.script = () => 'forward';
      assert.equal((await get(cache.url, path)).status, 200);
      assert.equal(await countRows(store, "SELECT * FROM snapshots WHERE kind = 'snapshot:indices'"), 1);
      assert.equal(await countRows(store, "SELECT * FROM coverage WHERE ticker = 'I:VIX'"), 1);
      // The Lean data has no crypto ticks and no related companies: the upstream's 404 reaches the
      // client, and is not stored.
      for (const missing of ['/v1/last/crypto/BTC/USD', '/v1/related-companies/AAPL']) {
        const none = await get(cache.url, missing);
        assert.equal(none.status, 404, none.text);
        assert.match(none.body.message, /upstream service answered 404/);
      }
      assert.equal(await countRows(store, 'SELECT * FROM coverage'), 1);
    });
  });
});
