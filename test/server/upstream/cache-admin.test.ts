import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { cacheStatus, clearCache } from '../../../src/server/upstream/cache-admin.js';
import { countRows, get, withCachingServer } from '../../support/upstream-rig.js';

/**
 * `mdq cache status` and `mdq cache clear` over everything the caching server stores: bars by day,
 * records, listings (by their filters) and answers stored as fetched (by their request).
 */

/** 2015-12-24 16:00 UTC. */
const NOW = Date.UTC(2015, 11, 24, 16);

const ANSWER = '/v2/aggs/grouped/locale/global/market/crypto/2015-12-23';
const INDICATOR = '/v1/indicators/sma/GOOG?timespan=day&window=5&limit=3';
const LISTING = '/v3/reference/tickers?market=stocks&limit=2';
const BARS = '/v2/aggs/ticker/GOOG/range/1/day/2015-12-21/2015-12-23?adjusted=false';

describe('caching server: cache status and clear', () => {
  test('status lists answers and listings with their kind, key and size; clear removes them, one or all', async (t) => {
    await withCachingServer(
      t,
      {},
      async ({ cache }) => {
        const store = cache.store as DuckDbStore;
        for (const path of [ANSWER, INDICATOR, LISTING, BARS]) {
          const res = await get(cache.url, path);
          assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 200)}`);
        }
        const listed = await countRows(store, "SELECT * FROM tickers WHERE market = 'stocks'");
        assert.ok(listed > 2, 'the listing is stored whole');
        const bodies = new Map(
          (
            await store.all<{ ticker: string; body: string }>(
              "SELECT ticker, body FROM reference_records WHERE kind = 'answer'",
            )
          ).map((r) => [r.ticker, Buffer.byteLength(r.body)]),
        );

        const status = await cacheStatus(store);
        const row = (ticker: string, kind: string) =>
          status.ranges.find((r) => r.ticker === ticker && r.kind === kind);
        for (const key of [ANSWER, INDICATOR]) {
          const r = row(key, 'answer');
          assert.ok(r, `${key} is listed: ${JSON.stringify(status.ranges)}`);
          assert.deepEqual([r.whole, r.rows, r.bytes], [true, 1, bodies.get(key)], key);
          assert.ok((r.bytes ?? 0) > 100);
        }
        const listing = row('active=true&market=stocks', 'tickers');
        assert.deepEqual([listing?.whole, listing?.rows], [true, listed]);
        const bars = row('GOOG', 'bars:day');
        assert.deepEqual(
          [bars?.whole, bars?.first, bars?.last, bars?.rows],
          [false, '2015-12-21', '2015-12-23', 3],
        );

        // One answer, by its request.
        assert.equal(await clearCache(store, INDICATOR), 1);
        assert.equal(await countRows(store, "SELECT * FROM reference_records WHERE kind = 'answer'"), 1);
        assert.ok(!(await cacheStatus(store)).ranges.some((r) => r.ticker === INDICATOR));
        // One listing, by its filters: its rows go with it.
        assert.equal(await clearCache(store, 'active=true&market=stocks'), 1);
        assert.equal(await countRows(store, 'SELECT * FROM tickers'), 0);
        assert.equal(await countRows(store, 'SELECT * FROM listed_rows'), 0);

        const left = (await cacheStatus(store)).ranges.length;
        assert.equal(await clearCache(store), left);
        for (const table of ['coverage', 'reference_records', 'bars', 'tickers', 'listed_rows']) {
          assert.equal(await countRows(store, `SELECT * FROM ${table}`), 0, table);
        }
      },
      NOW,
    );
  });
});
