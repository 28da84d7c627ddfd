import type { SqlValue, Store } from '../../src/server/store/store.js';

/** One query asked of a {@link recordingStore}: its text, its parameters and what the store answered. */
export interface RecordedQuery {
  readonly kind: 'all' | 'columns';
  readonly sql: string;
  readonly params: readonly SqlValue[];
  /** The rows (`all`) or the columns (`columns`) as the store returned them; absent while running. */
  result?: unknown;
  /** The error the query failed with. */
  error?: unknown;
}

/** A store that keeps every query asked of it with its raw answer, and the store it passes them to. */
export interface RecordingStore {
  readonly store: Store;
  /** The queries asked since the last {@link clear}, in the order they were asked. */
  readonly queries: () => readonly RecordedQuery[];
  readonly clear: () => void;
}

/**
 * Wraps `inner` so that every query through it is kept with its answer, for a test to print what the
 * store said when an answer built from it is wrong; statements and the rest pass through.
 */
export function recordingStore(inner: Store): RecordingStore {
  let kept: RecordedQuery[] = [];
  const recorded = <R>(
    kind: RecordedQuery['kind'],
    sql: string,
    params: readonly SqlValue[],
    query: () => Promise<R>,
  ) => {
    const entry: RecordedQuery = { kind, sql, params: [...params] };
    kept.push(entry);
    return query().then(
      (result) => {
        entry.result = result;
        return result;
      },
      (error: unknown) => {
        entry.error = error;
        throw error;
      },
    );
  };
  const store: Store = {
    get location() {
      return inner.location;
    },
    readOnly: inner.readOnly,
    dialect: inner.dialect,
    ...(inner.concurrency !== undefined && { concurrency: inner.concurrency }),
    all: (sql, params = []) => recorded('all', sql, params, () => inner.all(sql, params)),
    columns: (sql, params = []) => recorded('columns', sql, params, () => inner.columns(sql, params)),
    run: (sql, params) => inner.run(sql, params),
    close: () => inner.close(),
  };
  return {
    store,
    queries: () => kept,
    clear: () => {
      kept = [];
    },
  };
}
