/**
 * `node --import tsx bench/futures-snapshot.ts`: the futures snapshot (`/futures/vX/snapshot`) answered
 * from the DuckDB store and from a ClickHouse server started here on loopback (as the tests start it),
 * both holding Lean's futures files of ../shared/marketdata-futures (ES and GC, October 2013). Prints
 * markdown: per request the number of store queries, the median wall time of sequential calls, and
 * the wall time of a burst of concurrent calls; then `uptime`, the machine's load while it ran.
 *
 * Environment: BENCH_ROUNDS (timed sequential calls per request and store, default 7), BENCH_BURST
 * (concurrent calls of a burst, default 8).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestLean } from '../src/server/ingest/lean.js';
import { publishToClickHouse } from '../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../src/server/store/duckdb-store.js';
import { launchClickHouse } from '../test/support/clickhouse.js';
import { printStoreRoutes } from './store-routes.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const burst = Number(process.env.BENCH_BURST ?? 8);
const futuresDir = fileURLToPath(new URL('../../shared/marketdata-futures/lean/', import.meta.url));
/** A Tuesday, mid-session: the session so far comes from minute bars. */
const NOW = Date.UTC(2013, 9, 8, 15);

const REQUESTS = [
  ['every stored contract (one page)', '/futures/vX/snapshot?limit=100'],
  ['GC contracts', '/futures/vX/snapshot?product_code=GC'],
  ['one contract', '/futures/vX/snapshot?ticker=GCZ3'],
] as const;

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mdq-bench-futures-snapshot-'));
  const servers = await launchClickHouse(1);
  try {
    const duck = await DuckDbStore.open(join(work, 'futures.duckdb'));
    await ingestLean(duck, futuresDir);
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string, { readOnly: true });
    await publishToClickHouse(duck, clickhouse);
    const [contracts] = await duck.all<{ n: bigint }>('SELECT count(DISTINCT ticker) AS n FROM bars');
    console.log(`${Number(contracts?.n)} contracts stored; now ${new Date(NOW).toISOString()}`);
    console.log('');
    await printStoreRoutes(REQUESTS, duck, clickhouse, {
      now: async () => NOW,
      rounds,
      burst,
      // Every call answers contracts, or the figures would time an empty page.
      read: async (res, path) => {
        if (((await res.json()) as { count: number }).count === 0) throw new Error(`${path}: no contracts`);
      },
    });
    duck.close();
    await clickhouse.close();
  } finally {
    await servers.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
