/**
 * The streaming client (`StocksStream`) against the local server: events through `for await` and
 * listeners, status messages, a refused key, channels checked before anything is sent, `close()`,
 * a connection dropped mid-stream (it reconnects and re-subscribes), a consumer slower than the feed
 * under each overflow policy, and nanosecond times decoded exactly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import {
  InvalidParameterError,
  isStreamOverflowError,
  isStreamRefusedError,
  type StatusEvent,
  type StocksEvent,
  StocksStream,
} from '../../src/index.js';
import { startDropProxy } from '../support/tcp-drop-proxy.js';
import { KEY, startReplayServer } from './fixture.js';

test('events reach for await and listeners alike, after connected, auth_success and the acknowledgement', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const lines: string[] = [];
  const stream = StocksStream(KEY, { baseUrl: s.wsUrl, logger: (l) => lines.push(l) });
  const statuses: StatusEvent[] = [];
  const heard: StocksEvent[] = [];
  stream.on('status', (st) => statuses.push(st));
  stream.on('event', (ev) => heard.push(ev));
  stream.subscribe('T.SPY', ['Q.IBM']);
  const got: StocksEvent[] = [];
  for await (const ev of stream) {
    got.push(ev);
    if (got.length === 300) break;
  }
  assert.deepEqual(
    statuses.map((x) => x.status),
    ['connected', 'auth_success', 'success', 'success'],
  );
  assert.deepEqual(got, heard.slice(0, 300), 'the iterator yields what the listeners heard, in order');
  for (const ev of got) assert.ok(ev.ev === 'T' || ev.ev === 'Q');
  const trades = got.filter((e) => e.ev === 'T');
  assert.ok(trades.length > 0);
  assert.equal(typeof trades[0]?.t, 'number');
  assert.equal(stream.url, `${s.wsUrl}/stocks`);
  assert.ok(!stream.url.includes(KEY) && lines.every((l) => !l.includes(KEY)));
});

test('a refused key rejects connect() and ends the iteration with StreamRefusedError, without the key', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const secret = 'wrong-secret-key';
  const stream = StocksStream(secret, { baseUrl: s.wsUrl });
  const connected = stream.connect();
  await assert.rejects(connected, (e: Error) => {
    assert.ok(isStreamRefusedError(e));
    assert.equal(e.status, 'auth_failed');
    assert.ok(!e.message.includes(secret));
    return true;
  });
  stream.subscribe('T.SPY');
  await assert.rejects(async () => {
    for await (const _ of stream) assert.fail('no event after a refused key');
  }, /auth_failed/);
});

test('a channel the market lacks is refused before anything is sent, naming the channel', () => {
  const stream = StocksStream('k', { baseUrl: 'ws://127.0.0.1:9' });
  assert.throws(
    () => stream.subscribe('T.SPY', 'XT.BTC-USD'),
    (e: Error) =>
      e instanceof InvalidParameterError && /channels/.test(e.message) && /"XT\.BTC-USD"/.test(e.message),
  );
  assert.throws(() => stream.subscribe('SPY'), InvalidParameterError);
  assert.deepEqual(stream.subscriptions, []);
  assert.throws(() => StocksStream('k', { baseUrl: 'http://x' }), /baseUrl/);
  assert.throws(() => StocksStream('k', { overflow: 'block' as never }), /overflow/);
});

test('close() ends a running iteration cleanly', async (t) => {
  const s = await startReplayServer(t, { replaySpeed: 1 });
  if (!s) return;
  const stream = StocksStream(KEY, { baseUrl: s.wsUrl });
  stream.subscribe('T.SPY');
  let n = 0;
  const loop = (async () => {
    for await (const _ of stream) n++;
  })();
  await stream.connect();
  await stream.close();
  await loop;
  assert.equal(stream.buffered, 0);
  assert.ok(n >= 0);
});

test('after a drop mid-stream the stream reconnects, authenticates and re-subscribes every channel', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const proxy = await startDropProxy(s.server.port);
  t.after(() => proxy.close());
  const stream = StocksStream(KEY, { baseUrl: `ws://127.0.0.1:${proxy.port}` });
  const statuses: string[] = [];
  const reconnects: number[] = [];
  stream.on('status', (st) => statuses.push(`${st.status}: ${st.message}`));
  stream.on('reconnect', (r) => reconnects.push(r.attempt));
  stream.subscribe('T.SPY', 'Q.IBM');
  let n = 0;
  let afterDrop = 0;
  for await (const ev of stream) {
    n++;
    if (n === 2000) proxy.dropAll();
    if (reconnects.length > 0 && ev.ev === 'T') afterDrop++;
    if (afterDrop === 500) break;
  }
  assert.deepEqual(reconnects, [1]);
  assert.equal(proxy.connections, 2);
  const subscribed = statuses.filter((x) => x.startsWith('success'));
  assert.deepEqual(subscribed, [
    'success: subscribed to: T.SPY',
    'success: subscribed to: Q.IBM',
    'success: subscribed to: T.SPY',
    'success: subscribed to: Q.IBM',
  ]);
  assert.equal(statuses.filter((x) => x.startsWith('auth_success')).length, 2);
});

/** Reads `count` events, yielding to the event loop after each: slower than a replay at `max` speed. */
async function slowRead(stream: AsyncIterable<StocksEvent> & { buffered: number }, count: number) {
  const got: StocksEvent[] = [];
  let most = 0;
  for await (const ev of stream) {
    got.push(ev);
    most = Math.max(most, stream.buffered);
    if (got.length === count) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { got, most };
}

test("a slow consumer under 'pause' loses nothing and the buffer stays bounded", async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const stream = StocksStream(KEY, { baseUrl: s.wsUrl, bufferSize: 200, overflow: 'pause' });
  stream.subscribe('T.SPY');
  const { got, most } = await slowRead(stream, 20_000);
  assert.equal(stream.dropped, 0);
  // Every trade of the day in order: sequence numbers 1, 2, 3 … without a gap.
  assert.deepEqual(
    got.map((ev) => (ev as { q: number }).q),
    got.map((_, i) => i + 1),
  );
  // Bounded: what the socket had already read when it paused (a frame) may exceed the capacity.
  assert.ok(most <= 200 + 1_000, `at most ${most} events buffered`);
});

test("a slow consumer under 'drop-oldest' loses the oldest events and never buffers more than the capacity", async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const stream = StocksStream(KEY, { baseUrl: s.wsUrl, bufferSize: 50, overflow: 'drop-oldest' });
  stream.subscribe('T.SPY');
  const { got, most } = await slowRead(stream, 2_000);
  assert.ok(stream.dropped > 0);
  assert.ok(most <= 50);
  const qs = got.map((ev) => (ev as { q: number }).q);
  assert.ok(
    qs.every((q, i) => i === 0 || q > (qs[i - 1] as number)),
    'still in order',
  );
  await stream.close();
});

test("a slow consumer under 'error' gets StreamOverflowError", async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const stream = StocksStream(KEY, { baseUrl: s.wsUrl, bufferSize: 50, overflow: 'error' });
  stream.subscribe('T.SPY');
  await assert.rejects(slowRead(stream, 100_000), (e) => isStreamOverflowError(e));
});

test('nanosecond times beyond the safe integers arrive exact, as bigint', async (t) => {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  t.after(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  wss.on('connection', (ws) => {
    ws.send('[{"ev":"status","status":"connected","message":"Connected Successfully"}]');
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as { action: string };
      if (msg.action === 'auth')
        ws.send('[{"ev":"status","status":"auth_success","message":"authenticated"}]');
      if (msg.action === 'subscribe')
        ws.send('[{"ev":"FMV","fmv":189.22,"sym":"AAPL","t":1678220098130000001}]');
    });
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  const port = (wss.address() as { port: number }).port;
  const stream = StocksStream('k', { baseUrl: `ws://127.0.0.1:${port}` });
  stream.subscribe('FMV.AAPL');
  for await (const ev of stream) {
    assert.deepEqual(ev, { ev: 'FMV', fmv: 189.22, sym: 'AAPL', t: 1678220098130000001n });
    break;
  }
});

/** A stand-in service on loopback that answers each connection with `script`. */
async function scriptedService(
  t: { after(fn: () => unknown): void },
  script: (ws: import('ws').WebSocket) => void,
) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  t.after(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  let connections = 0;
  wss.on('connection', (ws) => {
    connections++;
    script(ws);
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  return {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`,
    connections: () => connections,
  };
}

test('max_connections ends the stream with StreamRefusedError and is not retried', async (t) => {
  const service = await scriptedService(t, (ws) => {
    ws.send('[{"ev":"status","status":"connected","message":"Connected Successfully"}]');
    ws.on('message', () =>
      ws.send(
        '[{"ev":"status","status":"max_connections","message":"Maximum number of websocket connections exceeded."}]',
      ),
    );
  });
  const stream = StocksStream('k', { baseUrl: service.url });
  stream.subscribe('T.SPY');
  await assert.rejects(
    async () => {
      for await (const _ of stream) assert.fail('no event');
    },
    (e: Error) => isStreamRefusedError(e) && e.status === 'max_connections',
  );
  assert.equal(service.connections(), 1);
});

test('a service that never answers auth counts as a drop; reconnections are bounded and end with a connection error', async (t) => {
  const service = await scriptedService(t, () => {});
  const stream = StocksStream('k', { baseUrl: service.url, connectTimeout: 0.2, maxReconnects: 2 });
  const attempts: number[] = [];
  stream.on('reconnect', (r) => attempts.push(r.attempt));
  await assert.rejects(
    stream.connect(),
    (e: Error) => e.name === 'APIConnectionError' && /2 reconnections failed/.test(e.message),
  );
  assert.deepEqual(attempts, [1, 2]);
  assert.equal(service.connections(), 3);
});

test('the feed URL: baseUrl, else MDQ_STREAM_URL, else the real-time or the delayed host', () => {
  const saved = process.env.MDQ_STREAM_URL;
  try {
    delete process.env.MDQ_STREAM_URL;
    assert.equal(StocksStream('k').url, 'wss://socket.massive.com/stocks');
    assert.equal(StocksStream('k', { delayed: true }).url, 'wss://delayed.massive.com/stocks');
    process.env.MDQ_STREAM_URL = 'ws://127.0.0.1:8765/';
    assert.equal(StocksStream('k', { delayed: true }).url, 'ws://127.0.0.1:8765/stocks');
    assert.equal(
      StocksStream('k', { baseUrl: 'wss://socket.polygon.io' }).url,
      'wss://socket.polygon.io/stocks',
    );
  } finally {
    if (saved === undefined) delete process.env.MDQ_STREAM_URL;
    else process.env.MDQ_STREAM_URL = saved;
  }
});
