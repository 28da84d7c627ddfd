import type { Store } from '../../src/server/store/store.js';

/** A store that counts the queries asked of it, and the store it passes them to. */
export interface CountingStore {
  readonly store: Store;
  /** Queries (`all` and `columns` calls) asked since the last {@link reset}. */
  readonly queries: () => number;
  /** Queries asked and not yet answered. */
  readonly inFlight: () => number;
  /** The most queries in flight at once since the last {@link reset}. */
  readonly maxInFlight: () => number;
  readonly reset: () => void;
}

/** Wraps `inner` so that every query through it is counted; statements and the rest pass through. */
export function countingStore(inner: Store): CountingStore {
  let n = 0;
  let running = 0;
  let most = 0;
  const counted = <R>(query: () => Promise<R>): Promise<R> => {
    n++;
    most = Math.max(most, ++running);
    return query().finally(() => running--);
  };
  const store: Store = {
    get location() {
      return inner.location;
    },
    readOnly: inner.readOnly,
    dialect: inner.dialect,
    ...(inner.concurrency !== undefined && { concurrency: inner.concurrency }),
    all: (sql, params) => counted(() => inner.all(sql, params)),
    columns: (sql, params) => counted(() => inner.columns(sql, params)),
    run: (sql, params) => inner.run(sql, params),
    close: () => inner.close(),
  };
  return {
    store,
    queries: () => n,
    inFlight: () => running,
    maxInFlight: () => most,
    reset: () => {
      n = 0;
      most = running;
    },
  };
}
