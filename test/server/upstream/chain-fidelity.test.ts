import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  firstPass,
  get,
  offlinePass,
  type Recorded,
  secondPass,
  withCachingServer,
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

describe('caching server: records of other shapes through the chain', () => {
  test('forex quotes are stored and answered as the upstream answers them, also offline', async (t) => {
    await withCachingServer(t, {}, async (rig) => {
      const path = '/v3/quotes/C:EURUSD?timestamp=2014-05-01&limit=5000';
      const recorded: Recorded = { paths: [path], normal: masked };
      const first = await firstPass(rig.cache.url, rig.server.url, recorded);
      assert.ok((first.get(path)?.length ?? 0) > 1, 'the upstream answers several pages');
      await secondPass(rig, first, recorded);
      await offlinePass(rig, undefined, first, recorded);
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
