/**
 * Requests refused before they reach the app (by Node's HTTP parser or the adapter) are answered in
 * the service's error shape, naming what is wrong, over a real socket: never an empty body. So are
 * methods other than GET and HEAD on a path the API has (405, with `Allow`); a path it does not have
 * stays a 404.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
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

/** Sends `text` as is and reads the answer until the server closes the connection. */
function exchange(text: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const head = raw.slice(0, split);
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: raw.slice(split + 4) });
    });
    socket.end(text);
  });
}

function assertErrorShape(body: string, status: number, pattern: RegExp): void {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  assert.equal(parsed.status, 'ERROR', body);
  assert.match(String(parsed.request_id), /^[0-9a-f]{32}$/);
  assert.match(String(parsed.error), pattern);
  assert.ok(status >= 400 && status < 500);
}

describe('requests refused before the app', () => {
  test('a query string past the header limit: 431 naming the limit', async () => {
    const res = await exchange(
      `GET /v1/marketstatus/now?x=${'y'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    );
    assert.equal(res.status, 431);
    assert.match(res.headers, /content-type: application\/json/i);
    assertErrorShape(res.body, res.status, /exceed \d+ bytes/);
  });

  test('headers past the limit: 431', async () => {
    const res = await exchange(
      `GET /v1/marketstatus/now HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.equal(res.status, 431);
    assertErrorShape(res.body, res.status, /headers together exceed/);
  });

  test('a request line that is not HTTP: 400 saying it is malformed', async () => {
    for (const text of ['GET /v1/marketstatus/now x y HTTP/1.1\r\nHost: a\r\n\r\n', 'HELLO\r\n\r\n']) {
      const res = await exchange(text);
      assert.equal(res.status, 400, text);
      assertErrorShape(res.body, res.status, /Malformed HTTP request/);
    }
  });

  test('an HTTP/1.1 request without Host: 400 naming the header', async () => {
    const res = await exchange('GET /v1/marketstatus/now HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.equal(res.status, 400);
    assertErrorShape(res.body, res.status, /Host header/);
  });

  test('a Host or target no URL can be made of: 400', async () => {
    for (const text of [
      'GET /v1/marketstatus/now HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n',
      'GET /v1\\marketstatus HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
      'GET http://[x/v1/marketstatus/now HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
    ]) {
      const res = await exchange(text);
      assert.equal(res.status, 400, text);
      assertErrorShape(res.body, res.status, /Malformed request/);
    }
  });

  test('well-formed requests still get their answers: HTTP/1.1 with Host (empty too), HTTP/1.0 without', async () => {
    const one = await exchange(
      'GET /v1/marketstatus/now HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    assert.equal(one.status, 200);
    assert.equal(typeof (JSON.parse(one.body) as { market?: unknown }).market, 'string');
    // An empty Host is what HTTP/1.1 asks of a client whose target has no authority.
    const empty = await exchange('GET /v1/marketstatus/now HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n');
    assert.equal(empty.status, 200);
    const old = await exchange('GET /v1/marketstatus/now HTTP/1.0\r\n\r\n');
    assert.equal(old.status, 200);
    assert.equal(typeof (JSON.parse(old.body) as { market?: unknown }).market, 'string');
  });
});

describe('methods other than GET and HEAD', () => {
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
});
