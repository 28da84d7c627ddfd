import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cacheStatus, clearCache } from '../../../src/server/upstream/cache-admin.js';
import { countRows, withCachingApp } from '../../support/upstream-rig.js';

/** `mdq cache clear` removes what the caching server stored, never rows ingested from files. */

describe('caching server: rows ingested from files', () => {
  test('are kept when the cache fetches their days and when it is cleared', async (t) => {
    // Ingested before the caching server ran: three minute bars of SPY on 2013-10-07 and a split.
    const seed = async (store: import('../../../src/server/store/duckdb-store.js').DuckDbStore) => {
      const t0 = Date.UTC(2013, 9, 7, 14);
      for (const i of [0, 1, 2]) {
        await store.run(
          "INSERT INTO bars (ticker, resolution, t, o, h, l, c, v, vw, n) VALUES ('SPY', 'minute', $1, 1, 2, 0.5, 1.5, 100, NULL, NULL)",
          [t0 + i * 60_000],
        );
      }
      await store.run("INSERT INTO splits VALUES ('SPY', '2001-01-02'::DATE, 1, 2)");
    };
    await withCachingApp(t, { now: Date.UTC(2013, 9, 10, 12), seed }, async ({ store, app }) => {
      const res = await app.request(
        '/v2/aggs/ticker/SPY/range/1/minute/2013-10-07/2013-10-08?limit=50000&apiKey=local',
      );
      assert.equal(res.status, 200);
      const ranges = (await cacheStatus(store)).ranges.map((r) => [r.kind, r.first, r.last, r.source]);
      assert.deepEqual(ranges, [
        ['bars:minute', '2013-10-07', '2013-10-07', 'files'],
        ['bars:minute', '2013-10-08', '2013-10-08', 'upstream'],
        ['splits', '0001-01-01', '9999-12-31', 'files'],
      ]);
      const ingestedDay = "SELECT * FROM bars WHERE ticker = 'SPY' AND t < 1381204800000";
      assert.equal(await countRows(store, ingestedDay), 3, 'the ingested day is kept as ingested');
      assert.ok((await countRows(store, 'SELECT * FROM bars')) > 3, 'the other day is stored');

      assert.equal(await clearCache(store), 3);
      assert.equal(await countRows(store, ingestedDay), 3, 'clear keeps the ingested bars');
      assert.equal(await countRows(store, 'SELECT * FROM bars'), 3, "clear removes the cache's own bars");
      assert.equal(
        await countRows(store, "SELECT * FROM splits WHERE ticker = 'SPY'"),
        1,
        'clear keeps splits',
      );
    });
  });
});
