/**
 * A synchronous client on an `http:` server answers calls of one request on its calling thread: the
 * request is written and the answer read there, on a connection the worker opened and lent, so the call
 * crosses no thread. Answers equal the async client's; the connection is kept between calls, and a new
 * one is opened when the server has closed it; the time limits hold; everything else (`directHttp:
 * false`, a rate limit, a full range) still goes through the worker.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { syncTraffic } from '../../src/clients/sync-client.js';
import { ReadTimeout, StocksClient } from '../../src/index.js';
import { type FaultServerThread, startFaultServerThread } from '../support/fault-server.js';

const KEY = 'sync-direct-key-57';
const CLOSE = JSON.stringify({
  ticker: 'AAPL',
  queryCount: 1,
  resultsCount: 1,
  adjusted: true,
  results: [
    { T: 'AAPL', v: 47_471_868, vw: 190.6, o: 190.9, c: 191.5, h: 192.1, l: 189.2, t: 1704229200000 },
  ],
  status: 'OK',
  request_id: 'direct-é-1',
});

/** Requests the client's thread handed to its worker since `before` (posted or written). */
function crossings(client: object, before: ReturnType<typeof syncTraffic>): number {
  const now = syncTraffic(client);
  assert.ok(before && now);
  return now.posted - before.posted + (now.written - before.written);
}

/** A server that answers every request with one JSON body of about 119 KB sent in chunks of 997 bytes. */
const CHUNKED_SERVER = `
const body = JSON.stringify({ status: 'OK', request_id: 'chunky',
  results: Array.from({ length: 3000 }, (_, i) => ({ price: i + 0.25, size: i % 7, exchange: i % 11 })) });
require('node:net').createServer((socket) => {
  let seen = '';
  socket.on('data', (data) => {
    seen += data;
    for (let end = seen.indexOf('\\r\\n\\r\\n'); end >= 0; end = seen.indexOf('\\r\\n\\r\\n')) {
      seen = seen.slice(end + 4);
      socket.write('HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\n');
      socket.write('transfer-encoding: chunked\\r\\n\\r\\n');
      for (let at = 0; at < body.length; at += 997) {
        const piece = body.slice(at, at + 997);
        socket.write(piece.length.toString(16) + '\\r\\n' + piece + '\\r\\n');
      }
      socket.write('0\\r\\n\\r\\n');
    }
  });
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('sync client: calls of one request on the calling thread', () => {
  let server: FaultServerThread;
  before(async () => {
    server = await startFaultServerThread([{ body: CLOSE }]);
  });
  after(() => server.close());

  test('answers equal the async client’s, cross no thread, and share one kept connection', async () => {
    const client = StocksClient(KEY, { baseUrl: server.url });
    const async = StocksClient(KEY, { baseUrl: server.url, useAsync: true });
    try {
      const expected = await async.getPreviousClose('AAPL');
      const seenBefore = (await server.requests()).length;
      assert.deepEqual(client.getPreviousClose('AAPL'), expected); // the first also opens the connection
      const before = syncTraffic(client);
      for (let i = 0; i < 20; i++) assert.deepEqual(client.getPreviousClose('AAPL'), expected);
      const raw = client.getPreviousClose('AAPL', { rawResponse: true });
      assert.equal(raw.status, 200);
      assert.equal(raw.body, CLOSE);
      assert.equal(raw.url, `${server.url}/v2/aggs/ticker/AAPL/prev?adjusted=true`);
      assert.equal(raw.headers['content-type'], 'application/json');
      assert.equal(crossings(client, before), 0, 'no call crossed to the worker');
      const requests = (await server.requests()).slice(seenBefore);
      assert.equal(requests.length, 22);
      assert.equal(new Set(requests.map((r) => r.remotePort)).size, 1, 'one connection for every call');
      for (const r of requests) {
        assert.equal(r.url, '/v2/aggs/ticker/AAPL/prev?adjusted=true');
        assert.equal(r.headers.authorization, `Bearer ${KEY}`);
        assert.match(String(r.headers['user-agent']), /^mdq\//);
      }
    } finally {
      client.close();
      await async.close();
    }
  });

  test('pages walked with for ... of, and the next page of a page, are fetched on the calling thread', async () => {
    const page = (id: string, price: number, next?: string) => ({
      status: 'OK',
      request_id: id,
      results: [{ price, size: 1 }],
      ...(next && { next_url: next }),
    });
    const pages = await startFaultServerThread([
      { body: page('p1', 1, '/v3/trades/AAPL?cursor=two') },
      { body: page('p2', 2) },
      { body: page('p1', 1, '/v3/trades/AAPL?cursor=two') },
      { body: page('p2', 2) },
    ]);
    const client = StocksClient(KEY, { baseUrl: pages.url });
    try {
      const first = client.getTradesV3('AAPL');
      const before = syncTraffic(client);
      assert.deepEqual(
        [...first].map((t) => t.price),
        [1, 2],
      );
      const again = client.getTradesV3('AAPL');
      assert.equal(client.getNextPage(again).request_id, 'p2');
      assert.equal(client.getPreviousPage(again), false);
      assert.equal(crossings(client, before), 0);
      assert.deepEqual(
        (await pages.requests()).map((r) => r.url),
        [
          '/v3/trades/AAPL?limit=5000',
          '/v3/trades/AAPL?cursor=two',
          '/v3/trades/AAPL?limit=5000',
          '/v3/trades/AAPL?cursor=two',
        ],
      );
    } finally {
      client.close();
      await pages.close();
    }
  });

  test('with directHttp: false, or a rate limit, every call goes through the worker', () => {
    for (const options of [{ directHttp: false }, { rateLimit: { requests: 1000, per: 1 } }]) {
      const client = StocksClient(KEY, { baseUrl: server.url, ...options });
      try {
        client.getPreviousClose('AAPL');
        const before = syncTraffic(client);
        for (let i = 0; i < 5; i++) client.getPreviousClose('AAPL');
        assert.equal(crossings(client, before), 5, JSON.stringify(options));
      } finally {
        client.close();
      }
    }
  });

  test('a bad argument is refused on the calling thread before any request', async () => {
    const client = StocksClient(KEY, { baseUrl: server.url });
    try {
      const seen = (await server.requests()).length;
      assert.throws(
        () => client.getPreviousClose('AAPL', { adjusted: 'yes' as unknown as boolean }),
        (e: unknown) =>
          e instanceof Error && e.name === 'InvalidParameterError' && /adjusted/.test(e.message),
      );
      assert.equal((await server.requests()).length, seen);
    } finally {
      client.close();
    }
  });

  test('a closed client refuses calls', () => {
    const client = StocksClient(KEY, { baseUrl: server.url });
    client.getPreviousClose('AAPL');
    client.close();
    assert.throws(() => client.getPreviousClose('AAPL'), /closed/);
  });
});

describe('sync client on the calling thread: connections and limits', () => {
  test('a connection the server closed while idle is replaced, with no retry needed', async () => {
    const server = await startFaultServerThread([{ body: CLOSE, closeAfterMs: 20 }]);
    const client = StocksClient(KEY, { baseUrl: server.url, maxRetries: 0 });
    try {
      client.getPreviousClose('AAPL');
      sleepMs(300);
      assert.equal(client.getPreviousClose('AAPL').ticker, 'AAPL');
      const ports = (await server.requests()).map((r) => r.remotePort);
      assert.equal(ports.length, 2);
      assert.notEqual(ports[0], ports[1]);
    } finally {
      client.close();
      await server.close();
    }
  });

  test('a retried status is retried on the calling thread, its line logged', async () => {
    const server = await startFaultServerThread([
      { status: 503, body: { status: 'ERROR' } },
      { body: CLOSE },
    ]);
    const lines: string[] = [];
    const client = StocksClient(KEY, { baseUrl: server.url, logger: (line) => lines.push(line) });
    try {
      assert.equal(client.getPreviousClose('AAPL').ticker, 'AAPL');
      assert.equal((await server.requests()).length, 2);
      assert.equal(lines.length, 1);
      assert.match(
        lines[0]!,
        /^GET \/v2\/aggs\/ticker\/AAPL\/prev\?adjusted=true: \w+ 503; retry 1 of 3 in /,
      );
    } finally {
      client.close();
      await server.close();
    }
  });

  test('an answer that never comes ends in ReadTimeout after readTimeout, each attempt', async () => {
    const server = await startFaultServerThread([{ kind: 'stall' }]);
    const client = StocksClient(KEY, { baseUrl: server.url, readTimeout: 0.3, maxRetries: 1 });
    try {
      assert.throws(
        () => client.getPreviousClose('AAPL'),
        (e: unknown) =>
          e instanceof ReadTimeout &&
          /no data received for 0.3 s/.test(e.message) &&
          (e as ReadTimeout & { attempts: number }).attempts === 2,
      );
      assert.equal((await server.requests()).length, 2);
    } finally {
      client.close();
      await server.close();
    }
  });

  test('a server that is not there is a connection error naming it', () => {
    const client = StocksClient(KEY, { baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    try {
      assert.throws(
        () => client.getPreviousClose('AAPL'),
        (e: unknown) =>
          e instanceof Error && e.name === 'APIConnectionError' && /127\.0\.0\.1:9/.test(e.message),
      );
    } finally {
      client.close();
    }
  });

  test('a chunked answer of many chunks, longer than the read buffer, arrives whole', async () => {
    // A plain TCP server in its own process: its head comes in two writes, its body in chunks of 997 bytes.
    const server = spawn(process.execPath, ['-e', CHUNKED_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [port] = (await once(server.stdout, 'data')) as [Buffer];
      const baseUrl = `http://127.0.0.1:${String(port).trim()}`;
      const client = StocksClient(KEY, { baseUrl });
      const async = StocksClient(KEY, { baseUrl, useAsync: true });
      try {
        const expected = await async.getTradesV3('AAPL');
        assert.equal(expected.results?.length, 3000);
        for (let i = 0; i < 3; i++) assert.deepEqual(client.getTradesV3('AAPL'), expected);
      } finally {
        client.close();
        await async.close();
      }
    } finally {
      server.kill();
    }
  });

  test('a process that never closes its client exits once its work is done', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', new URL('../support/unclosed-sync-direct.ts', import.meta.url).pathname],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(run.signal, null, `the process did not exit: ${run.stderr}`);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout.trim()), { tickers: ['AAPL', 'AAPL'], requests: 2 });
  });
});
