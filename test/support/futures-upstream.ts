import { copyFileSync, existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { startServer } from '../../src/server/index.js';
import { ingestLean } from '../../src/server/ingest/lean.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { startScriptedProxy } from './scripted-proxy.js';
import { sharedDir } from './shared.js';
import { openTestStore, testStorePath, withStoreFile } from './store.js';
import type { CachingServer } from './upstream-rig.js';

/**
 * The caching server's rig with futures: its upstream serves the Lean test store plus the futures data
 * root (`../shared/marketdata-futures`), ingested into a copy of the store (with quotes made from its
 * quote bars); otherwise as
 * `withCachingServer` (a proxy counting the upstream's calls, a caching server on an empty store file).
 */

/** The futures Lean root. */
export const futuresRoot = `${sharedDir}marketdata-futures/lean/`;

/**
 * Runs `fn` with a caching server whose upstream holds the Lean test data and the futures data. Skips
 * the test (with a printed reason, failing under CI) when either is absent.
 * @param options - Upstream options besides the URL.
 * @param now - The clock (ms) of both servers.
 */
export async function withFuturesCachingServer(
  t: TestContext,
  options: {
    maxRetries?: number;
    /** Writes rows into the caching server's empty store before it opens (as if ingested). */
    seed?: (store: DuckDbStore) => Promise<void>;
    /** Changes the upstream's store after its data is ingested (fields the service gives, Lean's files not). */
    upstreamSeed?: (store: DuckDbStore) => Promise<void>;
  },
  now: number,
  fn: (rig: CachingServer) => Promise<void>,
): Promise<void> {
  if (!existsSync(futuresRoot)) {
    const reason = `${futuresRoot} is absent (the futures data beside the repository)`;
    if (process.env.CI === 'true') throw new Error(reason);
    console.log(`# skipped: ${reason}`);
    t.skip(reason);
    return;
  }
  const check = await openTestStore(t);
  if (!check) return;
  check.close();
  await withStoreFile(async (upstreamDb) => {
    copyFileSync(testStorePath, upstreamDb);
    const writable = await DuckDbStore.open(upstreamDb);
    try {
      await ingestLean(writable, futuresRoot);
      // Lean has futures quote bars, no tick quotes: the upstream quotes each minute quote bar's closing
      // bid and ask, at the bar's last instant, so that futures quotes have something to pass on.
      await writable.run(
        `INSERT INTO quotes (ticker, sip_timestamp, sequence_number, bid_price, bid_size, ask_price, ask_size)
          SELECT ticker, (t + 59999) * 1000000, row_number() OVER (ORDER BY ticker, t), bid_c, bid_size, ask_c, ask_size
          FROM quote_bars WHERE resolution = 'minute' AND regexp_matches(ticker, '^(ES|GC)[FGHJKMNQUVXZ][0-9]$')`,
      );
      await options.upstreamSeed?.(writable);
    } finally {
      writable.close();
    }
    const lean = await DuckDbStore.open(upstreamDb, { readOnly: true });
    const server = await startServer({ store: lean, port: 0, log: () => {}, now });
    const proxy = await startScriptedProxy(server.url);
    try {
      await withStoreFile(async (db) => {
        const logged: string[] = [];
        if (options.seed) {
          const seeded = await DuckDbStore.open(db);
          try {
            await options.seed(seeded);
          } finally {
            seeded.close();
          }
        }
        const cache = await startServer({
          db,
          port: 0,
          upstream: {
            ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
            url: proxy.url,
          },
          log: (line) => logged.push(line),
          now,
        });
        try {
          await fn({ lean, server, proxy, cache, logged, db });
        } finally {
          await cache.close();
        }
      });
    } finally {
      await proxy.close();
      await server.close();
      lean.close();
    }
  });
}
