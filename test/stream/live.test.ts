/**
 * Without a replay start, a server over the simulated market streams it live: generated trades, quotes
 * and aggregates of the subscribed tickers, stamped now, in order.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { openDemoStore } from '../../src/demo/demo-store.js';
import { SIM_PAIRS, SIM_STOCKS } from '../../src/demo/universe.js';
import { startServer } from '../../src/server/index.js';
import { LiveSource } from '../../src/server/stream/live-source.js';
import { compareTicks, tickKey } from '../../src/server/stream/tick-source.js';
import { ForexStream, type StocksEvent, StocksStream } from '../../src/stream/index.js';
import { simDbPath } from '../cli/support.js';
import { KEY, RawClient } from './fixture.js';

async function simServer(t: TestContext, replayFrom?: string) {
  const { store } = await openDemoStore(simDbPath);
  const server = await startServer({
    store,
    port: 0,
    apiKeys: [KEY],
    log: () => {},
    ...(replayFrom !== undefined && { replayFrom, replaySpeed: 'max' as const }),
  });
  t.after(async () => {
    await server.close();
    store.close();
  });
  return server.url.replace(/^http/, 'ws');
}

const [A, B] = SIM_STOCKS.map((s) => s.ticker) as [string, string];

test('the simulated market streams live: trades, quotes and per-second aggregates of the subscribed ticker, in order', async (t) => {
  const url = await simServer(t);
  const startMs = Date.now();
  const stream = StocksStream(KEY, { baseUrl: url });
  stream.subscribe(`T.${A}`, `Q.${A}`, `A.${A}`);
  const got: StocksEvent[] = [];
  for await (const ev of stream) {
    got.push(ev);
    // Until two per-second aggregates have closed and a quote has come (a second may have none).
    if (got.filter((e) => e.ev === 'A').length >= 2 && got.some((e) => e.ev === 'Q')) break;
  }
  const kinds = new Set(got.map((e) => e.ev));
  assert.deepEqual([...kinds].sort(), ['A', 'Q', 'T']);
  let lastT = 0;
  let lastSeq = -1;
  for (const ev of got) {
    assert.equal(ev.ev === 'T' || ev.ev === 'Q' || ev.ev === 'A' ? ev.sym : undefined, A);
    if (ev.ev === 'T' || ev.ev === 'Q') {
      // Stamped now (not the stored year), in time order.
      assert.ok(ev.t >= startMs - 1000, `t ${ev.t} is live`);
      assert.ok(ev.t >= lastT, 'in time order');
      lastT = ev.t;
    }
    if (ev.ev === 'T') {
      assert.ok(ev.p > 0 && ev.s > 0);
      assert.ok(ev.q > lastSeq, 'sequence numbers rise');
      lastSeq = ev.q;
    }
    if (ev.ev === 'Q') assert.ok(ev.ap > ev.bp && ev.bp > 0, 'a spread');
    if (ev.ev === 'A') {
      assert.equal(ev.e - ev.s, 1000);
      // A second closes once the stream has passed it: no earlier trade or quote follows.
      assert.ok(ev.e <= lastT + 1000);
      const trades = got.filter((x) => x.ev === 'T' && x.t >= ev.s && x.t < ev.e) as { p: number }[];
      // A second wholly after the first tick received was wholly received.
      const firstT = (got.find((x) => x.ev === 'T' || x.ev === 'Q') as { t: number }).t;
      if (trades.length > 0 && ev.s > firstT) {
        assert.equal(ev.h, Math.max(...trades.map((x) => x.p)));
        assert.equal(ev.l, Math.min(...trades.map((x) => x.p)));
      }
    }
  }
});

test('only the channels subscribed: quotes of one ticker and trades of another', async (t) => {
  const url = await simServer(t);
  const stream = StocksStream(KEY, { baseUrl: url });
  stream.subscribe(`Q.${A}`, `T.${B}`);
  const got: StocksEvent[] = [];
  for await (const ev of stream) {
    got.push(ev);
    if (got.length === 15) break;
  }
  for (const ev of got) {
    const key = `${ev.ev}.${'sym' in ev ? ev.sym : ''}`;
    assert.ok(key === `Q.${A}` || key === `T.${B}`, key);
  }
});

test('forex streams live as C events of the pair', async (t) => {
  const url = await simServer(t);
  const pair = SIM_PAIRS.find((p) => p.ticker.startsWith('C:'));
  assert.ok(pair);
  const name = `${pair.base}/${pair.quote}`;
  const stream = ForexStream(KEY, { baseUrl: url });
  stream.subscribe(`C.C:${pair.base}-${pair.quote}`);
  let n = 0;
  for await (const ev of stream) {
    assert.equal(ev.ev, 'C');
    if (ev.ev === 'C') {
      assert.equal(ev.p, name);
      assert.ok(ev.a > ev.b && ev.b > 0);
      assert.ok(Math.abs(ev.b / pair.price - 1) < 0.5, 'near the pair’s price');
    }
    if (++n === 5) break;
  }
});

test('with a replay start, the simulated market replays its stored ticks instead', async (t) => {
  const url = await simServer(t, '2024-12-31');
  const client = await RawClient.open(`${url}/stocks`);
  t.after(() => client.close());
  client.send('auth', KEY);
  client.send('subscribe', `T.${A}`);
  await client.until((m) => m.some((x) => x.ev === 'T'));
  const trade = client.messages.find((x) => x.ev === 'T') as { t: number };
  assert.ok(trade.t >= Date.UTC(2024, 11, 31) && trade.t < Date.UTC(2025, 0, 1), String(trade.t));
});

test('the live ticks are a function of time: a read resumed after any tick goes on with the same ticks', async (t) => {
  const { store } = await openDemoStore(simDbPath);
  t.after(() => store.close());
  const source = new LiveSource(store, 'stocks');
  const filter = { all: false, tickers: [A, B] };
  const fromNs = 1_800_000_000_123_456_789n;
  const whole = await source.next(filter, filter, fromNs, undefined, 400);
  assert.ok(whole.length >= 400);
  assert.ok(whole.every((x) => x.sip_timestamp >= fromNs));
  for (let i = 1; i < whole.length; i++)
    assert.ok(compareTicks(tickKey(whole[i - 1]!), tickKey(whole[i]!)) < 0, 'strictly in replay order');
  for (const cut of [0, 1, 57, 200]) {
    const rest = await source.next(filter, filter, fromNs, tickKey(whole[cut]!), 100);
    assert.deepEqual(rest.slice(0, 100), whole.slice(cut + 1, cut + 101));
  }
  // Another instance (another server) generates the same market.
  assert.deepEqual(await new LiveSource(store, 'stocks').next(filter, filter, fromNs, undefined, 400), whole);
  // Unknown tickers have nothing, and say so at once.
  assert.deepEqual(
    await source.next({ all: false, tickers: ['NOPE'] }, undefined, fromNs, undefined, 10),
    [],
  );
});
