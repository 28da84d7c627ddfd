/**
 * Requests over decades of daily bars, and ticker events from the Lean map files, answered by the
 * ClickHouse store as by the DuckDB store: a range of 28 years spells each New York offset change in
 * its time expressions (a query beyond ClickHouse's default 256 KiB), and the map files' history
 * is read with the store's own date text.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createApp } from '../../../src/server/app.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import { publishToClickHouse } from '../../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import type { Store } from '../../../src/server/store/store.js';
import { startClickHouse } from '../../support/clickhouse.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { leanSubset } from '../ingest/helpers.js';

const FILES = [
  'equity/usa/daily/spy.zip',
  'equity/usa/tick/spy/20131007_trade.zip',
  'equity/usa/daily/aapl.zip',
  'equity/usa/factor_files/aapl.csv',
  'equity/usa/map_files/aapl.csv',
];

const REQUESTS = [
  '/v2/aggs/ticker/SPY/range/1/day/1998-01-01/2025-12-31?limit=50000',
  '/v2/aggs/ticker/SPY/range/1/month/1998-01-01/2025-12-31',
  '/v2/aggs/ticker/AAPL/range/1/week/1998-01-01/2025-12-31?adjusted=false',
  // An indicator's default window: every day stored before "now".
  '/v1/indicators/ema/SPY?limit=5',
  '/v1/indicators/macd/SPY?limit=5',
  '/v1/indicators/rsi/AAPL?limit=5',
  '/vX/reference/tickers/AAPL/events',
];

const NOW = Date.parse('2026-01-01T00:00:00Z');

async function answer(store: Store, path: string): Promise<{ status: number; body: unknown }> {
  const app = createApp({ store, now: async () => NOW, log: () => {} });
  const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
  const body = (await res.json()) as Record<string, unknown>;
  delete body.request_id;
  return { status: res.status, body };
}

describe('the ClickHouse store over decades of daily bars', () => {
  test('long ranges, indicators and ticker events answer as on DuckDB', { timeout: 300_000 }, async (t) => {
    if (!hasShared(t, leanDir)) return;
    const servers = await startClickHouse(t);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-decades-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const lean = leanSubset(FILES);
    t.after(lean.cleanup);
    const duck = await DuckDbStore.open(join(work, 'store.duckdb'));
    t.after(() => duck.close());
    await ingestLean(duck, lean.dir);
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string, { readOnly: true });
    t.after(() => clickhouse.close());
    await publishToClickHouse(duck, clickhouse);

    for (const path of REQUESTS) {
      const expected = await answer(duck, path);
      assert.equal(expected.status, 200, `${path} on DuckDB: ${JSON.stringify(expected.body).slice(0, 300)}`);
      const actual = await answer(clickhouse, path);
      assert.equal(actual.status, 200, `${path} on ClickHouse: ${JSON.stringify(actual.body).slice(0, 300)}`);
      assert.deepEqual(actual, expected, path);
    }
  });
});
