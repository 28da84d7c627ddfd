/**
 * Cluster mode against a real cluster: two ClickHouse servers (one shard each) and a ZooKeeper. The
 * schema is created ON CLUSTER, rows are spread over the shards by ticker, queries read through the
 * Distributed tables and answer as the DuckDB store does (futures candles of every kind of resolution
 * too, page by page), and publishing again duplicates nothing.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { createApp } from '../../../src/server/app.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import { publishToClickHouse } from '../../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import type { Store } from '../../../src/server/store/store.js';
import { startClickHouse } from '../../support/clickhouse.js';
import { hasShared, leanDir, sharedDir } from '../../support/shared.js';

const FILES = [
  'equity/usa/tick/ibm/20131007_trade.zip',
  'equity/usa/tick/ibm/20131007_quote.zip',
  'equity/usa/minute/spy/20131007_trade.zip',
  'equity/usa/minute/aapl/20140605_trade.zip',
  'forex/oanda/minute/eurusd/20140501_quote.zip',
  'crypto/coinbase/minute/btcusd/20180404_trade.zip',
];

const REQUESTS = [
  '/v3/trades/IBM?timestamp=2013-10-07&limit=1000',
  '/v3/quotes/IBM?timestamp=2013-10-07&limit=500&order=desc',
  '/v2/last/trade/IBM',
  '/v2/aggs/ticker/IBM/range/5/minute/2013-10-07/2013-10-07',
  '/v2/aggs/ticker/SPY/range/1/day/2013-10-07/2013-10-07',
  '/v2/aggs/grouped/locale/us/market/stocks/2013-10-07',
  '/v2/last/nbbo/IBM',
  '/v2/snapshot/locale/us/markets/stocks/tickers',
  '/v3/snapshot?ticker.any_of=SPY,IBM,C:EURUSD,X:BTCUSD,I:SPX,AAPL',
  '/v3/snapshot/indices',
  '/v3/reference/tickers',
];

/** Lean's futures files (ES and GC, October 2013), ingested whole. */
const futuresDir = `${sharedDir}marketdata-futures/lean/`;

/**
 * Futures candles of several resolutions (seconds from the GC ticks, minutes, hours, sessions, weeks,
 * months, quarters and years from the bars), each compared page by page, following next_url.
 */
const FUTURES_CANDLES = [
  `/futures/v1/aggs/GCZ3?resolution=5sec&sort=window_start.asc&limit=2000&window_start.gte=${Date.UTC(2013, 9, 8)}000000&window_start.lt=${Date.UTC(2013, 9, 9)}000000`,
  '/futures/v1/aggs/GCZ3?resolution=59sec&sort=window_start.asc&limit=5000',
  '/futures/v1/aggs/GCZ3?resolution=1min&limit=500',
  '/futures/v1/aggs/GCZ3?resolution=1hour&sort=window_start.desc&limit=100',
  '/futures/v1/aggs/ESZ3?resolution=1session&sort=window_start.asc&limit=5',
  '/futures/v1/aggs/ESH4?resolution=2session&limit=7&window_start.gte=2013-11-01&window_start.lt=2013-12-15',
  '/futures/v1/aggs/ESH4?resolution=5week&sort=window_start.asc&limit=1',
  '/futures/v1/aggs/ESZ3?resolution=1month&sort=window_start.asc&limit=1',
  '/futures/v1/aggs/GCZ3?resolution=1quarter&sort=window_start.asc&limit=1',
  '/futures/v1/aggs/ESH0?resolution=1year&sort=window_start.asc',
];

const NOW = Date.parse('2013-10-07T23:00:00Z');
/** "Now" of the futures requests: during the GC ticks' day. */
const FUTURES_NOW = Date.UTC(2013, 9, 8, 15);

async function answer(store: Store, path: string, now = NOW): Promise<{ status: number; body: unknown }> {
  const app = createApp({ store, now: async () => now, log: () => {} });
  const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
  const body = (await res.json()) as Record<string, unknown>;
  delete body.request_id;
  return { status: res.status, body };
}

async function count(store: Store, table: string): Promise<number> {
  const [row] = await store.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(row?.n);
}

describe('ClickHouse cluster mode', () => {
  test('two shards and ZooKeeper: ON CLUSTER schema, Distributed reads, idempotent publish', {
    timeout: 300_000,
  }, async (t) => {
    if (!hasShared(t, leanDir) || !hasShared(t, futuresDir)) return;
    const servers = await startClickHouse(t, 2);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-cluster-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const lean = join(work, 'lean');
    for (const f of FILES) {
      mkdirSync(dirname(join(lean, f)), { recursive: true });
      symlinkSync(join(leanDir, f), join(lean, f));
    }
    const duck = await DuckDbStore.open(join(work, 'store.duckdb'));
    t.after(() => duck.close());
    await ingestLean(duck, lean);
    await ingestLean(duck, futuresDir);

    const [first, second] = servers.urls as [string, string];
    const cluster = await ClickHouseStore.open(first, { cluster: servers.cluster as string, readOnly: true });
    t.after(() => cluster.close());
    await publishToClickHouse(duck, cluster);
    await publishToClickHouse(duck, cluster);

    // Every row once in the Distributed table, spread over both shards' local tables.
    const shards = [await ClickHouseStore.open(first), await ClickHouseStore.open(second)];
    t.after(async () => {
      for (const s of shards) await s.close();
    });
    for (const table of ['trades', 'bars', 'tickers']) {
      const total = await count(duck, table);
      assert.equal(await count(cluster, table), total, table);
      const [a, b] = [
        await count(shards[0] as Store, `${table}_local`),
        await count(shards[1] as Store, `${table}_local`),
      ];
      assert.equal(a + b, total, `${table}: ${a} + ${b}`);
    }
    const tickersOn = await Promise.all(
      shards.map(
        async (s) => (await s.all<{ ticker: string }>('SELECT DISTINCT ticker FROM bars_local')).length,
      ),
    );
    assert.ok(
      tickersOn.every((n) => n > 0),
      `tickers per shard: ${tickersOn.join(', ')}`,
    );

    for (const path of REQUESTS)
      assert.deepEqual(await answer(cluster, path), await answer(duck, path), path);

    // Futures candles through the Distributed tables, every page.
    let pages = 0;
    for (const first of FUTURES_CANDLES) {
      for (let path: string | undefined = first, page = 0; path !== undefined && page < 50; page++) {
        const expected = await answer(duck, path, FUTURES_NOW);
        assert.equal(expected.status, 200, `${path} on DuckDB: ${JSON.stringify(expected.body)}`);
        assert.deepEqual(await answer(cluster, path, FUTURES_NOW), expected, path);
        const next = (expected.body as { next_url?: string }).next_url;
        path = next === undefined ? undefined : `${new URL(next).pathname}${new URL(next).search}`;
        if (path !== undefined) pages++;
      }
    }
    assert.ok(pages >= 5, `${pages} later pages compared`);
  });
});
