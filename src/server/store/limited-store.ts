import type { Store } from './store.js';

/**
 * Views of stores that share `slots` query slots: through all of them together at most `slots` queries
 * (`all`, `columns`) run at once; the others wait, first come first served, until one ends. A view
 * made with a `signal` drops its waiting queries once the signal aborts (they reject with its reason
 * and never run): the queries of a caller that has gone never take a slot. Statements and `close`
 * pass straight through.
 */
export function querySlots(slots: number): (store: Store, signal?: AbortSignal) => Store {
  let free = Math.max(1, Math.floor(slots));
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const slot = (signal: AbortSignal | undefined): Promise<void> => {
    signal?.throwIfAborted();
    if (free > 0) {
      free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(signal?.reason);
      };
      waiting.push(go);
      signal?.addEventListener('abort', leave, { once: true });
    });
  };
  return (store, signal) => {
    const limited = async <R>(query: () => Promise<R>): Promise<R> => {
      await slot(signal);
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
  };
}
