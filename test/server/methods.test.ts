/**
 * Methods other than GET and HEAD on a path the API has get 405 in its error shape, with `Allow`; a path
 * it does not have stays a 404. Over real loopback HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';

let store: DuckDbStore;
let server: RunningServer;

before(async () => {
  store = await DuckDbStore.open(':memory:');
  server = await startServer({ store, port: 0, log: () => {} });
});
after(async () => {
  await server.close();
  store.close();
});

test('POST, PUT, DELETE, PATCH and OPTIONS on an existing path: 405 naming the method, with Allow', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const res = await fetch(`${server.url}/v2/aggs/ticker/SPY/range/1/day/2013-10-07/2013-10-11`, {
      method,
      ...(method !== 'OPTIONS' && { body: '{}' }),
    });
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.get('allow'), 'GET, HEAD');
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.status, 'ERROR');
    assert.match(String(body.request_id), /^[0-9a-f]{32}$/);
    assert.equal(body.error, `Method ${method} is not allowed: the API answers GET and HEAD`);
  }
});

test('HEAD is answered like GET, without a body; another method on a missing path is 404', async () => {
  const head = await fetch(`${server.url}/v1/marketstatus/now`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
  const missing = await fetch(`${server.url}/v9/nothing`, { method: 'POST', body: '{}' });
  assert.equal(missing.status, 404);
  assert.equal(((await missing.json()) as { status: string }).status, 'NOT_FOUND');
});
