import type { RateLimitClock } from '../../src/core/rate-limit.js';

interface Timer {
  due: number;
  callback: () => void;
  cancelled: boolean;
}

/**
 * A clock for a `RateLimiter` whose time moves only when the test says so (`advance`), or, with
 * `autoAdvance`, whenever the limiter waits: each timer then fires on the next turn of the event loop,
 * the clock jumping to its due time. Requests keep real I/O; only the limiter's waiting is skipped.
 */
export class FakeClock implements RateLimitClock {
  #now = 0;
  readonly #timers = new Set<Timer>();
  readonly #auto: boolean;

  constructor(options: { autoAdvance?: boolean } = {}) {
    this.#auto = options.autoAdvance === true;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer: Timer = { due: this.#now + ms, callback, cancelled: false };
    if (this.#auto) {
      setImmediate(() => {
        if (timer.cancelled) return;
        this.#now = Math.max(this.#now, timer.due);
        callback();
      });
    } else {
      this.#timers.add(timer);
    }
    return timer;
  }

  clearTimeout(handle: unknown): void {
    const timer = handle as Timer;
    timer.cancelled = true;
    this.#timers.delete(timer);
  }

  /** Timers not yet fired nor cancelled (manual mode). */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms` and fires the timers then due, earliest first. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const next = [...this.#timers].filter((t) => t.due <= target).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.#timers.delete(next);
      this.#now = next.due;
      next.callback();
    }
    this.#now = target;
  }
}

/**
 * The most arrivals any window of `perMs` holds (a window `[t, t + perMs)` starting at each arrival).
 */
export function mostInWindow(arrivals: readonly number[], perMs: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + perMs) j++;
    most = Math.max(most, j - i);
  }
  return most;
}
