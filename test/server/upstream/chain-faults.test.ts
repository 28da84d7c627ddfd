import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { countRows, get, withCachingServer } from '../../support/upstream-rig.js';

/**
 * An upstream that answers 200 with a body cut short (well framed, not JSON): the caching server
 * answers a 502 in the API's error shape, stores nothing, and fetches the request whole once the
 * upstream answers properly again.
 */

/** IBM quotes of 2013-10-08: two pages upstream (50,000 a page). */
const TWO_PAGES = '/v3/quotes/IBM?timestamp=2013-10-08&limit=10';

describe('caching server: an upstream answer that is not JSON', () => {
  test('on the second page of a stored kind: a 502 naming it, nothing stored, then fetched whole', async (t) => {
    await withCachingServer(t, { maxRetries: 0 }, async ({ proxy, cache }) => {
      proxy.script = (req) => (req.url.includes('cursor=') ? 'half-body' : 'forward');
      const failed = await get(cache.url, TWO_PAGES);
      assert.equal(failed.status, 502, failed.text);
      assert.equal(failed.body.status, 'ERROR');
      assert.match(failed.body.error, /upstream service answered 200 with a body that is not JSON/);
      assert.match(failed.body.error, /nothing of this request was stored/);
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM quotes'), 0);
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM coverage'), 0);

      proxy.script = () => 'forward';
      const ok = await get(cache.url, TWO_PAGES);
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.results.length, 10);
    });
  });

  test('on a route passed through: a 502 naming it, then the answer once the upstream mends', async (t) => {
    await withCachingServer(t, { maxRetries: 0 }, async ({ server: upstream, proxy, cache }) => {
      const path = '/v3/reference/exchanges?asset_class=stocks';
      proxy.script = () => 'half-body';
      const failed = await get(cache.url, path);
      assert.equal(failed.status, 502, failed.text);
      assert.equal(failed.body.status, 'ERROR');
      assert.equal(failed.body.request_id, failed.headers.get('x-request-id'));
      assert.match(failed.body.error, /not JSON/);

      proxy.script = () => 'forward';
      const ok = await get(cache.url, path);
      assert.equal(ok.status, 200, ok.text);
      const want = await get(upstream.url, path);
      assert.deepEqual(ok.body.results, want.body.results);
    });
  });
});

describe('caching server: an upstream error relayed', () => {
  test("a 404 passed through keeps the service's status and message in one sentence", async (t) => {
    await withCachingServer(t, {}, async ({ server: upstream, cache }) => {
      const path = '/v1/related-companies/AAPL';
      const want = await get(upstream.url, path);
      assert.equal(want.status, 404, want.text);
      const got = await get(cache.url, path);
      assert.equal(got.status, 404, got.text);
      assert.equal(got.body.status, 'NOT_FOUND');
      assert.equal(
        got.body.message,
        `The upstream service answered 404: ${want.body.message.replace(/\.$/, '')}; nothing of this request was stored.`,
      );
    });
  });
});
