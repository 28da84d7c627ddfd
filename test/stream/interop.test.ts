/**
 * Interop: the official JavaScript client (`@polygon.io/client-js`, written elsewhere) streams from the
 * local server: `websocketClient(key, 'ws://127.0.0.1:PORT').stocks()` connects, authenticates (it sends
 * the key when the socket opens), subscribes, and receives events of the shapes its types declare; so
 * do `@massive.com/client-js`'s `futures()`, `forex()`, `crypto()` and `indices()` sockets.
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

/** What the official client's socket of one market receives for `params` until every kind has come. */
async function receiveAll(
  ws: WebSocket,
  params: string,
  kinds: readonly string[],
): Promise<Record<string, unknown>[]> {
  const seen: Record<string, unknown>[] = [];
  const got = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    ws.onerror = () => reject(new Error('the socket failed'));
    ws.onmessage = (msg: { data: unknown }) => {
      for (const m of JSON.parse(String(msg.data)) as Record<string, unknown>[]) {
        seen.push(m);
        if (m.ev === 'status' && m.status === 'auth_success')
          ws.send(JSON.stringify({ action: 'subscribe', params }));
        if (m.ev !== 'status') got.add(String(m.ev));
      }
      if (kinds.every((k) => got.has(k))) resolve();
    };
  });
  ws.close();
  return seen;
}

test("the official client's forex(), crypto() and indices() sockets receive C, CA, XA, V and AM as declared", async (t) => {
  const declared = new DeclaredTypes(
    "import type { IQuoteForexEvent, IAggegateForexEvent, IAggregateCryptoEvent, IIndexValueEvent, IAggregateIndexEvent } from '@massive.com/client-js';",
    {
      C: 'null as unknown as IQuoteForexEvent',
      CA: 'null as unknown as IAggegateForexEvent',
      XA: 'null as unknown as IAggregateCryptoEvent',
      V: 'null as unknown as IIndexValueEvent',
      AM: 'null as unknown as IAggregateIndexEvent',
    },
  );
  // Each market from a day of its own data: forex quote ticks, crypto minute bars, index minute bars.
  const plans = [
    { market: 'forex', from: '2014-05-01', params: 'C.C:EUR-USD,CA.C:EUR-USD', kinds: ['C', 'CA'] },
    { market: 'crypto', from: '2018-04-05', params: 'XA.X:BTC-USD', kinds: ['XA'] },
    { market: 'indices', from: '2023-07-03', params: 'V.I:SPX,AM.I:SPX', kinds: ['V', 'AM'] },
  ] as const;
  for (const { market, from, params, kinds } of plans) {
    const s = await startReplayServer(t, { replayFrom: from });
    if (!s) return;
    const ws = massiveWebsocketClient(KEY, s.wsUrl)[market]();
    const seen = await receiveAll(ws, params, kinds);
    const statuses = seen.filter((m) => m.ev === 'status').map((m) => m.status);
    assert.deepEqual(statuses, ['connected', 'auth_success', ...kinds.map(() => 'success')], market);
    for (const m of seen) {
      if (m.ev === 'status') continue;
      // The service's crypto aggregates carry their volume-weighted price, which the types leave out, and
      // an index value is a number on the wire (typed `string`).
      const problems = declared
        .check(String(m.ev), m)
        .filter((p) => !WIRE_OVER_TYPES.some((re) => re.test(p)))
        .filter((p) => !(m.ev === 'XA' && p === '$.vw: not declared (number)'))
        .filter((p) => !(m.ev === 'V' && p === '$.val: expected string, got number'));
      assert.deepEqual(problems, [], `${market}: ${JSON.stringify(m)}`);
    }
  }
});
