import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { failedChunkOf } from '../../src/core/full-range.js';
import { InternalServerError, isInternalServerError, StocksClient } from '../../src/index.js';

const KEY = 'fail-fast-key-7';
// Two 45-day minute chunks; the first starts at the New York midnight of FROM.
const FROM = '2024-01-02';
const TO = '2024-03-31';
const FIRST_CHUNK_FROM = Date.parse('2024-01-02T00:00:00-05:00');
const READ_TIMEOUT_S = 30;

/**
 * Over loopback HTTP: the first chunk is answered 500 every time, every other chunk stalls (headers
 * never sent) until its connection closes.
 */
describe('full range: a failing chunk fails the call at once', () => {
  const stalled: { closed: Promise<number> }[] = [];
  let failures = 0;
  let url = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const from = Number(req.url?.split('?')[0]?.split('/')[8]);
    if (from === FIRST_CHUNK_FROM) {
      failures++;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ERROR', request_id: `boom-${failures}`, error: 'internal' }));
      return;
    }
    stalled.push({ closed: once(res, 'close').then(() => performance.now()) });
  });
  before(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  test('rejects with the 500 error well before the stall ends, and closes the stalled request', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const client = StocksClient(KEY, {
      baseUrl: url,
      useAsync: true,
      maxRetries: 1,
      readTimeout: READ_TIMEOUT_S,
    });
    try {
      const started = performance.now();
      const error = await client
        .getAggregateBars('AAPL', FROM, TO, { timespan: 'minute', fullRange: true })
        .then(
          () => assert.fail('the call resolved'),
          (e: unknown) => e,
        );
      const rejectedAt = performance.now();
      assert.ok(error instanceof InternalServerError, `got ${String(error)}`);
      assert.ok(isInternalServerError(error));
      assert.equal(error.status, 500);
      assert.equal(error.requestId, 'boom-2', 'the error of the last attempt (one retry)');
      assert.equal(failures, 2);
      assert.equal(failedChunkOf(error)?.index, 0);
      assert.equal(failedChunkOf(error)?.fromMs, FIRST_CHUNK_FROM);
      assert.ok(
        rejectedAt - started < 15_000,
        `rejected after ${Math.round(rejectedAt - started)} ms (stall: ${READ_TIMEOUT_S} s)`,
      );

      assert.equal(stalled.length, 1, 'the second chunk was requested and stalled');
      const closedAt = await Promise.race([
        (stalled[0] as { closed: Promise<number> }).closed,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 15_000).unref()),
      ]);
      assert.ok(closedAt !== undefined, 'the server saw the stalled request end');
      // Let any late rejection of the cancelled chunk surface before checking.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await client.close();
    }
  });
});
