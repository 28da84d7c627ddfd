import { InvalidParameterError } from './errors.js';

/**
 * A counting semaphore: at most `permits` holders at a time; waiters are served first come, first served.
 *
 * @example
 * const sem = new Semaphore(10);
 * await sem.run(() => fetchChunk(a, b));
 */
export class Semaphore {
  #free: number;
  readonly #waiters: Array<() => void> = [];

  /**
   * @param permits - how many holders at once; a positive integer.
   * @param paramName - the caller's name for `permits`, for the error message.
   * @throws InvalidParameterError when `permits` is not a positive integer.
   */
  constructor(permits: number, paramName = 'permits') {
    if (!Number.isSafeInteger(permits) || permits < 1) {
      throw new InvalidParameterError(paramName, permits, 'expected a positive integer');
    }
    this.#free = permits;
  }

  /** Holders that could still enter without waiting. */
  get available(): number {
    return this.#free;
  }

  /** Waits for a permit; the returned function gives it back (calling it again does nothing). */
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiters.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      // The permit passes straight to the next waiter, so no newcomer can overtake it.
      if (next) next();
      else this.#free++;
    };
  }

  /** Runs `task` while holding a permit. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}
