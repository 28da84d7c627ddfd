const subscribers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `callback` once when `signal` aborts; returns a function that cancels the subscription.
 *
 * All subscriptions to one signal share a single listener, so one signal can cancel any number of
 * concurrent requests without tripping Node's "possible EventTarget memory leak" warning.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    // The event has already fired; run the callback anyway, after the caller has finished subscribing.
    let cancelled = false;
    queueMicrotask(() => {
      if (!cancelled) callback();
    });
    return () => {
      cancelled = true;
    };
  }
  let set = subscribers.get(signal);
  if (set === undefined) {
    const callbacks = new Set<() => void>();
    set = callbacks;
    subscribers.set(signal, callbacks);
    signal.addEventListener(
      'abort',
      () => {
        subscribers.delete(signal);
        for (const fn of callbacks) fn();
      },
      { once: true },
    );
  }
  set.add(callback);
  const owned = set;
  return () => {
    owned.delete(callback);
  };
}
