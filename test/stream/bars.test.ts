/**
 * The channels replayed from aggregates equal the REST answer of the same windows: forex `CA` (and
 * `CAS`, which REST has no bars for), crypto `XA`/`XAS` (no crypto trade ticks are stored: the bars
 * REST builds from second and minute bars), index `AM` and `V`, futures `AM` (the `1min` candles) and
 * `T` (the stored ticks). Channels the server cannot serve answer a status `error` and send nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dayOf, NEW_YORK } from '../../src/dates/time-zone.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import {
  type MarketEvents,
  openStream,
  type StatusEvent,
  type StreamMarket,
} from '../../src/stream/index.js';
import { openTestStore } from '../support/store.js';
import { KEY, RawClient, startReplayServer } from './fixture.js';
import { assertOptionMinutes } from './option-minutes.js';

/** The first `n` events of `channels` on `market`. */
async function events<M extends StreamMarket>(
  server: RunningServer,
  market: M,
  channels: string[],
  n: number,
): Promise<MarketEvents[M][]> {
  const stream = openStream(market, KEY, { baseUrl: server.url.replace('http', 'ws') });
  stream.subscribe(channels);
  const got: MarketEvents[M][] = [];
  for await (const ev of stream) {
    got.push(ev);
    if (got.length === n) break;
  }
  return got;
}

async function rest<T>(server: RunningServer, path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(res.status, 200, path);
  return (await res.json()) as T;
}

type RestBar = { t: number; o: number; h: number; l: number; c: number; v: number; vw?: number; n?: number };

test('forex CA events are the REST minute aggregates of the pair, between its C quotes in time order', {
  timeout: 120_000,
}, async (t) => {
  const fromMs = Date.UTC(2014, 4, 1, 12, 0, 30);
  const s = await startReplayServer(t, { replayFrom: fromMs });
  if (!s) return;
  const { server } = s;
  const got = await events(server, 'forex', ['CA.C:EUR-USD', 'C.C:EUR-USD'], 3_000);
  const aggs = got.filter((e) => e.ev === 'CA');
  assert.ok(aggs.length > 10, `${aggs.length} CA events`);
  const last = aggs[aggs.length - 1];
  assert.ok(last && last.ev === 'CA');
  const body = await rest<{ results: RestBar[] }>(
    server,
    `/v2/aggs/ticker/C:EURUSD/range/1/minute/${fromMs}/${last.s}?limit=50000`,
  );
  // The window holding the start ends after it: it is the first sent.
  assert.deepEqual(
    aggs.map((a) => (a.ev === 'CA' ? [a.pair, a.s, a.e, a.o, a.h, a.l, a.c, a.v] : [])),
    body.results.map((b) => ['EUR/USD', b.t, b.t + 60_000, b.o, b.h, b.l, b.c, b.v]),
  );
  // Each minute comes before the quotes of the instant it ends and after those before it.
  const time = (e: (typeof got)[number]) => (e.ev === 'CA' ? e.e : e.ev === 'C' ? e.t : Number.NaN);
  for (let i = 1; i < got.length; i++) {
    const a = got[i - 1] as (typeof got)[number];
    const b = got[i] as (typeof got)[number];
    assert.ok(time(a) <= time(b), `event ${i} out of order`);
    if (a.ev === 'C' && b.ev === 'CA') assert.ok(a.t < b.e);
  }
});

test('forex CAS sends nothing, as REST has no second bars of forex, and the replay goes on', {
  timeout: 120_000,
}, async (t) => {
  const fromMs = Date.UTC(2014, 4, 1, 12);
  const s = await startReplayServer(t, { replayFrom: fromMs });
  if (!s) return;
  const { server } = s;
  const seconds = await rest<{ results?: RestBar[] }>(
    server,
    `/v2/aggs/ticker/C:EURUSD/range/1/second/${fromMs}/${fromMs + 3_600_000}`,
  );
  assert.equal(seconds.results, undefined);
  const got = await events(server, 'forex', ['CAS.*', 'CA.C:EUR-USD'], 30);
  assert.deepEqual(new Set(got.map((e) => e.ev)), new Set(['CA']));
});

test('crypto XA and XAS are the REST minute and second bars of a day without trade ticks', {
  timeout: 120_000,
}, async (t) => {
  // BTC-USD has second and minute bars on 2016-10-07: REST builds its minutes from the seconds.
  const fromMs = Date.UTC(2016, 9, 7, 10, 0, 20);
  const s = await startReplayServer(t, { replayFrom: fromMs });
  if (!s) return;
  const { server } = s;
  for (const [channel, span, n] of [
    ['XA', 'minute', 40],
    ['XAS', 'second', 300],
  ] as const) {
    const got = await events(server, 'crypto', [`${channel}.X:BTC-USD`], n);
    assert.equal(got.length, n);
    const last = got[n - 1];
    assert.ok(last && (last.ev === 'XA' || last.ev === 'XAS'));
    const body = await rest<{ results: RestBar[] }>(
      server,
      `/v2/aggs/ticker/X:BTCUSD/range/1/${span}/${fromMs}/${last.s}?limit=50000`,
    );
    const len = span === 'second' ? 1_000 : 60_000;
    assert.deepEqual(
      got.map((a) => (a.ev === channel ? [a.pair, a.s, a.e, a.o, a.h, a.l, a.c, a.v, a.vw] : [a.ev])),
      body.results.map((b) => ['BTC-USD', b.t, b.t + len, b.o, b.h, b.l, b.c, b.v, b.vw]),
    );
  }
});

test('index AM and V are the REST minute aggregates of the index and their closes', {
  timeout: 120_000,
}, async (t) => {
  const fromMs = Date.UTC(2021, 0, 4, 15, 10, 30);
  const s = await startReplayServer(t, { replayFrom: fromMs });
  if (!s) return;
  const { server } = s;
  const got = await events(server, 'indices', ['AM.I:SPX', 'V.I:SPX', 'A.I:SPX'], 120);
  assert.equal(got.length, 120);
  const aggs = got.filter((e) => e.ev === 'AM');
  const values = got.filter((e) => e.ev === 'V');
  assert.equal(aggs.length, 60);
  assert.equal(values.length, 60, 'one value a minute, and no second aggregates (none stored)');
  const last = aggs[aggs.length - 1];
  assert.ok(last && last.ev === 'AM');
  const body = await rest<{ results: RestBar[] }>(
    server,
    `/v2/aggs/ticker/I:SPX/range/1/minute/${fromMs}/${last.s}?limit=50000`,
  );
  const day = await rest<{ results: RestBar[] }>(
    server,
    '/v2/aggs/ticker/I:SPX/range/1/day/2021-01-04/2021-01-04',
  );
  assert.deepEqual(
    aggs.map((a) => (a.ev === 'AM' ? [a.sym, a.s, a.e, a.o, a.h, a.l, a.c, a.op] : [])),
    body.results.map((b) => ['I:SPX', b.t, b.t + 60_000, b.o, b.h, b.l, b.c, day.results[0]?.o]),
  );
  assert.deepEqual(
    values.map((v) => (v.ev === 'V' ? [v.T, v.t, v.val] : [])),
    body.results.map((b) => ['I:SPX', b.t + 60_000, b.c]),
  );
});

test('futures AM events are the REST 1min candles, and T the stored trade ticks, in time order', {
  timeout: 120_000,
}, async (t) => {
  const fromMs = Date.UTC(2013, 9, 7, 13, 30, 15);
  const s = await startReplayServer(t, { replayFrom: fromMs });
  if (!s) return;
  const { server, store } = s;
  const got = await events(server, 'futures', ['AM.GCZ3', 'T.GCZ3'], 2_000);
  const aggs = got.filter((e) => e.ev === 'AM');
  const trades = got.filter((e) => e.ev === 'T');
  assert.ok(aggs.length > 3 && trades.length > 100, `${aggs.length} AM, ${trades.length} T`);
  const last = aggs[aggs.length - 1];
  assert.ok(last && last.ev === 'AM');
  const body = await rest<{
    results: {
      window_start: number;
      open: number;
      high: number;
      low: number;
      close: number;
      volume: number;
      dollar_volume: number;
    }[];
  }>(
    server,
    `/futures/v1/aggs/GCZ3?resolution=1min&sort=window_start.asc&limit=5000&window_start.gte=${(fromMs - 15_000) * 1e6}&window_start.lte=${last.s * 1e6}`,
  );
  assert.deepEqual(
    aggs.map((a) => (a.ev === 'AM' ? [a.sym, a.s, a.e, a.o, a.h, a.l, a.c, a.v, a.dv] : [])),
    body.results.map((b) => [
      'GCZ3',
      b.window_start / 1e6,
      b.window_start / 1e6 + 60_000,
      b.open,
      b.high,
      b.low,
      b.close,
      b.volume,
      b.dollar_volume,
    ]),
  );
  const lastTrade = trades[trades.length - 1];
  assert.ok(lastTrade && lastTrade.ev === 'T');
  const stored = await store.all<{ ms: number; q: number; p: number; s: number }>(
    `SELECT (sip_timestamp // 1000000)::DOUBLE AS ms, sequence_number::DOUBLE AS q, price AS p, size AS s
       FROM trades WHERE ticker = 'GCZ3' AND sip_timestamp >= $1 ORDER BY sip_timestamp, sequence_number LIMIT $2`,
    [BigInt(fromMs) * 1_000_000n, BigInt(trades.length)],
  );
  assert.deepEqual(
    trades.map((e) => (e.ev === 'T' ? [e.sym, e.t, e.q, e.p, e.s] : [])),
    stored.map((r) => ['GCZ3', r.ms, r.q, r.p, r.s]),
  );
});

test('options AM.* events are the REST minute bars of every contract, with their day so far', {
  timeout: 300_000,
}, async (t) => {
  // GOOG's options: 38 contracts traded on 2015-12-23, 241 on 2015-12-24 (a half day), then 2015-12-28.
  const fromMs = Date.UTC(2015, 11, 23, 5);
  const s = await startReplayServer(t, { replayFrom: fromMs });
  if (!s) return;
  const { server, store } = s;
  const untilMs = Date.UTC(2015, 11, 29);
  const contracts = await store.all<{ ticker: string; bars: number }>(
    `SELECT ticker, count(*)::DOUBLE AS bars FROM bars WHERE ticker LIKE 'O:%' AND resolution = 'minute'
      AND t >= $1 AND t < $2 GROUP BY ticker ORDER BY ticker`,
    [BigInt(fromMs), BigInt(untilMs)],
  );
  const bars = contracts.reduce((n, c) => n + c.bars, 0);
  assert.ok(contracts.length > 200 && bars > 1_000, `${contracts.length} contracts, ${bars} bars`);
  // Both whole days, and the first minute of the next day with bars.
  const [twoDays] = await store.all<{ n: number }>(
    `SELECT count(*)::DOUBLE AS n FROM bars WHERE ticker LIKE 'O:%' AND resolution = 'minute' AND t >= $1 AND t < $2`,
    [BigInt(fromMs), BigInt(Date.UTC(2015, 11, 25))],
  );
  const n = (twoDays?.n as number) + 1;
  const got = await assertOptionMinutes(
    server,
    fromMs,
    ['AM.*'],
    contracts.map((c) => c.ticker),
    n,
  );
  assert.equal(new Set(got.map((e) => dayOf(e.s, NEW_YORK))).size, 3, 'three days');
});

test('options AM of a contract replayed from midday counts its day from midnight, and A sends nothing', {
  timeout: 120_000,
}, async (t) => {
  const fromMs = Date.UTC(2015, 11, 24, 16, 0, 30);
  const s = await startReplayServer(t, { replayFrom: fromMs });
  if (!s) return;
  const { server, store } = s;
  // The contract with the most minutes that day, with bars before the start and after it.
  const [busiest] = await store.all<{ ticker: string; before: number; after: number }>(
    `SELECT ticker, count(*) FILTER (WHERE t < $2)::DOUBLE AS before, count(*) FILTER (WHERE t >= $2)::DOUBLE AS after
       FROM bars WHERE ticker LIKE 'O:GOOG%' AND resolution = 'minute' AND t >= $1 AND t < $3
      GROUP BY ticker ORDER BY count(*) DESC, ticker LIMIT 1`,
    [BigInt(Date.UTC(2015, 11, 24)), BigInt(fromMs), BigInt(Date.UTC(2015, 11, 25))],
  );
  assert.ok(busiest && busiest.before > 0 && busiest.after > 5, JSON.stringify(busiest));
  const got = await assertOptionMinutes(
    server,
    fromMs,
    [`AM.${busiest.ticker}`, `A.${busiest.ticker}`],
    [busiest.ticker],
    busiest.after,
  );
  assert.ok(
    (got[0]?.av as number) > (got[0]?.v as number),
    'the first event counts the bars before the start',
  );
});

test('options AM replays by default from the latest day of stored option bars, which has no ticks', {
  timeout: 120_000,
}, async (t) => {
  const store = await openTestStore(t);
  if (!store) return;
  const server = await startServer({ store, port: 0, apiKeys: [KEY], replaySpeed: 'max', log: () => {} });
  t.after(async () => {
    await server.close();
    store.close();
  });
  const [latest] = await store.all<{ t: number }>(
    "SELECT max(t)::DOUBLE AS t FROM bars WHERE ticker LIKE 'O:%' AND resolution = 'minute'",
  );
  const [ticks] = await store.all<{ n: number }>(
    "SELECT count(*)::DOUBLE AS n FROM trades WHERE ticker LIKE 'O:%'",
  );
  assert.equal(ticks?.n, 0, 'no option trade ticks stored');
  const [first] = await events(server, 'options', ['AM.*'], 1);
  assert.ok(first?.ev === 'AM');
  assert.equal(dayOf(first.s, NEW_YORK), dayOf(latest?.t as number, NEW_YORK));
});

test('LULD, NOI, FMV and XL2 are answered with a status error naming the channel, and send nothing', {
  timeout: 120_000,
}, async (t) => {
  const s = await startReplayServer(t, { replayFrom: Date.UTC(2013, 9, 7, 13, 30) });
  if (!s) return;
  const { server } = s;
  for (const [market, channel] of [
    ['stocks', 'LULD.SPY'],
    // Imbalances: StocksStream and the official clients subscribe to them; none are stored.
    ['stocks', 'NOI.*'],
    ['stocks', 'FMV.*'],
    ['options', 'FMV.O:SPY230803C00430000'],
    ['forex', 'FMV.C:EUR-USD'],
    ['crypto', 'XL2.X:BTC-USD'],
    ['crypto', 'FMV.*'],
  ] as const) {
    const client = await RawClient.open(`${server.url.replace('http', 'ws')}/${market}`);
    client.send('auth', KEY);
    client.send('subscribe', channel);
    await client.until((m) => m.some((x) => x.status === 'error'));
    const error = client.messages.find((x) => x.status === 'error') as unknown as StatusEvent;
    assert.match(error.message, new RegExp(`not available: ${channel.replace(/[.*]/g, '\\$&')}: `));
    assert.ok(!client.messages.some((x) => x.status === 'success'), `${channel} is not subscribed`);
    // A channel it serves still works on the same connection.
    const probe = market === 'stocks' ? 'T.SPY' : undefined;
    if (probe) {
      client.send('subscribe', probe);
      await client.until((m) => m.some((x) => x.ev === 'T'));
      assert.ok(!client.messages.some((x) => x.ev === channel.split('.')[0]));
    }
    client.ws.close();
    await client.closed;
  }
});
