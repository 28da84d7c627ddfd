import type { SqlValue, Store } from '../../src/server/store/store.js';

/** One query asked of a store: its text and parameters. */
export interface RecordedQuery {
  readonly sql: string;
  readonly params: readonly SqlValue[];
}

/** A store that records the queries asked of it, and the store it passes them to. */
export interface RecordingStore {
  readonly store: Store;
  /** Queries (`all` and `columns` calls) asked since the last {@link clear}. */
  readonly queries: () => readonly RecordedQuery[];
  readonly clear: () => void;
}

/** Wraps `inner` so that every query through it is recorded; statements and the rest pass through. */
export function recordingStore(inner: Store): RecordingStore {
  let recorded: RecordedQuery[] = [];
  const store: Store = {
    get location() {
      return inner.location;
    },
    readOnly: inner.readOnly,
    dialect: inner.dialect,
    ...(inner.concurrency !== undefined && { concurrency: inner.concurrency }),
    all: (sql, params) => {
      recorded.push({ sql, params: params ?? [] });
      return inner.all(sql, params);
    },
    columns: (sql, params) => {
      recorded.push({ sql, params: params ?? [] });
      return inner.columns(sql, params);
    },
    run: (sql, params) => inner.run(sql, params),
    close: () => inner.close(),
  };
  return {
    store,
    queries: () => recorded,
    clear: () => {
      recorded = [];
    },
  };
}
