import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { countRows, get, withCachingServer } from '../../support/upstream-rig.js';

/**
 * An upstream answer of 200 whose body reports an error (`"status": "NOT_AUTHORIZED"`, ...) is an error
 * to the caching server: answered in the API's error shape with the status it stands for, and never
 * stored as data, whether the request is one it stores or one it passes through.
 */

const notAuthorized = {
  status: 'NOT_AUTHORIZED',
  request_id: 'upstream-id',
  message: 'You are not entitled to this data. Please upgrade your plan.',
};

describe('caching server: an error in a 200 body from upstream', () => {
  test('a stored kind: answered 403 in the error shape, nothing stored; the next request fetches it', async (t) => {
    await withCachingServer(t, { maxRetries: 0 }, async ({ proxy, cache }) => {
      const path = '/v3/trades/IBM?timestamp=2013-10-07&limit=5';
      proxy.script = () => ({ status: 200, body: notAuthorized });
      const failed = await get(cache.url, path);
      assert.equal(failed.status, 403, failed.text);
      assert.equal(failed.body.status, 'NOT_AUTHORIZED');
      assert.equal(typeof failed.body.request_id, 'string');
      assert.match(
        failed.body.message,
        /upstream service answered 200 with status NOT_AUTHORIZED: You are not entitled to this data.*nothing of this request was stored/,
      );
      assert.equal(proxy.seen.length, 1, 'not asked again');
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM trades'), 0);
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM coverage'), 0);

      proxy.script = () => 'forward';
      const ok = await get(cache.url, path);
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.results.length, 5);
      assert.ok((await countRows(cache.store as DuckDbStore, 'SELECT * FROM trades')) > 5);
    });
  });

  test('an answer stored as fetched and a request passed through: answered as errors, nothing stored', async (t) => {
    await withCachingServer(t, { maxRetries: 0 }, async ({ proxy, cache }) => {
      proxy.script = () => ({
        status: 200,
        body: { status: 'NOT_FOUND', request_id: 'u', message: 'Ticker not found.' },
      });
      const last = await get(cache.url, '/v2/last/trade/IBM');
      assert.equal(last.status, 404, last.text);
      assert.equal(last.body.status, 'NOT_FOUND');
      proxy.script = () => ({
        status: 200,
        body: { status: 'ERROR', request_id: 'u', error: 'Unknown API Key' },
      });
      const passed = await get(cache.url, '/v2/snapshot/locale/us/markets/stocks/gainers');
      assert.equal(passed.status, 401, passed.text);
      assert.equal(passed.body.status, 'ERROR');
      assert.match(passed.body.error, /answered 200 with status ERROR: Unknown API Key/);
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM reference_records'), 0);
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM coverage'), 0);
    });
  });
});
