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
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/server/app.js';
import { ingestLean } from '../src/server/ingest/lean.js';
import { publishToClickHouse } from '../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../src/server/store/duckdb-store.js';
import type { Store } from '../src/server/store/store.js';
import { launchClickHouse } from '../test/support/clickhouse.js';
import { countingStore } from '../test/support/counting-store.js';

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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function measure(
  inner: Store,
  path: string,
): Promise<{ queries: number; ms: number; burstMs: number }> {
  const counting = countingStore(inner);
  const app = createApp({ store: counting.store, now: async () => NOW, log: () => {} });
  let count = 0;
  const get = async () => {
    const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    count = ((await res.json()) as { count: number }).count;
  };
  await get();
  counting.reset();
  await get();
  const queries = counting.queries();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await get();
    times.push(performance.now() - started);
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: burst }, get));
  const burstMs = performance.now() - started;
  if (count === 0) throw new Error(`${path}: no contracts`);
  return { queries, ms: median(times), burstMs };
}

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
    console.log(
      `| request | store queries | DuckDB (median of ${rounds}, ms) | ClickHouse (median of ${rounds}, ms) | DuckDB, ${burst} at once (ms) | ClickHouse, ${burst} at once (ms) |`,
    );
    console.log('|---|---|---|---|---|---|');
    for (const [label, path] of REQUESTS) {
      const d = await measure(duck, path);
      const c = await measure(clickhouse, path);
      const queries = d.queries === c.queries ? `${d.queries}` : `${d.queries} / ${c.queries}`;
      console.log(
        `| ${label} | ${queries} | ${d.ms.toFixed(1)} | ${c.ms.toFixed(1)} | ${d.burstMs.toFixed(0)} | ${c.burstMs.toFixed(0)} |`,
      );
    }
    console.log('');
    console.log(`uptime: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
    duck.close();
    await clickhouse.close();
  } finally {
    await servers.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
