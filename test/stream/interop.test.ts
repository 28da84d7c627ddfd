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
import { assertDeclared, KEY, officialSession, startReplayServer } from './fixture.js';

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
  const { statuses, events } = await officialSession(
    websocketClient(KEY, s.wsUrl).stocks(),
    'T.SPY,Q.IBM,A.SPY,AM.SPY',
    ['T', 'Q', 'A', 'AM'],
  );
  assert.deepEqual(statuses, ['connected', 'auth_success', 'success', 'success', 'success', 'success']);
  assertDeclared(declared, events, (p) => WIRE_OVER_TYPES.some((re) => re.test(p)));
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
  const { statuses, events } = await officialSession(
    massiveWebsocketClient(KEY, s.wsUrl).futures(),
    'T.GCZ3,AM.GCZ3',
    ['T', 'AM'],
  );
  assert.deepEqual(statuses, ['connected', 'auth_success', 'success', 'success']);
  // The stored minute bars carry no trade count: an aggregate leaves `n` out rather than invent it.
  assertDeclared(declared, events, (p, m) => m.ev === 'AM' && p === '$.n: missing');
});
