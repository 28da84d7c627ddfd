import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startServer } from '../../../src/server/index.js';
import {
  allPages,
  get,
  withCachingServer,
  withOfflineServer,
  withoutOrigin,
} from '../../support/upstream-rig.js';

/**
 * A caching server in front of another `mdq serve` answers what the upstream answers, page for page,
 * for routes whose records differ from the stock ones: forex quotes (one timestamp, the participant's)
 * and the ticker types, whose path the ticker details' pattern also matches.
 */

/**
 * An answer's text without its origin and request id, and without its cursor: a cursor holds a row's
 * sequence number, which forex quotes lack and each store numbers its own way.
 */
const masked = (text: string, base: string): string =>
  withoutOrigin(text, base).replace(/cursor=[^"&]*/g, 'cursor=CURSOR');

/** The pages of `path` through the caching server and straight from the upstream, masked. */
async function bothWays(cache: string, upstream: string, path: string) {
  const got = (await allPages(cache, path)).map((p) => ({ ...p, text: masked(p.text, cache) }));
  const want = (await allPages(upstream, path)).map((p) => masked(p.text, upstream));
  return { got, want };
}

describe('caching server: records of other shapes through the chain', () => {
  test('forex quotes are stored and answered as the upstream answers them, also offline', async (t) => {
    await withCachingServer(t, {}, async ({ server: upstream, proxy, cache, db }) => {
      const path = '/v3/quotes/C:EURUSD?timestamp=2014-05-01&limit=5000';
      const { got, want } = await bothWays(cache.url, upstream.url, path);
      assert.ok(want.length > 1, 'the upstream answers several pages');
      for (const page of got) assert.equal(page.status, 200, page.text.slice(0, 300));
      assert.deepEqual(
        got.map((p) => p.text),
        want,
      );
      const calls = proxy.seen.length;
      const again = (await allPages(cache.url, path)).map((p) => masked(p.text, cache.url));
      assert.deepEqual(again, want, 'answered again');
      assert.equal(proxy.seen.length, calls, 'from the store');
      await cache.close();

      await withOfflineServer(db, undefined, async (offline) => {
        const stored = (await allPages(offline.url, path)).map((p) => masked(p.text, offline.url));
        assert.deepEqual(stored, want, 'offline');
      });
    });
  });

  test('the ticker types are answered as the upstream answers them, not read as a ticker', async (t) => {
    await withCachingServer(t, {}, async ({ server: upstream, cache }) => {
      const path = '/v3/reference/tickers/types?asset_class=stocks';
      const got = await get(cache.url, path);
      const want = await get(upstream.url, path);
      assert.equal(got.status, 200, got.text.slice(0, 300));
      assert.ok(want.body.results.length > 0, 'the upstream lists types');
      assert.equal(withoutOrigin(got.text, cache.url), withoutOrigin(want.text, upstream.url));
    });
  });
});

describe('caching server: an index open and close through the chain', () => {
  test("a day of an index's values with no minute bars is answered from its daily value, as the upstream answers", async (t) => {
    await withCachingServer(t, {}, async ({ server: upstream, proxy, cache }) => {
      // VIX has daily values only; SPX has minute bars on 2021-01-04 as well.
      for (const path of ['/v1/open-close/I:VIX/2020-03-16', '/v1/open-close/I:SPX/2021-01-04']) {
        const want = await get(upstream.url, path);
        assert.equal(want.status, 200, `${path} upstream: ${want.text}`);
        const got = await get(cache.url, path);
        assert.equal(got.status, 200, `${path}: ${got.text}`);
        assert.equal(withoutOrigin(got.text, cache.url), withoutOrigin(want.text, upstream.url), path);
        const calls = proxy.seen.length;
        const again = await get(cache.url, path);
        assert.equal(withoutOrigin(again.text, cache.url), withoutOrigin(want.text, upstream.url), path);
        assert.equal(proxy.seen.length, calls, `${path} again: from the store`);
      }
    });
  });
});
