import { AbortError, PoolTimeout } from './errors.js';
import { onAbort } from './on-abort.js';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  unsubscribe: (() => void) | undefined;
}

/**
 * A counting semaphore in front of the HTTP pool, sized `maxConnections`: a request holds a slot from the
 * moment it is sent until its response is read. Waiters are served first come, first served; one that
 * waits longer than the pool timeout fails with `PoolTimeout`.
 */
export class ConnectionSlots {
  #free: number;
  readonly #waiters: Waiter[] = [];
  readonly #timeoutMs: number;

  /**
   * @param size - Number of slots (≥ 1).
   * @param timeoutMs - Longest wait for a slot, in milliseconds.
   */
  constructor(size: number, timeoutMs: number) {
    this.#free = size;
    this.#timeoutMs = timeoutMs;
  }

  /** Takes a slot at once if one is free; returns false otherwise. */
  tryAcquire(): boolean {
    if (this.#free > 0 && this.#waiters.length === 0) {
      this.#free--;
      return true;
    }
    return false;
  }

  /** Waits for a slot; rejects with `PoolTimeout` after the pool timeout, or `AbortError` on abort. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        unsubscribe: undefined,
        timer: setTimeout(() => {
          this.#drop(waiter);
          reject(
            new PoolTimeout(
              `No connection became free within ${this.#timeoutMs / 1000} s (all maxConnections in use)`,
            ),
          );
        }, this.#timeoutMs),
      };
      if (signal) {
        waiter.unsubscribe = onAbort(signal, () => {
          this.#drop(waiter);
          reject(
            new AbortError('Request aborted while waiting for a free connection', { cause: signal.reason }),
          );
        });
      }
      this.#waiters.push(waiter);
    });
  }

  /** Returns a slot, handing it straight to the longest waiter if there is one. */
  release(): void {
    const next = this.#waiters.shift();
    if (next) {
      this.#settle(next);
      next.resolve();
    } else {
      this.#free++;
    }
  }

  #drop(waiter: Waiter): void {
    const at = this.#waiters.indexOf(waiter);
    if (at >= 0) this.#waiters.splice(at, 1);
    this.#settle(waiter);
  }

  #settle(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    waiter.unsubscribe?.();
  }
}
