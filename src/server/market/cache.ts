import type { Columns, SqlValue, Store } from '../store/store.js';

/** Options of {@link cachingStore}. */
export interface QueryCacheOptions {
  /**
   * Results kept (least recently used dropped first).
   * @default 2000
   */
  maxEntries?: number;
  /**
   * Results with more rows than this are not kept (bounds the memory a few large answers could take).
   * @default 10000
   */
  maxRows?: number;
}

/** The cache key: the SQL text and each parameter with its JS type (a bigint binds as BIGINT). */
function keyOf(sql: string, params: readonly SqlValue[]): string {
  let key = sql;
  for (const p of params) key += `\u0000${typeof p}:${p === null ? 'null' : String(p)}`;
  return key;
}

/**
 * The same store with `all()` and `columns()` answered from a bounded LRU cache of results. Only for a
 * store nothing writes to while it is served (opened read-only): then a query's result never changes,
 * and repeated requests cost the HTTP and JSON work only. Concurrent identical queries share one
 * execution. Each caller of `all()` gets its own result array, but the row objects are shared: callers
 * must not modify rows (nor columns, which are shared whole).
 */
export function cachingStore(store: Store, options: QueryCacheOptions = {}): Store {
  const maxEntries = options.maxEntries ?? 2000;
  const maxRows = options.maxRows ?? 10_000;
  const cache = new Map<string, Promise<unknown>>();
  /** The cached (or shared pending) result of `run`, kept unless it has more than `maxRows` rows. */
  const cached = <R>(key: string, run: () => Promise<R>, rowsOf: (result: R) => number): Promise<R> => {
    const hit = cache.get(key) as Promise<R> | undefined;
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const pending = run();
    cache.set(key, pending);
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    pending.then(
      (result) => {
        if (rowsOf(result) > maxRows) cache.delete(key);
      },
      () => cache.delete(key),
    );
    return pending;
  };
  // Only primitive parameters make a reliable key; anything else runs uncached.
  const cacheable = (params: readonly SqlValue[]) => params.every((p) => p === null || typeof p !== 'object');
  const all = (sql: string, params: readonly SqlValue[] = []): Promise<unknown[]> => {
    if (!cacheable(params)) return store.all(sql, params);
    // Each caller gets its own array (sorting or trimming it is harmless); the rows are shared.
    return cached(
      `rows\u0000${keyOf(sql, params)}`,
      () => store.all(sql, params),
      (rows) => rows.length,
    ).then((rows) => rows.slice());
  };
  const columns = (
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<Columns<Record<string, unknown>>> => {
    if (!cacheable(params)) return store.columns(sql, params);
    // Columns are read-only (their type says so) and shared as they are.
    return cached(
      `columns\u0000${keyOf(sql, params)}`,
      () => store.columns(sql, params),
      (result) => Object.values(result)[0]?.length ?? 0,
    );
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
