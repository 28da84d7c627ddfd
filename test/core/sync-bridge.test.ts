import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, describe, test } from 'node:test';
import util from 'node:util';
import { SYNC_BARS } from '../../src/core/client.js';
import {
  APIError,
  AuthenticationError,
  InternalServerError,
  isNotFoundError,
  MdqError,
  NotFoundError,
  ReadTimeout,
} from '../../src/core/errors.js';
import { SyncBridge, type SyncRawResponse } from '../../src/core/sync/bridge.js';
import { REQUEST_BYTES, textAnswer, transferListOf } from '../../src/core/sync/protocol.js';
import type { HttpResponse } from '../../src/core/transport.js';
import { startFaultServerThread } from '../support/fault-server.js';

const targetModule = new URL('../support/sync-target.ts', import.meta.url).href;
const bridges: SyncBridge[] = [];

function sample(label = 'a', options: Record<string, unknown> = {}): SyncBridge {
  const bridge = new SyncBridge({ module: targetModule, exportName: 'Sample', args: [label, options] });
  bridges.push(bridge);
  return bridge;
}

let sharedBridge: SyncBridge | undefined;
/** One bridge reused by the tests that need no fresh instance: starting a worker under tsx is slow. */
function shared(): SyncBridge {
  sharedBridge ??= sample('first');
  return sharedBridge;
}

function thrown(fn: () => unknown): Error & Record<string, unknown> {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof Error);
    return error as Error & Record<string, unknown>;
  }
  assert.fail('expected a throw');
}

after(() => {
  for (const bridge of bridges) bridge.close();
});

/**
 * Runs test/support/`script` in a process of its own and returns the JSON it printed; a process that is
 * still running after two minutes is killed and fails with `stuck`.
 */
function runSupportScript(script: string, stuck: string): unknown {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', new URL(`../support/${script}`, import.meta.url).pathname],
    { encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(run.signal, null, `${stuck}: ${run.stderr}`);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trim());
}

describe('SyncBridge', () => {
  test('returns values synchronously, bigint intact', () => {
    const bridge = shared();
    assert.deepEqual(bridge.call('echo', [{ n: 1, d: new Date(0), list: [1, 'x'] }]), {
      label: 'first',
      value: { n: 1, d: new Date(0), list: [1, 'x'] },
    });
    const big = [2n ** 64n, 12345678901234567890n, -1n];
    assert.equal(
      bridge.call('sum', [big]),
      big.reduce((a, b) => a + b, 0n),
    );
  });

  test('typed arrays of a result move to the calling thread (not copied); byte arrays are copied', () => {
    const bridge = shared();
    const result = bridge.call('columns', [1000]) as { length: number; t: Float64Array; bytes: Uint8Array };
    assert.equal(result.length, 1000);
    assert.ok(result.t instanceof Float64Array);
    assert.equal(result.t[999], 999 * 60_000);
    assert.equal(Buffer.from(result.bytes).toString(), 'kept');
    // A transferred buffer is detached where it came from: the worker's own array is empty now.
    assert.deepEqual(bridge.call('lastColumnsBytes', []), { t: 0, bytes: 4 });
  });

  test('a call made from a callback of another call returns, and so does the other, whichever answers first', () => {
    // In a process of its own: a lost answer would block its thread for good, not fail the test.
    assert.deepEqual(runSupportScript('nested-sync-call.ts', 'the nested calls never returned'), {
      outer: 3,
      inner: 1,
    });
  });

  test('a process that never closes its bridge exits once its work is done', () => {
    // The idle worker sleeps in a wait of its own; it must not hold the process open.
    assert.deepEqual(runSupportScript('unclosed-sync-bridge.ts', 'the process did not exit'), {
      written: { label: 'unclosed', value: 1 },
      posted: { label: 'unclosed', value: new Date(0).toISOString() },
    });
  });

  test('really blocks: a timer scheduled before a slow call has not fired when it returns', () => {
    const bridge = shared();
    bridge.call('echo', [0]); // worker started and module loaded
    let fired = false;
    const timer = setTimeout(() => {
      fired = true;
    }, 0);
    const started = Date.now();
    const slept = bridge.call('sleep', [300]) as number;
    assert.ok(slept >= 290, `slept ${slept} ms`);
    assert.ok(Date.now() - started >= 290);
    assert.equal(fired, false);
    clearTimeout(timer);
  });

  test('an mdq error is rebuilt as the same class with every field', () => {
    const error = thrown(() => shared().call('notFound', ['/v3/reference/tickers/NOPE']));
    assert.ok(error instanceof NotFoundError);
    assert.ok(error instanceof APIError);
    assert.ok(error instanceof MdqError);
    assert.ok(isNotFoundError(error));
    assert.equal(error.name, 'NotFoundError');
    assert.equal(error.code, 'MDQ_NOT_FOUND');
    assert.equal(error.status, 404);
    assert.equal(error.requestId, 'req-sync');
    assert.equal(error.apiMessage, 'Ticker not found.');
    assert.equal(error.path, '/v3/reference/tickers/NOPE');
    assert.equal(error.attempts, 1);
    assert.deepEqual(error.body, {
      status: 'NOT_FOUND',
      request_id: 'req-sync',
      message: 'Ticker not found.',
    });
    assert.equal(
      error.message,
      new NotFoundError(404, { message: 'Ticker not found.' }, 'req-sync', '/v3/reference/tickers/NOPE')
        .message,
    );
    assert.match(String(error.stack), /called synchronously from/);
    // The calling thread's part of the stack is where the call was made.
    assert.match(String(error.stack).split('called synchronously from')[1] ?? '', /sync-bridge\.test\.ts/);
  });

  test('a built-in error keeps its class', () => {
    const error = thrown(() => shared().call('typeError', []));
    assert.ok(error instanceof TypeError);
    assert.equal(error.message, 'not a number');
  });

  test('an unknown method is an error, not a hang', () => {
    const error = thrown(() => shared().call('noSuchMethod', []));
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /noSuchMethod/);
  });

  test('an unknown export or module fails each call with an error', () => {
    const bad = new SyncBridge({ module: targetModule, exportName: 'Missing', args: [] });
    bridges.push(bad);
    assert.match(thrown(() => bad.call('echo', [1])).message, /Missing/);
    const gone = new SyncBridge({
      module: new URL('./no-such-file.ts', import.meta.url).href,
      exportName: 'X',
      args: [],
    });
    bridges.push(gone);
    assert.ok(thrown(() => gone.call('echo', [1])) instanceof Error);
  });

  test('a worker that exits fails the blocked call instead of hanging', () => {
    const dying = new SyncBridge({
      module: new URL('../support/sync-exit.ts', import.meta.url).href,
      exportName: 'X',
      args: [],
    });
    bridges.push(dying);
    const error = thrown(() => dying.call('echo', [1]));
    assert.ok(error instanceof MdqError);
    assert.match(error.message, /stopped unexpectedly/);
  });

  test('an unhandled rejection in the worker answers the blocked call', () => {
    const error = thrown(() => shared().call('unhandled', []));
    assert.ok(error instanceof RangeError);
    assert.equal(error.message, 'escaped');
  });

  test('a Response result arrives as a SyncRawResponse', () => {
    const raw = shared().call('raw', []) as SyncRawResponse;
    assert.equal(raw.status, 201);
    assert.equal(raw.headers['x-request-id'], 'raw-1');
    assert.equal(raw.body, '{"ok":true}');
    assert.equal(typeof raw.url, 'string');
  });

  test('function options and arguments run on the calling thread, during the call', () => {
    const lines: string[] = [];
    const bridge = sample('logged', { logger: (line: string) => lines.push(line) });
    assert.equal(bridge.call('log', [3]), 3);
    assert.deepEqual(lines, ['logged line 0', 'logged line 1', 'logged line 2']);
    const seen: number[] = [];
    assert.equal(bridge.call('each', [[5, 6, 7], (n: number) => seen.push(n * 2)]), 3);
    assert.deepEqual(seen, [10, 12, 14]);
  });

  test('a text answer crosses through shared memory, growing it, after the lines logged before it', () => {
    const lines: string[] = [];
    const bridge = sample('texts', { logger: (line: string) => lines.push(line) });
    const short = bridge.call('text', ['{"a":1}', 1]);
    assert.deepEqual(short, textAnswer('{"a":1}', 1));
    // Two bytes a character in UTF-8, and more than the buffer's first size: it grows twice.
    const long = `"${'é€'.repeat(200_000)}"`;
    const before = bridge.traffic();
    assert.deepEqual(bridge.call('text', [long, 0, 3]), textAnswer(long, 0));
    const after = bridge.traffic();
    assert.deepEqual(lines, ['texts before text 0', 'texts before text 1', 'texts before text 2']);
    assert.equal(after.shared - before.shared, 1, 'the text came through shared memory');
    assert.equal(after.received - before.received, 3, 'only the three lines were messages');
    assert.equal(after.posted - before.posted, 1);
  });

  test('a request of plain JSON data is written to shared memory, any other is posted; both arrive as sent', () => {
    const bridge = sample('requests');
    const sent = (args: unknown[]) => {
      const before = bridge.traffic();
      const value = (bridge.call('echo', args) as { value: unknown }).value;
      const after = bridge.traffic();
      return { value, posted: after.posted - before.posted, written: after.written - before.written };
    };
    const plain = { a: [1, 'é€', { b: null, c: false }], n: -1.5e300 };
    assert.deepEqual(sent([plain]), { value: plain, posted: 0, written: 1 });
    for (const other of [
      { d: new Date(0) },
      { n: 2n ** 64n },
      { u: undefined },
      new Array<number>(2).fill(1, 1), // a hole first
      -0,
      Number.NaN,
      'x'.repeat(REQUEST_BYTES),
    ]) {
      const { value, posted, written } = sent([other]);
      assert.deepEqual({ posted, written }, { posted: 1, written: 0 }, `posted: ${String(other)}`);
      assert.ok(Object.is(value, other) || util.isDeepStrictEqual(value, other), 'arrives as sent');
    }
  });

  test('arguments that cannot be cloned are refused with a clear error', () => {
    const error = thrown(() => shared().call('echo', [{ nested: { symbol: Symbol('x') } }]));
    assert.ok(error instanceof MdqError);
    assert.match(error.message, /cannot be passed/);
  });

  test('many bridges coexist, each with its own instance', () => {
    const many = Array.from({ length: 3 }, (_, i) => sample(`b${i}`));
    const labels = many.map((b, i) => (b.call('echo', [i]) as { label: string }).label);
    assert.deepEqual(labels, ['b0', 'b1', 'b2']);
    assert.deepEqual(
      many.map((b, i) => (b.call('echo', [i * 10]) as { value: number }).value),
      [0, 10, 20],
    );
  });

  test('close() closes the instance; later calls fail; closing twice is harmless', () => {
    const bridge = new SyncBridge({ module: targetModule, exportName: 'Sample', args: ['c'] });
    assert.equal((bridge.call('echo', [1]) as { label: string }).label, 'c');
    bridge.close();
    bridge.close();
    const error = thrown(() => bridge.call('echo', [2]));
    assert.ok(error instanceof MdqError);
    assert.match(error.message, /closed/);
  });
});

describe('SyncBridge with a Transport in the worker', () => {
  const KEY = 'sync-key-00112233';

  test('GETs over loopback, with typed errors and retries as in async code', async () => {
    // The server runs in its own thread: the main thread is blocked during each sync call.
    const server = await startFaultServerThread([
      { kind: 'echo' },
      { status: 503 },
      { kind: 'echo' },
      { status: 401, body: { status: 'ERROR', request_id: 'r401', error: 'Unknown API Key' } },
      { kind: 'stall' },
    ]);
    try {
      const bridge = new SyncBridge({
        module: targetModule,
        exportName: 'TransportHost',
        args: [KEY, { baseUrl: server.url, maxRetries: 1, readTimeout: 0.3 }],
      });
      bridges.push(bridge);
      const first = bridge.call('get', ['/v3/trades/AAPL?limit=2']) as HttpResponse;
      assert.equal(first.status, 200);
      const seen = JSON.parse(first.body) as { url: string; headers: Record<string, string> };
      assert.equal(seen.url, '/v3/trades/AAPL?limit=2');
      assert.equal(seen.headers.authorization, `Bearer ${KEY}`);

      // 503 then success: retried inside the worker.
      assert.equal((bridge.call('get', ['/retry']) as HttpResponse).status, 200);

      const auth = thrown(() => bridge.call('get', ['/v3/secret']));
      assert.ok(auth instanceof AuthenticationError);
      assert.equal(auth.status, 401);
      assert.equal(auth.requestId, 'r401');
      assert.ok(!auth.message.includes(KEY));

      const slow = thrown(() => bridge.call('get', ['/stalled']));
      assert.ok(slow instanceof ReadTimeout, `${slow.name}: ${slow.message}`);
      assert.equal(slow.attempts, 2);
      assert.ok(!(slow instanceof InternalServerError));

      const requests = await server.requests();
      assert.deepEqual(
        requests.map((r) => r.url),
        ['/v3/trades/AAPL?limit=2', '/retry', '/retry', '/v3/secret', '/stalled', '/stalled'],
      );
    } finally {
      await server.close();
    }
  });
  test('a call after an idle spell goes out on a new connection when the server dropped the idle one', async () => {
    // The worker sleeps while idle: it must see the dropped connection before sending on it (no retry
    // allowed here, so a request sent on the dead connection fails the call).
    const server = await startFaultServerThread([{ kind: 'echo', closeAfterMs: 10 }]);
    try {
      const bridge = new SyncBridge({
        module: targetModule,
        exportName: 'TransportHost',
        args: [KEY, { baseUrl: server.url, maxRetries: 0 }],
      });
      bridges.push(bridge);
      assert.equal((bridge.call('get', ['/first']) as HttpResponse).status, 200);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      assert.equal((bridge.call('get', ['/second']) as HttpResponse).status, 200);
      const requests = await server.requests();
      assert.deepEqual(
        requests.map((r) => r.url),
        ['/first', '/second'],
      );
      assert.notEqual(requests[0]?.remotePort, requests[1]?.remotePort);
    } finally {
      await server.close();
    }
  });
});

describe('transferListOf', () => {
  test("moves the buffers of a sync full range's columns, as the worker answers them", () => {
    const columns = { length: 2, t: new Float64Array(2), o: new Float64Array(new ArrayBuffer(16)) };
    const answer = { result: { [SYNC_BARS]: { columns, keys: ['t', 'o'] } }, paged: false };
    assert.deepEqual(new Set(transferListOf(answer)), new Set([columns.t.buffer, columns.o.buffer]));
  });

  test('leaves byte arrays alone (a Buffer may share its pool)', () => {
    assert.deepEqual(transferListOf({ result: { bytes: new Uint8Array(4) } }), []);
  });
});
