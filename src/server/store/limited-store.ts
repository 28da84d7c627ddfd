import type { Store } from './store.js';

/**
 * `store` with at most `slots` of its queries (`all`, `columns`) running at once: the others wait,
 * first come first served, until one ends. Statements and `close` pass straight through. Whoever shares
 * the one wrapper shares its slots, so many callers together never hold more of the store's connections
 * than `slots`.
 */
export function limitedStore(store: Store, slots: number): Store {
  let free = Math.max(1, Math.floor(slots));
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const limited = async <R>(query: () => Promise<R>): Promise<R> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await query();
    } finally {
      release();
    }
  };
  return {
    get location() {
      return store.location;
    },
    readOnly: store.readOnly,
    dialect: store.dialect,
    ...(store.concurrency !== undefined && { concurrency: store.concurrency }),
    all: (sql, params) => limited(() => store.all(sql, params)),
    columns: (sql, params) => limited(() => store.columns(sql, params)),
    run: (sql, params) => store.run(sql, params),
    close: () => store.close(),
  };
}
