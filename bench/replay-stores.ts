/**
 * `node --import tsx bench/replay-stores.ts`: the WebSocket replay over the DuckDB store and over a
 * ClickHouse server started here on loopback (as the tests start it), both holding Lean's futures files
 * of ../shared/marketdata-futures (ES and GC, October 2013). Prints markdown, then `uptime`:
 * - futures `AM.*` from 2013-10-07: the wall time from the subscription to the first event, and the
 *   store queries of the replay of the whole week (`TickSource.next` until it ends);
 * - a light REST request (one contract's day bar) answered while 50 connections replay every futures
 *   channel (`T.*,Q.*,AM.*`) at full speed, and without them.
 *
 * Environment: BENCH_ROUNDS (timed rounds per figure, default 5), BENCH_STREAMS (default 50).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../src/server/index.js';
import { ingestLean } from '../src/server/ingest/lean.js';
import { publishToClickHouse } from '../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../src/server/store/duckdb-store.js';
import type { Store } from '../src/server/store/store.js';
import { FEEDS } from '../src/server/stream/feeds.js';
import { type TickKey, TickSource, tickKey } from '../src/server/stream/tick-source.js';
import { RawClient } from '../test/stream/fixture.js';
import { launchClickHouse } from '../test/support/clickhouse.js';
import { countingStore } from '../test/support/counting-store.js';
import { median } from './measure.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const streams = Number(process.env.BENCH_STREAMS ?? 50);
const futuresDir = fileURLToPath(new URL('../../shared/marketdata-futures/lean/', import.meta.url));
const FROM = '2013-10-07';
const KEY = 'k';

/** A server over `store` replaying from {@link FROM} at full speed; the caller closes it. */
const serve = (store: Store) =>
  startServer({
    store,
    port: 0,
    apiKeys: [KEY],
    replayFrom: FROM,
    replaySpeed: 'max',
    cache: false,
    log: () => {},
  });

/** A connection subscribed to `channels` on `/futures`. */
async function subscribe(wsUrl: string, channels: string): Promise<RawClient> {
  const c = await RawClient.open(`${wsUrl}/futures`);
  c.send('auth', KEY);
  c.send('subscribe', channels);
  return c;
}

/** Wall time (ms) from the subscription to `AM.*` to its first event, on a fresh server. */
async function firstAggregate(store: Store): Promise<number> {
  const server = await serve(store);
  try {
    const started = performance.now();
    const c = await subscribe(server.url.replace(/^http/, 'ws'), 'AM.*');
    await c.until((m) => m.some((x) => x.ev === 'AM'));
    const ms = performance.now() - started;
    c.close();
    await c.closed;
    return ms;
  } finally {
    await server.close();
  }
}

/** Store queries and events of the whole `AM.*` replay. */
async function wholeReplay(store: Store): Promise<{ queries: number; events: number }> {
  const counting = countingStore(store);
  const source = new TickSource(counting.store, 'futures', FEEDS.futures);
  const fromNs = BigInt(Date.parse(`${FROM}T04:00:00Z`)) * 1_000_000n;
  let after: TickKey | undefined;
  let events = 0;
  for (;;) {
    const batch = await source.next(undefined, undefined, fromNs, after, 5_000, {
      minute: { all: true, tickers: [] },
    });
    const last = batch.at(-1);
    if (!last) break;
    events += batch.length;
    after = tickKey(last);
  }
  return { queries: counting.queries(), events };
}

/** Median wall time (ms) of a light REST request, with `load` connections replaying everything. */
async function restUnder(store: Store, load: number): Promise<number> {
  const server = await serve(store);
  const clients: RawClient[] = [];
  try {
    const wsUrl = server.url.replace(/^http/, 'ws');
    for (let i = 0; i < load; i++) clients.push(await subscribe(wsUrl, 'T.*,Q.*,AM.*'));
    await Promise.all(clients.map((c) => c.until((m) => m.some((x) => x.ev !== 'status'))));
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // A day of each round: no two requests alike, whatever caches there are.
      const day = `2013-10-${String(7 + (i % 5)).padStart(2, '0')}`;
      const started = performance.now();
      const res = await fetch(`${server.url}/v2/aggs/ticker/GCZ3/range/1/day/${day}/${day}`, {
        headers: { Authorization: `Bearer ${KEY}` },
      });
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      times.push(performance.now() - started);
    }
    return median(times);
  } finally {
    for (const c of clients) c.close();
    await Promise.all(clients.map((c) => c.closed));
    await server.close();
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mdq-bench-replay-'));
  const servers = await launchClickHouse(1);
  try {
    const writer = await DuckDbStore.open(join(work, 'futures.duckdb'));
    await ingestLean(writer, futuresDir);
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string, { readOnly: true });
    await publishToClickHouse(writer, clickhouse);
    writer.close();
    const duck = await DuckDbStore.open(join(work, 'futures.duckdb'), { readOnly: true });
    const stores: [string, Store][] = [
      ['DuckDB', duck],
      ['ClickHouse', clickhouse],
    ];
    console.log(`| figure (median of ${rounds}) | ${stores.map(([n]) => n).join(' | ')} |`);
    console.log(`|---|${stores.map(() => '---').join('|')}|`);
    const row = async (label: string, cell: (store: Store) => Promise<string>) => {
      const cells: string[] = [];
      for (const [, store] of stores) cells.push(await cell(store));
      console.log(`| ${label} | ${cells.join(' | ')} |`);
    };
    await row('futures `AM.*`: first event, ms', async (store) => {
      const times: number[] = [];
      for (let i = 0; i < rounds; i++) times.push(await firstAggregate(store));
      return median(times).toFixed(0);
    });
    await row('futures `AM.*`: store queries of the whole replay (events)', async (store) => {
      const { queries, events } = await wholeReplay(store);
      return `${queries} (${events})`;
    });
    await row('REST day bar, no stream, ms', async (store) => (await restUnder(store, 0)).toFixed(0));
    await row(`REST day bar, ${streams} streams replaying, ms`, async (store) =>
      (await restUnder(store, streams)).toFixed(0),
    );
    console.log('');
    console.log(`\`uptime\`: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
    duck.close();
    await clickhouse.close();
  } finally {
    await servers.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
