import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  allPages,
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

const RECORDING: Recorded = { paths: MOVERS, normal: withoutOrigin };

describe('caching server: gainers and losers', () => {
  for (const now of CLOCKS) {
    test(`are stored, then answered identically with no upstream call, also offline (${new Date(now).toISOString()})`, async (t) => {
      await withCachingServer(
        t,
        {},
        async (rig) => {
          let listed = 0;
          const first = await firstPass(rig.cache.url, rig.server.url, RECORDING, {
            proxy: rig.proxy,
            check: (_path, got) => {
              listed += got[0]?.body.tickers.length;
            },
          });
          assert.ok(listed > 0, 'some market has movers');

          await secondPass(rig, first, RECORDING);
          await offlinePass(rig, now, first, RECORDING, async (offline) => {
            // The movers' route pattern also matches the many-ticker snapshot's path, which, never
            // fetched, the local route answers from the stored data.
            const all = (await allPages(offline.url, '/v2/snapshot/locale/us/markets/stocks/tickers'))[0];
            assert.equal(all?.status, 200, all?.text);
            assert.ok(Array.isArray(all?.body.tickers));
            const bad = await get(offline.url, '/v2/snapshot/locale/us/markets/stocks/climbers');
            assert.equal(bad.status, 400, bad.text);
            assert.match(bad.body.error, /direction/);
          });
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
