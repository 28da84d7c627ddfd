/**
 * A response whose body arrives a byte at a time, forever, never trips the read timeout (bytes keep
 * coming); `totalTimeout` bounds it. Real loopback HTTP: the server really dribbles.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { resolveClientOptions } from '../../src/core/client-options.js';
import { InvalidParameterError, isTimeoutError, ReadTimeout } from '../../src/core/errors.js';
import { Transport } from '../../src/core/transport.js';
import { StocksClient } from '../../src/index.js';
import { startFaultServerThread } from '../support/fault-server.js';

const KEY = 'dribble-key-0123456789abcdef';

// Without a bound the dribble would go on forever: a generous guard ends the test instead of hanging it.
describe('totalTimeout', { timeout: 60_000 }, () => {
  let server: Server;
  let url: string;
  let requests = 0;
  const open = new Set<ServerResponse>();
  const closed: Promise<void>[] = [];

  before(async () => {
    server = createServer((_req, res) => {
      requests++;
      open.add(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"results":[');
      // One byte every ~100 ms, forever: well inside any read timeout, never the end of the body.
      const timer = setInterval(() => res.write(' '), 100);
      closed.push(
        new Promise((resolve) =>
          res.on('close', () => {
            clearInterval(timer);
            open.delete(res);
            resolve();
          }),
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    assert.ok(address !== null && typeof address === 'object');
    url = `http://127.0.0.1:${address.port}`;
  });
  after(async () => {
    for (const res of open) res.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('a body dribbled forever ends in ReadTimeout naming totalTimeout, and the connection is dropped', async () => {
    const transport = new Transport(
      resolveClientOptions(KEY, { baseUrl: url, readTimeout: 10, totalTimeout: 0.5, maxRetries: 0 }),
    );
    try {
      const before = closed.length;
      await assert.rejects(transport.get('/v3/trades/AAPL'), (e: unknown) => {
        assert.ok(e instanceof ReadTimeout, String(e));
        assert.ok(isTimeoutError(e));
        assert.match(
          e.message,
          /^GET \/v3\/trades\/AAPL: response not complete within 0\.5 s \(totalTimeout\)/,
        );
        assert.ok(!e.message.includes(KEY));
        return true;
      });
      assert.equal(closed.length, before + 1);
      await closed[before]; // the server sees its response closed: the client let go of it
    } finally {
      await transport.close();
    }
  });

  test('it is retried like a read timeout, and each attempt is bounded', async () => {
    const transport = new Transport(
      resolveClientOptions(KEY, { baseUrl: url, totalTimeout: 0.3, maxRetries: 1 }),
    );
    try {
      const before = requests;
      await assert.rejects(transport.get('/x'), (e: unknown) => {
        assert.ok(e instanceof ReadTimeout, String(e));
        assert.equal((e as ReadTimeout & { attempts: number }).attempts, 2);
        return true;
      });
      assert.equal(requests - before, 2);
    } finally {
      await transport.close();
    }
  });

  test('a client takes the option; a bad value is refused naming it', async () => {
    const client = StocksClient(KEY, { useAsync: true, baseUrl: url, totalTimeout: 0.3, maxRetries: 0 });
    try {
      await assert.rejects(client.getTradesV3('AAPL'), ReadTimeout);
    } finally {
      await client.close();
    }
    for (const bad of [0, -1, Number.NaN, '5']) {
      assert.throws(
        () => resolveClientOptions(KEY, { totalTimeout: bad as number }),
        (e: unknown) => e instanceof InvalidParameterError && e.parameter === 'totalTimeout',
      );
    }
    assert.equal(resolveClientOptions(KEY).totalTimeout, 300);
  });

  test('the synchronous client is bounded the same way', async () => {
    // The sync client blocks this thread, so the dribbling server runs on a thread of its own.
    const thread = await startFaultServerThread([{ kind: 'dribble', body: '{"results":[]}' }]);
    try {
      const client = StocksClient(KEY, { baseUrl: thread.url, totalTimeout: 0.5, maxRetries: 0 });
      try {
        assert.throws(
          () => client.getTradesV3('AAPL'),
          (e: unknown) =>
            isTimeoutError(e) &&
            (e as Error).name === 'ReadTimeout' &&
            /totalTimeout/.test((e as Error).message),
        );
      } finally {
        client.close();
      }
    } finally {
      await thread.close();
    }
  });
});
