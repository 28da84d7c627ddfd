import { approxBytes, stringBytes } from '../approx-bytes.js';
import type { Columns, SqlValue, Store } from '../store/store.js';

/** Options of {@link QueryCache}. */
export interface QueryCacheOptions {
  /**
   * Bytes of results kept in all, keys (the SQL text and parameters) included, as `approxBytes`
   * counts them; the least recently used results are dropped first.
   * @default 256 MiB
   */
  maxBytes?: number;
  /**
   * Results (with their key) larger than this are not kept.
   * @default 32 MiB
   */
  maxEntryBytes?: number;
}

/** Bytes of one kept result besides its key and value: the map entry and its bookkeeping. */
const ENTRY_BYTES = 160;

interface Entry {
  result: Promise<unknown>;
  /** Bytes counted for the entry: its key while it runs, key and result once it has settled. */
  bytes: number;
}

/**
 * A least-recently-used cache of query results bounded in bytes (see {@link cachingStore}). A query
 * still running is kept too (concurrent identical queries share it), counted by its key until its
 * result is known.
 */
export class QueryCache {
  private readonly kept = new Map<string, Entry>();
  private total = 0;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;

  constructor(options: QueryCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 256 * 2 ** 20;
    this.maxEntryBytes = Math.min(options.maxEntryBytes ?? 32 * 2 ** 20, this.maxBytes);
  }

  /** Bytes counted for everything kept. */
  get bytes(): number {
    return this.total;
  }

  /** Results kept (running queries included). */
  get size(): number {
    return this.kept.size;
  }

  /** The kept (or shared running) result for `key`, else the result of `run`, kept if it fits. */
  get<R>(key: string, run: () => Promise<R>): Promise<R> {
    const hit = this.kept.get(key);
    if (hit) {
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit.result as Promise<R>;
    }
    const result = run();
    const keyBytes = ENTRY_BYTES + stringBytes(key);
    if (keyBytes > this.maxEntryBytes) return result;
    const entry: Entry = { result, bytes: keyBytes };
    this.kept.set(key, entry);
    this.total += keyBytes;
    this.trim();
    result.then(
      (value) => {
        if (this.kept.get(key) !== entry) return;
        const bytes = keyBytes + approxBytes(value);
        if (bytes > this.maxEntryBytes) this.forget(key, entry);
        else {
          this.total += bytes - entry.bytes;
          entry.bytes = bytes;
          this.trim();
        }
      },
      () => {
        if (this.kept.get(key) === entry) this.forget(key, entry);
      },
    );
    return result;
  }

  /** Drops the least recently used entries until the total is within `maxBytes`. */
  private trim(): void {
    for (const [key, entry] of this.kept) {
      if (this.total <= this.maxBytes) return;
      this.forget(key, entry);
    }
  }

  private forget(key: string, entry: Entry): void {
    this.kept.delete(key);
    this.total -= entry.bytes;
  }
}

/** The cache key: the SQL text and each parameter with its JS type (a bigint binds as BIGINT). */
function keyOf(sql: string, params: readonly SqlValue[]): string {
  let key = sql;
  for (const p of params) key += `\u0000${typeof p}:${p === null ? 'null' : String(p)}`;
  return key;
}

/**
 * The same store with `all()` and `columns()` answered from a byte-bounded LRU cache of results
 * (`QueryCache`). Only for a store nothing writes to while it is served (opened read-only): then a
 * query's result never changes, and repeated requests cost the HTTP and JSON work only. Concurrent
 * identical queries share one execution. Each caller of `all()` gets its own result array, but the row
 * objects are shared: callers must not modify rows (nor columns, which are shared whole).
 */
export function cachingStore(store: Store, cache: QueryCache | QueryCacheOptions = {}): Store {
  const kept = cache instanceof QueryCache ? cache : new QueryCache(cache);
  // Only primitive parameters make a reliable key; anything else runs uncached.
  const cacheable = (params: readonly SqlValue[]) => params.every((p) => p === null || typeof p !== 'object');
  const all = (sql: string, params: readonly SqlValue[] = []): Promise<unknown[]> => {
    if (!cacheable(params)) return store.all(sql, params);
    // Each caller gets its own array (sorting or trimming it is harmless); the rows are shared.
    return kept
      .get(`rows\u0000${keyOf(sql, params)}`, () => store.all(sql, params))
      .then((rows) => rows.slice());
  };
  const columns = (
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<Columns<Record<string, unknown>>> => {
    if (!cacheable(params)) return store.columns(sql, params);
    // Columns are read-only (their type says so) and shared as they are.
    return kept.get(`columns\u0000${keyOf(sql, params)}`, () => store.columns(sql, params));
  };
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'all') return all;
      if (prop === 'columns') return columns;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
