/**
 * `node --import tsx bench/snapshots.ts`: the snapshot routes of `mdq serve` answered from the test
 * store (.tmp/test-store.duckdb, built by scripts/prepare-test-store.ts from ../shared/marketdata) and
 * from a ClickHouse server started here on loopback (as the tests start it) holding the same data. "Now"
 * per asset class is the store's latest data, as `mdq serve` sets it. Prints markdown: per request the
 * number of store queries, the median wall time of sequential calls, and the wall time of a burst of
 * concurrent calls; then `uptime`, the machine's load while it ran.
 *
 * Environment: BENCH_ROUNDS (timed sequential calls per request and store, default 5), BENCH_BURST
 * (concurrent calls of a burst, default 4).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { latestDataTimes } from '../src/server/market/now.js';
import { publishToClickHouse } from '../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../src/server/store/duckdb-store.js';
import { launchClickHouse } from '../test/support/clickhouse.js';
import { printStoreRoutes } from './store-routes.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const burst = Number(process.env.BENCH_BURST ?? 4);
const storePath = fileURLToPath(new URL('../.tmp/test-store.duckdb', import.meta.url));

const ALL_REQUESTS = [
  ['/v3/snapshot, a page of 250', '/v3/snapshot?limit=250'],
  ['/v3/snapshot, one stock', '/v3/snapshot?ticker.any_of=SPY'],
  ['stocks tickers', '/v2/snapshot/locale/us/markets/stocks/tickers'],
  ['one stock', '/v2/snapshot/locale/us/markets/stocks/tickers/SPY'],
  ['stocks gainers', '/v2/snapshot/locale/us/markets/stocks/gainers'],
  ['indices', '/v3/snapshot/indices'],
  [
    '/v3/snapshot, an option of each of 5 underlyings',
    '/v3/snapshot?ticker.any_of=O:AAPL140606C00490000,O:GOOG151224C00590000,O:SPX210115C03200000,O:SPY230901C00430000,O:TWX140621C00042500',
  ],
  ['grouped daily, stocks', '/v2/aggs/grouped/locale/us/market/stocks/2013-10-07'],
] as const;
/** BENCH_ONLY: the labels of the requests to time (separated by |), default all. */
const only = process.env.BENCH_ONLY?.split('|');
const REQUESTS = ALL_REQUESTS.filter(([label]) => only === undefined || only.includes(label));

async function main(): Promise<void> {
  if (!existsSync(storePath)) throw new Error(`${storePath} is absent: run scripts/prepare-test-store.ts`);
  const servers = await launchClickHouse(1);
  try {
    const duck = await DuckDbStore.open(storePath, { readOnly: true });
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string);
    await publishToClickHouse(duck, clickhouse);
    await clickhouse.close();
    const published = await ClickHouseStore.open(servers.urls[0] as string, { readOnly: true });
    const times = await latestDataTimes(duck);
    const now = async (cls?: string) =>
      (cls !== undefined && times.byClass[cls as keyof typeof times.byClass]) || (times.latest as number);
    await printStoreRoutes(REQUESTS, duck, published, { now, rounds, burst });
    duck.close();
    await published.close();
  } finally {
    await servers.close();
  }
}

await main();
