import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type ClientOptions, resolveClientOptions } from '../../src/core/client-options.js';
import {
  AbortError,
  ConnectTimeout,
  isTimeoutError,
  PoolTimeout,
  ReadTimeout,
  TimeoutError,
  WriteTimeout,
} from '../../src/core/errors.js';
import { Transport } from '../../src/core/transport.js';
import {
  type FaultServer,
  type HangingListener,
  startFaultServer,
  startHangingListener,
} from '../support/fault-server.js';

const KEY = 'timeout-key-fedcba9876543210';
/**
 * The upper bound of a timer that must fire: far above any delay a loaded machine adds, and below the
 * 60 s timers (read timeouts, Retry-After) that would otherwise end the request instead.
 */
const LATE = 20_000;

let server: FaultServer;
const transports: Transport[] = [];

function transport(options: ClientOptions, baseUrl = server.url): Transport {
  const t = new Transport(resolveClientOptions(KEY, { baseUrl, ...options }));
  transports.push(t);
  return t;
}

async function timed(
  promise: Promise<unknown>,
): Promise<{ error: Error & Record<string, unknown>; ms: number }> {
  const started = performance.now();
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error);
    assert.ok(!error.message.includes(KEY), `message leaks the key: ${error.message}`);
    return { error: error as Error & Record<string, unknown>, ms: performance.now() - started };
  }
  assert.fail('expected a rejection');
}

before(async () => {
  server = await startFaultServer();
});
after(async () => {
  // destroy-style teardown: some tests leave stalled requests behind on purpose.
  await server.close();
  await Promise.all(transports.map((t) => t.close()));
});

describe('connect timeout', () => {
  let listener: HangingListener;
  before(async () => {
    listener = await startHangingListener();
  });
  after(() => listener.close());

  test('a connect that hangs → ConnectTimeout after about connectTimeout', async () => {
    const { error, ms } = await timed(
      transport({ connectTimeout: 0.3, maxRetries: 0 }, listener.url).get('/x'),
    );
    assert.ok(error instanceof ConnectTimeout, `${error.name}: ${error.message}`);
    assert.ok(error instanceof TimeoutError);
    assert.ok(isTimeoutError(error));
    assert.equal(error.code, 'MDQ_CONNECT_TIMEOUT');
    assert.ok(ms >= 250 && ms < LATE, `took ${ms} ms`);
  });

  test('connect timeouts are retried', async () => {
    const { error } = await timed(transport({ connectTimeout: 0.2, maxRetries: 1 }, listener.url).get('/x'));
    assert.ok(error instanceof ConnectTimeout);
    assert.equal(error.attempts, 2);
  });
});

describe('read timeout', () => {
  test('no response headers → ReadTimeout after about readTimeout', async () => {
    server.setScript([{ kind: 'stall' }]);
    const { error, ms } = await timed(transport({ readTimeout: 0.3, maxRetries: 0 }).get('/x'));
    assert.ok(error instanceof ReadTimeout, `${error.name}: ${error.message}`);
    assert.equal(error.code, 'MDQ_READ_TIMEOUT');
    assert.ok(ms >= 250 && ms < LATE, `took ${ms} ms`);
  });

  test('a body that stops arriving → ReadTimeout', async () => {
    server.setScript([{ kind: 'stall-body', body: JSON.stringify({ results: [1, 2, 3, 4, 5, 6] }) }]);
    const { error, ms } = await timed(transport({ readTimeout: 0.3, maxRetries: 0 }).get('/x'));
    assert.ok(error instanceof ReadTimeout, `${error.name}: ${error.message}`);
    assert.ok(ms < LATE, `took ${ms} ms`);
  });

  test('a read timeout is retried, and a later answer is returned', async () => {
    server.setScript([{ kind: 'stall' }, { body: 'late but fine' }]);
    const res = await transport({ readTimeout: 0.2, maxRetries: 1 }).get('/x');
    assert.equal(res.body, 'late but fine');
  });

  test('a slow answer within readTimeout is not a timeout', async () => {
    server.setScript([{ delayMs: 150, body: 'ok' }]);
    assert.equal((await transport({ readTimeout: 5, maxRetries: 0 }).get('/x')).body, 'ok');
  });
});

describe('write timeout', () => {
  let sink: Server;
  const held = new Set<Socket>();
  before(async () => {
    // Accepts and never reads, so the client's send buffer fills and stays full.
    sink = createServer((socket) => {
      socket.pause();
      held.add(socket);
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => sink.close(resolve));
  });

  test('a request the peer does not take → WriteTimeout after about writeTimeout', async () => {
    const port = (sink.address() as { port: number }).port;
    // 16 MB of header cannot fit the loopback socket buffers of a peer that does not read.
    const t = transport(
      { writeTimeout: 0.3, readTimeout: 60, maxRetries: 0, headers: { 'x-pad': 'a'.repeat(16_000_000) } },
      `http://127.0.0.1:${port}`,
    );
    const { error, ms } = await timed(t.get('/x'));
    assert.ok(error instanceof WriteTimeout, `${error.name}: ${error.message}`);
    assert.equal(error.code, 'MDQ_WRITE_TIMEOUT');
    assert.ok(ms >= 250 && ms < LATE, `took ${ms} ms`);
  });

  test('a large request that the peer reads is not a write timeout', async () => {
    server.setScript([{ body: 'ok' }]);
    // Under node:http's default header limit, yet larger than one socket write.
    const t = transport({ writeTimeout: 5, maxRetries: 0, headers: { 'x-pad': 'b'.repeat(12_000) } });
    assert.equal((await t.get('/x')).body, 'ok');
  });
});

describe('pool timeout', () => {
  test('maxConnections 1 with a stalled request → PoolTimeout for the next, which is never sent', async () => {
    server.setScript([{ kind: 'stall' }]);
    const t = transport({ maxConnections: 1, poolTimeout: 0.3, readTimeout: 60, maxRetries: 0 });
    const controller = new AbortController();
    const sent = server.requests.length;
    const first = t.get('/first', { signal: controller.signal });
    first.catch(() => {});
    // The first request holds the one connection once the server has it (however long load makes that).
    while (server.requests.length === sent) await new Promise((resolve) => setTimeout(resolve, 10));
    const before = server.requests.length;
    const { error, ms } = await timed(t.get('/second'));
    assert.ok(error instanceof PoolTimeout, `${error.name}: ${error.message}`);
    assert.equal(error.code, 'MDQ_POOL_TIMEOUT');
    assert.equal(error.attempts, 1, 'pool timeouts are not retried');
    assert.ok(ms >= 250 && ms < LATE, `took ${ms} ms`);
    assert.equal(server.requests.length, before);
    controller.abort();
    await assert.rejects(first, AbortError);
  });

  test('queued requests proceed in order as connections free up, never more than maxConnections at once', async () => {
    let open = 0;
    let peak = 0;
    server.setScript((req) => {
      open++;
      peak = Math.max(peak, open);
      setTimeout(() => open--, 60);
      return { delayMs: 60, body: req.url };
    });
    const t = transport({ maxConnections: 2, poolTimeout: 5 });
    const bodies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.get(`/n${i}`).then((r) => r.body)),
    );
    assert.deepEqual(bodies, ['/n0', '/n1', '/n2', '/n3', '/n4', '/n5']);
    assert.equal(peak, 2);
  });
});

describe('abort', () => {
  test('aborting an in-flight request rejects at once with AbortError', async () => {
    server.setScript([{ kind: 'stall' }]);
    const controller = new AbortController();
    const pending = transport({ readTimeout: 60 }).get('/x', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const { error, ms } = await timed(pending);
    assert.ok(error instanceof AbortError);
    assert.equal(error.code, 'MDQ_ABORTED');
    assert.ok(ms < LATE, `took ${ms} ms`);
  });

  test('aborting during a Retry-After wait stops waiting at once', async () => {
    server.setScript([{ status: 429, headers: { 'Retry-After': '60' } }]);
    const controller = new AbortController();
    const pending = transport({}).get('/x', { signal: controller.signal });
    setTimeout(() => controller.abort(), 150);
    const { error, ms } = await timed(pending);
    assert.ok(error instanceof AbortError);
    assert.ok(ms < LATE, `took ${ms} ms`);
  });

  test('one signal cancels many concurrent requests, without a listener-leak warning', async () => {
    server.setScript([{ kind: 'stall' }]);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const t = transport({ readTimeout: 10 });
      const pending = Array.from({ length: 30 }, (_, i) =>
        t.get(`/many/${i}`, { signal: controller.signal }),
      );
      setTimeout(() => controller.abort(), 100);
      const outcomes = await Promise.allSettled(pending);
      assert.ok(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof AbortError));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings, []);
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('an already aborted signal sends nothing', async () => {
    const before = server.requests.length;
    const { error } = await timed(transport({}).get('/x', { signal: AbortSignal.abort() }));
    assert.ok(error instanceof AbortError);
    assert.equal(server.requests.length, before);
  });

  test('aborting while waiting for a pool slot rejects with AbortError', async () => {
    server.setScript([{ kind: 'stall' }]);
    const t = transport({ maxConnections: 1, poolTimeout: 10, readTimeout: 10 });
    const first = new AbortController();
    const stalled = t.get('/a', { signal: first.signal });
    stalled.catch(() => {});
    const second = new AbortController();
    const waiting = t.get('/b', { signal: second.signal });
    setTimeout(() => second.abort(), 100);
    const { error, ms } = await timed(waiting);
    assert.ok(error instanceof AbortError);
    assert.ok(ms < 1000);
    first.abort();
    await assert.rejects(stalled, AbortError);
  });
});
