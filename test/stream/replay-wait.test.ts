/**
 * A replay in real time whose data begins long after its start (midnight, the first trade at 04:00)
 * says so: a status `waiting` names the first event's time and how far away it is, and the ways not to
 * wait. `replayFrom: 'first'` starts the replay's clock at the first event the subscriptions bring.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitSpan } from '../../src/server/stream/session.js';
import { KEY, RawClient, startReplayServer } from './fixture.js';

/** The test store's latest day of stock ticks, whose midnight is the default replay start. */
const LATEST_DAY = '2013-10-11';

test('a real-time replay whose first event is hours away says when it comes and how to start there', async (t) => {
  const s = await startReplayServer(t, { replayFrom: LATEST_DAY, replaySpeed: 1 });
  if (!s) return;
  const c = await RawClient.open(`${s.wsUrl}/stocks`);
  c.send('auth', KEY);
  c.send('subscribe', 'T.SPY');
  await c.until((m) => m.some((x) => x.status === 'waiting'));
  const waiting = c.messages.find((x) => x.status === 'waiting');
  const message = String(waiting?.message);
  // SPY's first trade of the day is at 04:00:42 New York; the replay stands at midnight.
  assert.match(message, /stands at 2013-10-11 00:00:0\d(\.\d+)? EDT/);
  assert.match(message, /the first event \(SPY\) is at 2013-10-11 04:00:42\.164 EDT, 4 h 0 min from now/);
  assert.match(message, /--replay-from first/);
  assert.match(message, /--replay-speed max/);
  assert.ok(!c.messages.some((x) => x.ev === 'T'), 'no event yet');
  c.close();
  await c.closed;
});

test("replayFrom 'first' at real time sends the first event at once: the one the day's replay begins with", {
  timeout: 60_000,
}, async (t) => {
  const max = await startReplayServer(t, { replayFrom: LATEST_DAY, replaySpeed: 'max' });
  const first = await startReplayServer(t, { replayFrom: 'first', replaySpeed: 1 });
  if (!max || !first) return;
  const firstEvent = async (wsUrl: string) => {
    const c = await RawClient.open(`${wsUrl}/stocks`);
    c.send('auth', KEY);
    c.send('subscribe', 'T.SPY,Q.IBM');
    await c.until((m) => m.some((x) => x.ev !== 'status'));
    c.close();
    await c.closed;
    return c;
  };
  const expected = await firstEvent(max.wsUrl);
  const got = await firstEvent(first.wsUrl);
  const event = (c: RawClient) => c.messages.find((x) => x.ev !== 'status');
  assert.ok(event(expected), 'the day has an event');
  assert.deepEqual(event(got), event(expected));
  assert.deepEqual(
    got.statuses().filter((x) => x.startsWith('waiting')),
    [],
    'nothing to wait for',
  );
});

test('a wait is told in the units a reader cares about', () => {
  assert.deepEqual([999, 12_000, 125_000, 4 * 3_600_000 + 42_000, 3 * 86_400_000 + 3_600_000].map(waitSpan), [
    '1 s',
    '12 s',
    '2 min 5 s',
    '4 h 0 min',
    '3 d 1 h',
  ]);
});
