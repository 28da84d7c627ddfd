/**
 * What the store benches share: a route answered from two stores (DuckDB and ClickHouse) through the
 * app, counted and timed, printed as one markdown table with the machine's `uptime` after it.
 */
import { execFileSync } from 'node:child_process';
import { createApp } from '../src/server/app.js';
import type { Store } from '../src/server/store/store.js';
import { countingStore } from '../test/support/counting-store.js';
import { median } from './measure.js';

/** How the routes are timed and read. */
export interface RouteTiming {
  /** The server's clock, per asset class. */
  now: (cls?: string) => Promise<number>;
  /** Timed sequential calls per request and store. */
  rounds: number;
  /** Concurrent calls of a burst. */
  burst: number;
  /** Reads an answer (and checks it); by default its bytes are read. */
  read?: (res: Response, path: string) => Promise<void>;
}

/**
 * The store queries of one `path` (its second call, once caches are warm), the median wall time of
 * `rounds` sequential calls and the wall time of `burst` calls at once.
 */
async function measure(
  inner: Store,
  path: string,
  timing: RouteTiming,
): Promise<{ queries: number; ms: number; burstMs: number }> {
  const counting = countingStore(inner);
  const app = createApp({ store: counting.store, now: timing.now, log: () => {} });
  const read = timing.read ?? (async (res: Response) => void (await res.arrayBuffer()));
  const get = async () => {
    const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await read(res, path);
  };
  await get();
  counting.reset();
  await get();
  const queries = counting.queries();
  const times: number[] = [];
  for (let i = 0; i < timing.rounds; i++) {
    const started = performance.now();
    await get();
    times.push(performance.now() - started);
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: timing.burst }, get));
  const burstMs = performance.now() - started;
  return { queries, ms: median(times), burstMs };
}

/** Prints the table of `requests` (label, path) answered from `duck` and from `clickhouse`, then `uptime`. */
export async function printStoreRoutes(
  requests: readonly (readonly [string, string])[],
  duck: Store,
  clickhouse: Store,
  timing: RouteTiming,
): Promise<void> {
  const { rounds, burst } = timing;
  console.log(
    `| request | store queries | DuckDB (median of ${rounds}, ms) | ClickHouse (median of ${rounds}, ms) | DuckDB, ${burst} at once (ms) | ClickHouse, ${burst} at once (ms) |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const [label, path] of requests) {
    const d = await measure(duck, path, timing);
    const c = await measure(clickhouse, path, timing);
    const queries = d.queries === c.queries ? `${d.queries}` : `${d.queries} / ${c.queries}`;
    console.log(
      `| ${label} | ${queries} | ${d.ms.toFixed(1)} | ${c.ms.toFixed(1)} | ${d.burstMs.toFixed(0)} | ${c.burstMs.toFixed(0)} |`,
    );
  }
  console.log('');
  console.log(`uptime: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
}
