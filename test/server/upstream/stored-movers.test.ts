import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startServer } from '../../../src/server/index.js';
import {
  allPages,
  get,
  withCachingApp,
  withCachingServer,
  withoutOrigin,
} from '../../support/upstream-rig.js';

/**
 * The gainers and losers of stocks, forex and crypto through the caching server: stored as answered,
 * under their request, answered as stored until older than the age allowed, and offline.
 */

const MOVERS = [
  '/v2/snapshot/locale/us/markets/stocks/gainers',
  '/v2/snapshot/locale/us/markets/stocks/losers?include_otc=true',
  '/v2/snapshot/locale/global/markets/forex/gainers',
  '/v2/snapshot/locale/global/markets/forex/losers',
  '/v2/snapshot/locale/global/markets/crypto/gainers',
  '/v2/snapshot/locale/global/markets/crypto/losers',
];

/** Clocks at which the Lean data has movers: stocks on 2013-10-08, forex and crypto on 2018-04-04. */
const CLOCKS = [Date.UTC(2013, 9, 8, 18), Date.UTC(2018, 3, 4, 18)];

const normal = withoutOrigin;

describe('caching server: gainers and losers', () => {
  for (const now of CLOCKS) {
    test(`are stored, then answered identically with no upstream call, also offline (${new Date(now).toISOString()})`, async (t) => {
      await withCachingServer(
        t,
        {},
        async ({ server: upstream, proxy, cache, db }) => {
          const first = new Map<string, string>();
          let listed = 0;
          for (const path of MOVERS) {
            const calls = proxy.seen.length;
            const got = await get(cache.url, path);
            const want = await get(upstream.url, path);
            assert.equal(got.status, 200, `${path}: ${got.text.slice(0, 300)}`);
            assert.equal(normal(got.text, cache.url), normal(want.text, upstream.url), path);
            assert.equal(proxy.seen.length, calls + 1, `${path}: one upstream call`);
            listed += got.body.tickers.length;
            first.set(path, normal(got.text, cache.url));
          }
          assert.ok(listed > 0, 'some market has movers');
          const calls = proxy.seen.length;

          await upstream.close();
          for (const path of MOVERS) {
            assert.equal(normal((await get(cache.url, path)).text, cache.url), first.get(path), path);
          }
          assert.equal(proxy.seen.length, calls, 'no upstream call on the second pass');
          await cache.close();

          const offline = await startServer({ db, port: 0, upstream: { offline: true }, log: () => {}, now });
          try {
            for (const path of MOVERS) {
              const again = await get(offline.url, path);
              assert.equal(normal(again.text, offline.url), first.get(path), `offline ${path}`);
            }
            // The movers' route pattern also matches the many-ticker snapshot's path, which, never
            // fetched, the local route answers from the stored data.
            const all = (await allPages(offline.url, '/v2/snapshot/locale/us/markets/stocks/tickers'))[0];
            assert.equal(all?.status, 200, all?.text);
            assert.ok(Array.isArray(all?.body.tickers));
            const bad = await get(offline.url, '/v2/snapshot/locale/us/markets/stocks/climbers');
            assert.equal(bad.status, 400, bad.text);
            assert.match(bad.body.error, /direction/);
          } finally {
            await offline.close();
          }
          assert.equal(proxy.seen.length, calls);
        },
        now,
      );
    });
  }

  test('a stored answer of gainers is fetched again once older than the age allowed', async (t) => {
    const now = CLOCKS[0] as number;
    await withCachingApp(
      t,
      { now, upstreamNow: now, upstream: { maxAgeSeconds: 60 } },
      async ({ app, proxy, clock }) => {
        const path = '/v2/snapshot/locale/us/markets/stocks/losers?apiKey=local';
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 1);
        clock.now += 59_000;
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 1, 'fresh: answered as stored');
        clock.now += 2_000;
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 2, 'aged: fetched again');
      },
    );
  });
});
