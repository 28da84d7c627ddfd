/**
 * The local server's streaming protocol, spoken by a raw `ws` client: status `connected` first, then
 * `auth` answered by `auth_success` (or `auth_failed` and the connection closed), each subscribed or
 * unsubscribed channel acknowledged, unknown channels and actions refused with a status `error`, and
 * only then events of the subscribed channels.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import WebSocket from 'ws';
import { KEY, RawClient, startReplayServer } from './fixture.js';

test('connected, auth, subscribe: each answered in order, then events of the subscribed channels only', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const c = await RawClient.open(`${s.wsUrl}/stocks`);
  await c.until((m) => m.length >= 1);
  assert.deepEqual(c.statuses(), ['connected: Connected Successfully']);
  c.send('auth', KEY);
  await c.until((m) => m.length >= 2);
  assert.deepEqual(c.statuses()[1], 'auth_success: authenticated');
  c.send('subscribe', 'T.SPY,Q.IBM');
  await c.until((m) => m.filter((x) => x.ev !== 'status').length >= 50);
  assert.deepEqual(c.statuses(), [
    'connected: Connected Successfully',
    'auth_success: authenticated',
    'success: subscribed to: T.SPY',
    'success: subscribed to: Q.IBM',
  ]);
  const firstEvent = c.messages.findIndex((m) => m.ev !== 'status');
  assert.equal(firstEvent, 4, 'no event before the subscriptions are acknowledged');
  const events = c.messages.slice(firstEvent);
  for (const e of events) {
    assert.ok((e.ev === 'T' && e.sym === 'SPY') || (e.ev === 'Q' && e.sym === 'IBM'), JSON.stringify(e));
  }
  assert.ok(events.some((e) => e.ev === 'T') && events.some((e) => e.ev === 'Q'));
  c.close();
});

test('unsubscribe is acknowledged and stops that channel', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const c = await RawClient.open(`${s.wsUrl}/stocks`);
  c.send('auth', KEY);
  c.send('subscribe', 'T.SPY,T.IBM');
  await c.until((m) => m.some((x) => x.ev === 'T' && x.sym === 'IBM'));
  c.send('unsubscribe', 'T.IBM');
  await c.until((m) => m.some((x) => x.status === 'success' && x.message === 'unsubscribed to: T.IBM'));
  const at = c.messages.length;
  await c.until((m) => m.length >= at + 2000);
  const after = c.messages.slice(at);
  assert.ok(
    after.every((e) => e.sym !== 'IBM'),
    'no IBM trade after the acknowledgement',
  );
  c.close();
});

test('a wrong key gets auth_failed and the connection closed; nothing is sent before auth', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const early = await RawClient.open(`${s.wsUrl}/stocks`);
  early.send('subscribe', 'T.SPY');
  await early.until((m) => m.length >= 2);
  assert.match(early.statuses()[1] ?? '', /^error: not authorized/);
  early.close();

  const c = await RawClient.open(`${s.wsUrl}/stocks`);
  c.send('auth', 'not-the-key');
  const code = await c.closed;
  assert.deepEqual(c.statuses(), ['connected: Connected Successfully', 'auth_failed: authentication failed']);
  assert.equal(code, 1008);
});

test('a server with no keys (loopback only) needs none: an empty key is accepted, as on its REST routes', async (t) => {
  const open = await startReplayServer(t, { apiKeys: [] });
  if (!open) return;
  const c = await RawClient.open(`${open.wsUrl}/stocks`);
  c.send('auth', '');
  await c.until((m) => m.length >= 2);
  assert.deepEqual(c.statuses(), ['connected: Connected Successfully', 'auth_success: authenticated']);
  c.close();

  const keyed = await startReplayServer(t);
  if (!keyed) return;
  const refused = await RawClient.open(`${keyed.wsUrl}/stocks`);
  refused.send('auth', '');
  assert.equal(await refused.closed, 1008, 'a server with keys refuses an empty one');
});

test('unknown channels and actions get a status error naming them; the rest of the list is subscribed', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const c = await RawClient.open(`${s.wsUrl}/stocks`);
  c.send('auth', KEY);
  c.send('subscribe', 'XT.SPY,T.SPY,nonsense');
  c.send('launch', '');
  await c.until((m) => m.filter((x) => x.ev === 'status').length >= 6);
  const statuses = c.statuses();
  assert.match(
    statuses[2] ?? '',
    /^error: unknown channel: XT\.SPY; stocks channels are T, Q, A, AM, LULD, NOI, FMV/,
  );
  assert.equal(statuses[3], 'success: subscribed to: T.SPY');
  assert.match(statuses[4] ?? '', /^error: unknown channel: nonsense/);
  assert.match(statuses[5] ?? '', /^error: unknown action: "launch"/);
  c.close();
});

test('an upgrade on a path that is no market is refused with 404', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const ws = new WebSocket(`${s.wsUrl}/bonds`);
  const status = await new Promise<number>((resolve) => {
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
    // An upgrade that is accepted fails the test instead of leaving it waiting.
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
  });
  assert.equal(status, 404);
});

test('closing the server ends its streams (code 1001) while they replay, and returns', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const c = await RawClient.open(`${s.wsUrl}/stocks`);
  c.send('auth', KEY);
  c.send('subscribe', 'T.*,Q.*');
  await c.until((m) => m.length > 1000);
  // Paused: the replay is held back by a reader that has stopped reading.
  c.ws.pause();
  await s.server.close();
  c.ws.resume();
  assert.equal(await c.closed, 1001);
});
