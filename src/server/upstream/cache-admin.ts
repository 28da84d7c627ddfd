import { statSync } from 'node:fs';
import { marketTimeZone } from '../market/time-zone.js';
import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import { cachedKind } from './cached-kinds.js';
import { type CoverageRow, coverageRows } from './coverage.js';

/** One stored range with what it holds. */
export interface StoredRange extends CoverageRow {
  /**
   * Whether the range is every day at once (a ticker's records, a listing, an answer), not days.
   */
  whole: boolean;
  /** Rows the range holds in the store (records, listed tickers, bars, ticks; 1 for an answer). */
  rows?: number;
  /** Size of an answer stored as fetched, in bytes (UTF-8 text). */
  bytes?: number;
}

/** What `mdq cache status` reports. */
export interface CacheStatus {
  /**
   * Every stored range: ticker (for a listing its filters, for an answer its request), kind, days,
   * when fetched, whether it is final, and what it holds.
   */
  ranges: StoredRange[];
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
  const ranges: StoredRange[] = [];
  for (const r of await coverageRows(store, ticker)) {
    const kind = cachedKind(r.kind);
    const range: StoredRange = { ...r, whole: kind?.span === 'whole' };
    const size = kind?.storage.size?.({
      ticker: r.ticker,
      range: { first: r.first, last: r.last },
      tz: marketTimeZone(r.ticker),
    });
    // Rows ingested from files are not the caching server's to count.
    if (size && r.source === 'upstream') {
      const [n] = await store.all<{ rows: bigint; bytes?: bigint | null }>(size.sql, size.params);
      range.rows = Number(n?.rows ?? 0n);
      if (n?.bytes !== undefined && n.bytes !== null) range.bytes = Number(n.bytes);
    }
    ranges.push(range);
  }
  return { ranges, bytesOnDisk };
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
