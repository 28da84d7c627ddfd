import type { Store } from '../store/store.js';

const kept = new WeakMap<Store, Map<string, Promise<unknown>>>();

/**
 * A fact about a store's data (a ticker's splits, the hours holding its trades), computed once per
 * store and `key` when the store is read-only, since nothing changes its data while it is open; a
 * writable store computes it each time. A failure is not kept.
 */
export function storeFact<T>(store: Store, key: string, compute: () => Promise<T>): Promise<T> {
  if (!store.readOnly) return compute();
  let facts = kept.get(store);
  if (!facts) {
    facts = new Map();
    kept.set(store, facts);
  }
  const known = facts.get(key) as Promise<T> | undefined;
  if (known) return known;
  const fact = compute();
  facts.set(key, fact);
  fact.catch(() => facts?.delete(key));
  return fact;
}
