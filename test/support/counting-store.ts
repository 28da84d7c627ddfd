import type { Store } from '../../src/server/store/store.js';

/** A store that counts the queries asked of it, and the store it passes them to. */
export interface CountingStore {
  readonly store: Store;
  /** Queries (`all` and `columns` calls) asked since the last {@link reset}. */
  readonly queries: () => number;
  readonly reset: () => void;
}

/** Wraps `inner` so that every query through it is counted; statements and the rest pass through. */
export function countingStore(inner: Store): CountingStore {
  let n = 0;
  const store: Store = {
    get location() {
      return inner.location;
    },
    readOnly: inner.readOnly,
    dialect: inner.dialect,
    all: (sql, params) => {
      n++;
      return inner.all(sql, params);
    },
    columns: (sql, params) => {
      n++;
      return inner.columns(sql, params);
    },
    run: (sql, params) => inner.run(sql, params),
    close: () => inner.close(),
  };
  return {
    store,
    queries: () => n,
    reset: () => {
      n = 0;
    },
  };
}
