/**
 * Net order imbalances (`NOI`): `StocksStream` subscribes to the channel and types its events; the local
 * server, which stores no auctions, answers the subscription with a status `error` naming it, and
 * the stream goes on with the channels it serves.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ImbalanceEvent, type StatusEvent, type StocksEvent, StocksStream } from '../../src/index.js';
import { KEY, startReplayServer } from './fixture.js';

test('NOI.* is a stocks channel: the server says it is not available, and T.SPY still streams', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const lines: string[] = [];
  const stream = StocksStream(KEY, { baseUrl: s.wsUrl, logger: (l) => lines.push(l) });
  const statuses: StatusEvent[] = [];
  stream.on('status', (st) => statuses.push(st));
  stream.subscribe('NOI.*', 'T.SPY');
  assert.deepEqual(stream.subscriptions, ['NOI.*', 'T.SPY']);
  const got: StocksEvent[] = [];
  for await (const ev of stream) {
    got.push(ev);
    if (got.length === 20) break;
  }
  await stream.close();
  const error = statuses.find((x) => x.status === 'error');
  assert.match(error?.message ?? '', /^not available: NOI\.\*: this server does not serve NOI: .*auctions/);
  assert.ok(
    lines.some((l) => l.startsWith('stocks stream: not available: NOI.*')),
    lines.join('\n'),
  );
  assert.deepEqual(new Set(got.map((e) => e.ev)), new Set(['T']));
});

test('without a key (a local server needs none) the status messages read as they were sent', async (t) => {
  const s = await startReplayServer(t, { apiKeys: [] });
  if (!s) return;
  const saved = [process.env.MASSIVE_API_KEY, process.env.POLYGON_API_KEY];
  delete process.env.MASSIVE_API_KEY;
  delete process.env.POLYGON_API_KEY;
  t.after(() => {
    if (saved[0] !== undefined) process.env.MASSIVE_API_KEY = saved[0];
    if (saved[1] !== undefined) process.env.POLYGON_API_KEY = saved[1];
  });
  const lines: string[] = [];
  const stream = StocksStream(undefined, { baseUrl: s.wsUrl, logger: (l) => lines.push(l) });
  const statuses: StatusEvent[] = [];
  stream.on('status', (st) => statuses.push(st));
  stream.subscribe('NOI.*', 'T.SPY');
  for await (const ev of stream) if (ev.ev === 'T') break;
  await stream.close();
  assert.ok(
    statuses.some((x) => x.status === 'error' && x.message.startsWith('not available: NOI.*: ')),
    JSON.stringify(statuses),
  );
  assert.ok(!lines.join('\n').includes('(key)'), lines.join('\n'));
  assert.ok(
    lines.some((l) => l.startsWith('stocks stream: not available: NOI.*')),
    lines.join('\n'),
  );
});

test('an imbalance event is told apart by its ev, with the fields the wire format gives it', () => {
  // As the service sends it: NYSE's closing auction at 16:00.
  const wire: StocksEvent = JSON.parse(
    '{"ev":"NOI","T":"IBM","t":1381521300000,"at":1600,"a":"C","i":44,"x":10,"o":12000,"p":48000,"b":186.16}',
  );
  const auction = (e: StocksEvent): string | undefined =>
    e.ev === 'NOI' ? `${e.T} ${e.a} at ${e.at}: ${e.o} unpaired, ${e.p} paired at ${e.b}` : undefined;
  assert.equal(auction(wire), 'IBM C at 1600: 12000 unpaired, 48000 paired at 186.16');
  const typed: ImbalanceEvent = { ev: 'NOI', T: 'A', t: 0, at: 930, a: 'M', i: 1, x: 10, o: 0, p: 0, b: 1 };
  assert.equal(auction(typed), 'A M at 930: 0 unpaired, 0 paired at 1');
});
