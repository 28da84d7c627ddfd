/**
 * The replay equals the store: from a random start, over random tickers, the first N events a client
 * receives are the stored trades and quotes at or after that start, in (time, trades before quotes,
 * ticker, sequence) order, none missing and none extra; and its per-second and per-minute aggregates
 * equal the REST aggregates of the same windows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { startServer } from '../../src/server/index.js';
import type { Store } from '../../src/server/store/store.js';
import { ForexStream, type StocksEvent, StocksStream } from '../../src/stream/index.js';
import { openTestStore } from '../support/store.js';
import { KEY } from './fixture.js';

/** The test store's tick days (New York), 2013-10-07 … 2013-10-11, at 09:30. */
const OPEN_MS = [7, 8, 9, 10, 11].map((d) => Date.UTC(2013, 9, d, 13, 30));

/** The stored ticks the replay of `channels` from `fromMs` must begin with. */
async function storedTicks(store: Store, trades: string[], quotes: string[], fromMs: number, n: number) {
  const list = (xs: string[]) => (xs.length ? xs.map((x) => `'${x}'`).join(',') : "''");
  return store.all<{ kind: number; ticker: string; ms: number; seq: number; a: number; b: number }>(
    `SELECT * FROM (
       SELECT 0 AS kind, ticker, sip_timestamp, (sip_timestamp // 1000000)::DOUBLE AS ms,
              sequence_number::DOUBLE AS seq, price AS a, size AS b
         FROM trades WHERE ticker IN (${list(trades)}) AND sip_timestamp >= $1
       UNION ALL
       SELECT 1, ticker, sip_timestamp, (sip_timestamp // 1000000)::DOUBLE, sequence_number::DOUBLE,
              coalesce(bid_price, 0), coalesce(ask_price, 0)
         FROM quotes WHERE ticker IN (${list(quotes)}) AND sip_timestamp >= $1)
     ORDER BY sip_timestamp, kind, ticker, seq LIMIT ${n}`,
    [BigInt(fromMs) * 1_000_000n],
  );
}

async function firstEvents(url: string, channels: string[], n: number): Promise<StocksEvent[]> {
  const stream = StocksStream(KEY, { baseUrl: url });
  stream.subscribe(channels);
  const got: StocksEvent[] = [];
  if (n === 0) return got;
  for await (const ev of stream) {
    got.push(ev);
    if (got.length === n) break;
  }
  return got;
}

test('the replayed trades and quotes are the stored ticks of the window, in order and count', async (t) => {
  const store = await openTestStore(t);
  if (!store) return;
  t.after(() => store.close());
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 0, max: 6.5 * 3_600_000 - 1 }),
      fc.subarray(['SPY', 'IBM', 'BAC'], { minLength: 0 }),
      fc.subarray(['IBM', 'BAC'], { minLength: 0 }),
      fc.integer({ min: 1, max: 12_000 }),
      async (day, offset, trades, quotes, n) => {
        fc.pre(trades.length + quotes.length > 0);
        const fromMs = (OPEN_MS[day] as number) + offset;
        const expected = await storedTicks(store, trades, quotes, fromMs, n);
        fc.pre(expected.length === n);
        const server = await startServer({
          store,
          port: 0,
          apiKeys: [KEY],
          replayFrom: fromMs,
          replaySpeed: 'max',
          log: () => {},
        });
        try {
          const channels = [...trades.map((x) => `T.${x}`), ...quotes.map((x) => `Q.${x}`)];
          const got = await firstEvents(server.url.replace('http', 'ws'), channels, n);
          const shape = got.map((e) =>
            e.ev === 'T'
              ? [0, e.sym, e.t, e.q, e.p, e.s]
              : e.ev === 'Q'
                ? [1, e.sym, e.t, e.q, e.bp, e.ap]
                : ['unexpected', e.ev],
          );
          assert.deepEqual(
            shape,
            expected.map((r) => [r.kind, r.ticker, r.ms, r.seq, r.a, r.b]),
          );
        } finally {
          await server.close();
        }
      },
    ),
    { numRuns: 8, seed: 14 },
  );
});

test('the A and AM aggregates equal the REST second and minute bars of the same windows', async (t) => {
  const store = await openTestStore(t);
  if (!store) return;
  t.after(() => store.close());
  for (const [channel, timespan, n] of [
    ['A', 'second', 400],
    ['AM', 'minute', 30],
  ] as const) {
    // A start inside a second and a minute: the first windows still hold their earlier trades.
    const fromMs = (OPEN_MS[1] as number) + 17 * 60_000 + 12_345;
    const server = await startServer({
      store,
      port: 0,
      apiKeys: [KEY],
      replayFrom: fromMs,
      replaySpeed: 'max',
      log: () => {},
    });
    try {
      const got = (await firstEvents(server.url.replace('http', 'ws'), [`${channel}.SPY`], n)) as Extract<
        StocksEvent,
        { ev: 'A' | 'AM' }
      >[];
      const last = got[got.length - 1];
      assert.ok(last);
      const bars = async (span: string, from: number) => {
        const res = await fetch(
          `${server.url}/v2/aggs/ticker/SPY/range/1/${span}/${from}/${last.e - 1}?limit=50000&sort=asc`,
          { headers: { authorization: `Bearer ${KEY}` } },
        );
        return (await res.json()) as {
          results: { t: number; o: number; h: number; l: number; c: number; v: number; vw: number }[];
        };
      };
      const body = await bars(timespan, (got[0] as { s: number }).s);
      // The day's volume so far (av) and first price (op), from midnight New York.
      const day = (await bars(timespan, Date.UTC(2013, 9, 8, 4))).results;
      const dayVolume = (e: number) => day.filter((b) => b.t < e).reduce((sum, b) => sum + b.v, 0);
      for (const a of got) {
        assert.equal(a.av, dayVolume(a.e), `av at ${a.e}`);
        assert.equal(a.op, day[0]?.o);
      }
      assert.equal(got.length, body.results.length, 'one aggregate per REST bar');
      got.forEach((a, i) => {
        const b = body.results[i];
        assert.ok(b);
        assert.deepEqual(
          [a.ev, a.sym, a.s, a.e, a.o, a.h, a.l, a.c, a.v],
          [channel, 'SPY', b.t, b.t + (timespan === 'second' ? 1_000 : 60_000), b.o, b.h, b.l, b.c, b.v],
        );
        assert.ok(Math.abs(a.vw - b.vw) <= 1e-4, `vw ${a.vw} vs ${b.vw}`);
      });
    } finally {
      await server.close();
    }
  }
});

test('a wildcard replays every ticker of the market', async (t) => {
  const store = await openTestStore(t);
  if (!store) return;
  t.after(() => store.close());
  // Stock tickers: no prefix, and not a futures contract of the futures root (GCZ3).
  const all = (
    await store.all<{ ticker: string }>(
      "SELECT DISTINCT ticker FROM trades WHERE ticker NOT LIKE '%:%' AND NOT regexp_matches(ticker, '^(ES|GC)[FGHJKMNQUVXZ][0-9]$')",
    )
  ).map((r) => r.ticker);
  assert.ok(all.length > 1);
  const fromMs = (OPEN_MS[0] as number) + 60_000;
  const expected = await storedTicks(store, all, [], fromMs, 8_000);
  const server = await startServer({
    store,
    port: 0,
    apiKeys: [KEY],
    replayFrom: fromMs,
    replaySpeed: 'max',
    log: () => {},
  });
  try {
    const got = await firstEvents(server.url.replace('http', 'ws'), ['T.*'], expected.length);
    assert.deepEqual(
      got.map((e) => (e.ev === 'T' ? [e.sym, e.t, e.q] : e.ev)),
      expected.map((r) => [r.ticker, r.ms, r.seq]),
    );
    assert.ok(new Set(got.map((e) => (e as { sym: string }).sym)).size > 1);
  } finally {
    await server.close();
  }
});

test('forex quotes replay as C events of the pair, whichever way the channel writes it', async (t) => {
  const store = await openTestStore(t);
  if (!store) return;
  t.after(() => store.close());
  const fromMs = Date.UTC(2014, 4, 1, 12);
  const expected = await storedTicks(store, [], ['C:EURUSD'], fromMs, 500);
  assert.equal(expected.length, 500);
  const server = await startServer({
    store,
    port: 0,
    apiKeys: [KEY],
    replayFrom: fromMs,
    replaySpeed: 'max',
    log: () => {},
  });
  try {
    for (const channel of ['C.C:EUR-USD', 'C.C:EUR/USD', 'C.C:EURUSD']) {
      const stream = ForexStream(KEY, { baseUrl: server.url.replace('http', 'ws') });
      stream.subscribe(channel);
      const got: unknown[] = [];
      for await (const ev of stream) {
        got.push(ev.ev === 'C' ? [ev.p, ev.t, ev.b, ev.a] : ev.ev);
        if (got.length === expected.length) break;
      }
      assert.deepEqual(
        got,
        expected.map((r) => ['EUR/USD', r.ms, r.a, r.b]),
        channel,
      );
    }
  } finally {
    await server.close();
  }
});
