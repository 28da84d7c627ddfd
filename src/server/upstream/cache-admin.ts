import { statSync } from 'node:fs';
import { marketTimeZone } from '../market/time-zone.js';
import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import { cachedKind } from './cached-kinds.js';
import { type CoverageRow, coverageRows } from './coverage.js';

/** What `mdq cache status` reports. */
export interface CacheStatus {
  /** Every stored range: ticker, kind, days, when fetched, and whether it is final. */
  ranges: CoverageRow[];
  /** Size of the database file (all of it, ingested data included), in bytes; 0 in memory. */
  bytesOnDisk: number;
}

/** The ranges a caching server has stored, of `ticker` when given, and the file's size. */
export async function cacheStatus(store: Store, ticker?: string): Promise<CacheStatus> {
  let bytesOnDisk = 0;
  if (store.path !== ':memory:') {
    for (const file of [store.path, `${store.path}.wal`]) {
      try {
        bytesOnDisk += statSync(file).size;
      } catch {
        // No write-ahead log at the moment.
      }
    }
  }
  return { ranges: await coverageRows(store, ticker), bytesOnDisk };
}

/**
 * Removes what a caching server stored (of `ticker` when given): the rows of every stored range and
 * the ranges themselves, in one transaction. Rows ingested from files stay: ranges that held them
 * when fetched (source `files`) lose only their coverage.
 * @returns The ranges removed.
 */
export async function clearCache(store: Store, ticker?: string): Promise<number> {
  const ranges = await coverageRows(store, ticker);
  await store.transaction(async () => {
    // Rows ingested from files are never removed, only the caching server's own.
    for (const r of ranges.filter((x) => x.source === 'upstream')) {
      // A kind that owns no rows (a market's grouped day: its tickers' daily bars are covered as their
      // own) removes nothing.
      const removal =
        cachedKind(r.kind)?.storage.remove({
          ticker: r.ticker,
          range: { first: r.first, last: r.last },
          tz: marketTimeZone(r.ticker),
        }) ?? [];
      for (const s of removal) await store.run(s.sql, s.params);
    }
    await store.run(
      `DELETE FROM coverage${ticker === undefined ? '' : ' WHERE ticker = $1'}`,
      ticker === undefined ? [] : [ticker],
    );
  });
  return ranges.length;
}
