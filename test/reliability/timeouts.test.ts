/**
 * Each timeout through the full client, async and sync: connect, read, write and pool each produce their
 * own error type (class and code), within the configured time plus undici's coarse timer. The transport
 * itself is tested in test/core/transport-timeouts.test.ts; this file checks that the request core, the
 * full-range engine and the sync bridge keep the type and the timing.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  ConnectTimeout,
  PoolTimeout,
  ReadTimeout,
  StocksClient,
  TimeoutError,
  WriteTimeout,
} from '../../src/index.js';
import {
  type FaultServerThread,
  type HangingListener,
  startFaultServerThread,
  startHangingListener,
} from '../support/fault-server.js';

const KEY = 'timeouts-key';
/**
 * How late a timer may fire: undici runs connect and read timers on ticks of about half a second, and a
 * loaded machine adds more; still below the 10 s default of the timers that would otherwise end the call.
 */
const SLACK_MS = 8000;

let hanging: HangingListener;
let stalling: FaultServerThread;
let sink: Server;
const held = new Set<Socket>();
let sinkUrl: string;

before(async () => {
  hanging = await startHangingListener();
  // In a worker thread, so that it answers (by not answering) while a sync call blocks this thread.
  stalling = await startFaultServerThread([{ kind: 'stall' }]);
  // Accepts and never reads: the client's send buffer fills and stays full.
  sink = createServer((socket) => {
    socket.pause();
    held.add(socket);
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
});
after(async () => {
  await hanging?.close();
  await stalling?.close();
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => sink?.close(resolve));
});

interface Case {
  name: string;
  Cls: typeof TimeoutError;
  code: string;
  seconds: number;
  baseUrl: () => string;
  options: Record<string, unknown>;
  /** Calls the client. */
  call: (client: any) => unknown;
}

const lastTrade = (c: any) => c.getLastTrade('AAPL');
const CASES: Case[] = [
  {
    name: 'connect',
    Cls: ConnectTimeout,
    code: 'MDQ_CONNECT_TIMEOUT',
    seconds: 0.5,
    baseUrl: () => hanging.url,
    options: { connectTimeout: 0.5 },
    call: lastTrade,
  },
  {
    name: 'read',
    Cls: ReadTimeout,
    code: 'MDQ_READ_TIMEOUT',
    seconds: 0.5,
    baseUrl: () => stalling.url,
    options: { readTimeout: 0.5 },
    call: lastTrade,
  },
  {
    name: 'write',
    Cls: WriteTimeout,
    code: 'MDQ_WRITE_TIMEOUT',
    seconds: 0.4,
    baseUrl: () => sinkUrl,
    // 16 MB of header cannot fit the loopback socket buffers of a peer that does not read.
    options: { writeTimeout: 0.4, readTimeout: 30, headers: { 'x-pad': 'a'.repeat(16_000_000) } },
    call: lastTrade,
  },
];

function check(c: Pick<Case, 'name' | 'Cls' | 'code' | 'seconds'>, error: unknown, ms: number): void {
  assert.ok(error instanceof c.Cls, `${c.name}: ${String(error)}`);
  assert.ok(error instanceof TimeoutError);
  assert.equal((error as TimeoutError).code, c.code);
  assert.ok(!String(error).includes(KEY));
  const limit = c.seconds * 1000;
  assert.ok(ms >= limit * 0.8, `${c.name}: after ${ms.toFixed(0)} ms, before the ${limit} ms timeout`);
  assert.ok(ms < limit + SLACK_MS, `${c.name}: after ${ms.toFixed(0)} ms, well past the ${limit} ms timeout`);
}

describe('timeouts through the async client', () => {
  for (const c of CASES) {
    test(`${c.name} timeout → ${c.Cls.name}`, async () => {
      const client = StocksClient(KEY, { useAsync: true, baseUrl: c.baseUrl(), maxRetries: 0, ...c.options });
      const started = performance.now();
      let error: unknown;
      try {
        await c.call(client);
      } catch (e) {
        error = e;
      }
      check(c, error, performance.now() - started);
      // Requests left stalled on purpose are dropped with the client.
      void client.close();
    });
  }

  test('pool timeout → PoolTimeout for a call waiting behind a stalled one, never sent', async () => {
    const client = StocksClient(KEY, {
      useAsync: true,
      baseUrl: stalling.url,
      maxRetries: 0,
      maxConnections: 1,
      poolTimeout: 0.4,
      readTimeout: 30,
    });
    const before = (await stalling.requests()).length;
    const first = client.getLastTrade('AAPL');
    first.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    const error = await client.getLastTrade('MSFT').then(
      () => assert.fail('expected a timeout'),
      (e: unknown) => e,
    );
    check(
      { name: 'pool', Cls: PoolTimeout, code: 'MDQ_POOL_TIMEOUT', seconds: 0.4 },
      error,
      performance.now() - started,
    );
    const sent = (await stalling.requests()).slice(before).map((r) => r.url);
    assert.deepEqual(sent, ['/v2/last/trade/AAPL']);
    void client.close();
  });

  test('a retried read timeout: one ReadTimeout after every attempt, with the attempts counted', async () => {
    const client = StocksClient(KEY, {
      useAsync: true,
      baseUrl: stalling.url,
      maxRetries: 1,
      readTimeout: 0.5,
    });
    try {
      const error = await client.getLastTrade('AAPL').then(
        () => assert.fail('expected a timeout'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ReadTimeout, String(error));
      assert.equal((error as unknown as { attempts: number }).attempts, 2);
    } finally {
      void client.close();
    }
  });
});

describe('timeouts through the sync client', () => {
  /** Starts the client's worker (a call refused by validation), so that its start-up is not timed. */
  const warm = (client: any) => {
    assert.throws(() => client.getLastTrade(''));
    return client;
  };

  for (const c of CASES) {
    test(`${c.name} timeout → ${c.Cls.name}`, () => {
      const client = warm(StocksClient(KEY, { baseUrl: c.baseUrl(), maxRetries: 0, ...c.options }));
      const started = performance.now();
      let error: unknown;
      try {
        c.call(client);
      } catch (e) {
        error = e;
      }
      const ms = performance.now() - started;
      client.close();
      check(c, error, ms);
    });
  }

  test('pool timeout → PoolTimeout for a full-range chunk waiting behind a stalled one', () => {
    // A sync call runs one at a time, so two chunks of one full range compete for the one connection. The
    // call rejects once the chunk in flight has settled (here by its read timeout), with the first error.
    const client = warm(
      StocksClient(KEY, {
        baseUrl: stalling.url,
        maxRetries: 0,
        maxConnections: 1,
        poolTimeout: 0.4,
        readTimeout: 1,
      }),
    );
    const started = performance.now();
    let error: unknown;
    try {
      client.getAggregateBars('AAPL', '2024-01-02', '2024-06-28', {
        timespan: 'minute',
        fullRange: true,
        maxConcurrentWorkers: 2,
        warnings: false,
      });
    } catch (e) {
      error = e;
    }
    const ms = performance.now() - started;
    client.close();
    check({ name: 'pool', Cls: PoolTimeout, code: 'MDQ_POOL_TIMEOUT', seconds: 0.4 }, error, ms);
  });
});
