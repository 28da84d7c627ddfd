/**
 * Interop: the official JavaScript client (`@polygon.io/client-js`, written elsewhere) streams from the
 * local server: `websocketClient(key, 'ws://127.0.0.1:PORT').stocks()` connects, authenticates (it sends
 * the key when the socket opens), subscribes, and receives events of the shapes its types declare; so
 * does `@massive.com/client-js`'s `futures()` socket.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { websocketClient as massiveWebsocketClient } from '@massive.com/client-js';
import { websocketClient } from '@polygon.io/client-js';
import { DeclaredTypes } from '../support/declared-types.js';
import { KEY, startReplayServer } from './fixture.js';

/**
 * Where the official types and the service's wire differ, and the wire wins: exchange ids are integers
 * (typed `string`), a trade id is a string (typed `number`), condition codes are left out when a tick
 * has none (typed as always present), and trades and quotes carry their sequence number `q` (not
 * declared). Every other field must be as declared.
 */
const WIRE_OVER_TYPES = [
  /^\$\.(x|bx|ax): expected string, got number$/,
  /^\$\.i: expected number, got string "\d+"$/,
  /^\$\.c: missing$/,
  /^\$\.q: not declared \(number\)$/,
];

test("the official client's stocks() socket authenticates, subscribes and receives T, Q, A and AM as declared", async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const declared = new DeclaredTypes(
    "import type { ITradeStockEvent, IQuoteStockEvent, IAggregateStockEvent } from '@polygon.io/client-js';",
    {
      T: 'null as unknown as ITradeStockEvent',
      Q: 'null as unknown as IQuoteStockEvent',
      A: 'null as unknown as IAggregateStockEvent',
      AM: 'null as unknown as IAggregateStockEvent',
    },
  );
  const ws = websocketClient(KEY, s.wsUrl).stocks();
  const seen: Record<string, unknown>[] = [];
  const kinds = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    ws.onerror = () => reject(new Error('the socket failed'));
    ws.onmessage = (msg: { data: unknown }) => {
      for (const m of JSON.parse(String(msg.data)) as Record<string, unknown>[]) {
        seen.push(m);
        if (m.ev === 'status' && m.status === 'auth_success')
          ws.send(JSON.stringify({ action: 'subscribe', params: 'T.SPY,Q.IBM,A.SPY,AM.SPY' }));
        if (m.ev !== 'status') kinds.add(String(m.ev));
      }
      if (kinds.size === 4) resolve();
    };
  });
  ws.close();
  const statuses = seen.filter((m) => m.ev === 'status').map((m) => m.status);
  assert.deepEqual(statuses, ['connected', 'auth_success', 'success', 'success', 'success', 'success']);
  let checked = 0;
  for (const m of seen) {
    if (m.ev === 'status') continue;
    const problems = declared.check(String(m.ev), m).filter((p) => !WIRE_OVER_TYPES.some((re) => re.test(p)));
    assert.deepEqual(problems, [], JSON.stringify(m));
    checked++;
  }
  assert.ok(checked > 0);
});

test("the official client's futures() socket authenticates, subscribes and receives T and AM as declared", async (t) => {
  const s = await startReplayServer(t, { replayFrom: Date.UTC(2013, 9, 7, 13, 30) });
  if (!s) return;
  const declared = new DeclaredTypes(
    "import type { ITradeFuturesEvent, IAggregateFuturesEvent } from '@massive.com/client-js';",
    {
      T: 'null as unknown as ITradeFuturesEvent',
      AM: 'null as unknown as IAggregateFuturesEvent',
    },
  );
  const ws = massiveWebsocketClient(KEY, s.wsUrl).futures();
  const seen: Record<string, unknown>[] = [];
  const kinds = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    ws.onerror = () => reject(new Error('the socket failed'));
    ws.onmessage = (msg: { data: unknown }) => {
      for (const m of JSON.parse(String(msg.data)) as Record<string, unknown>[]) {
        seen.push(m);
        if (m.ev === 'status' && m.status === 'auth_success')
          ws.send(JSON.stringify({ action: 'subscribe', params: 'T.GCZ3,AM.GCZ3' }));
        if (m.ev !== 'status') kinds.add(String(m.ev));
      }
      if (kinds.size === 2) resolve();
    };
  });
  ws.close();
  const statuses = seen.filter((m) => m.ev === 'status').map((m) => m.status);
  assert.deepEqual(statuses, ['connected', 'auth_success', 'success', 'success']);
  let checked = 0;
  for (const m of seen) {
    if (m.ev === 'status') continue;
    // The stored minute bars carry no trade count: an aggregate leaves `n` out rather than invent it.
    const problems = declared.check(String(m.ev), m).filter((p) => !(m.ev === 'AM' && p === '$.n: missing'));
    assert.deepEqual(problems, [], JSON.stringify(m));
    checked++;
  }
  assert.ok(checked > 0);
});
