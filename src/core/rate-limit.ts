import { InvalidParameterError } from './errors.js';
import { onAbort } from './on-abort.js';

/** A rate limit as plain data: at most `requests` requests in any `per` seconds. */
export interface RateLimitSpec {
  /** Requests allowed in any window of `per` seconds; a positive integer. */
  requests: number;
  /** Length of the window, in seconds; a positive finite number. */
  per: number;
}

/** The time source of a {@link RateLimiter}: milliseconds, and timers on the same scale. */
export interface RateLimitClock {
  /** Current time in milliseconds; never goes backwards. */
  now(): number;
  /** Runs `callback` once `ms` milliseconds of this clock have passed; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of a {@link RateLimiter}. */
export interface RateLimiterOptions extends RateLimitSpec {
  /**
   * Where time comes from; only tests need another one.
   * @default the process's monotonic clock (`performance`) and its timers
   */
  clock?: RateLimitClock;
}

const systemClock: RateLimitClock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Marks a `RateLimiter` without `instanceof`, which fails when two copies of mdq are loaded. */
const BRAND = Symbol.for('mdq.RateLimiter');

interface Waiter {
  grant: (release: () => void) => void;
  fail: (reason: unknown) => void;
}

/**
 * Spaces requests so that no window of `per` seconds holds more than `requests` of them, queueing the
 * rest in order of arrival (first come, first served). Give one to several clients (the `rateLimit`
 * client option) and they share the limit: the right thing for clients that use the same API key, since
 * the service counts per key.
 *
 * A request holds its permit from the moment it is sent until its response has ended (or failed), and the
 * window is counted from that end. So however long a request takes on the network, the service can never
 * see more than `requests` arrivals in `per` seconds, and no more than `requests` requests are in flight.
 *
 * @example
 * const limit = new RateLimiter({ requests: 5, per: 60 }); // the free plan
 * const stocks = StocksClient(key, { useAsync: true, rateLimit: limit });
 * const reference = ReferenceClient(key, { useAsync: true, rateLimit: limit });
 */
export class RateLimiter {
  /** Requests allowed in any window. */
  readonly requests: number;
  /** Length of the window, in seconds. */
  readonly per: number;
  readonly #perMs: number;
  readonly #clock: RateLimitClock;
  /** End times of the latest finished requests, oldest first; at most `requests` are kept. */
  readonly #ended: number[] = [];
  readonly #queue: Waiter[] = [];
  #inFlight = 0;
  #timer: unknown;
  #timerAt: number | undefined;

  /**
   * @throws InvalidParameterError when `requests` or `per` is not allowed (names the field and the value).
   */
  constructor(options: RateLimiterOptions) {
    const spec = rateLimitSpec('rateLimit', options, ['clock']);
    this.requests = spec.requests;
    this.per = spec.per;
    this.#perMs = spec.per * 1000;
    this.#clock = options.clock ?? systemClock;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Waits for the turn of one request. Call the returned function once its response has ended or failed
   * (calling it again does nothing); the window of this request counts from then.
   *
   * @param signal - Removes the request from the queue when aborted; the promise then rejects with the
   *   signal's reason.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      let unsubscribe: (() => void) | undefined;
      const waiter: Waiter = {
        grant: (release) => {
          unsubscribe?.();
          resolve(release);
        },
        fail: (reason) => {
          unsubscribe?.();
          reject(reason);
        },
      };
      this.#queue.push(waiter);
      if (signal) {
        unsubscribe = onAbort(signal, () => {
          const at = this.#queue.indexOf(waiter);
          if (at < 0) return;
          this.#queue.splice(at, 1);
          reject(signal.reason);
          // The head may have left: the next one may now be due.
          this.#pump();
        });
      }
      this.#pump();
    });
  }

  /** Grants every waiter the limit allows now; otherwise sets a timer for the next free moment. */
  #pump(): void {
    const now = this.#clock.now();
    const ended = this.#ended;
    while (ended.length > 0 && ended[0]! <= now - this.#perMs) ended.shift();
    while (this.#queue.length > 0 && this.#inFlight + ended.length < this.requests) {
      const waiter = this.#queue.shift()!;
      this.#inFlight++;
      waiter.grant(this.#releaser());
    }
    if (this.#queue.length === 0 || ended.length === 0 || this.#inFlight >= this.requests) {
      // Nothing waits, or only a release can make room: that release pumps again.
      this.#cancelTimer();
      return;
    }
    const at = ended[0]! + this.#perMs;
    if (this.#timerAt === at) return;
    this.#cancelTimer();
    this.#timerAt = at;
    // Rechecked when it fires: a timer may run a little early on the clock's scale.
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = undefined;
        this.#pump();
      },
      Math.max(1, Math.ceil(at - now)),
    );
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight--;
      this.#ended.push(this.#clock.now());
      if (this.#ended.length > this.requests) this.#ended.shift();
      this.#pump();
    };
  }

  #cancelTimer(): void {
    if (this.#timer === undefined) return;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = undefined;
  }
}

/** True for a {@link RateLimiter}, also one from another copy of mdq. */
export function isRateLimiter(value: unknown): value is RateLimiter {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * The `rateLimit` client option: `undefined` or `null` for none, a {@link RateLimiter} to share, or
 * `{ requests, per }` for a limiter of the client's own.
 *
 * @throws InvalidParameterError naming the bad field, its value and what is allowed.
 */
export function rateLimitOption(value: unknown): RateLimiter | null {
  if (value === undefined || value === null) return null;
  if (isRateLimiter(value)) return value;
  return new RateLimiter(rateLimitSpec('rateLimit', value, []));
}

function rateLimitSpec(name: string, value: unknown, extraKeys: readonly string[]): RateLimitSpec {
  const allowed =
    'expected { requests, per }: at most `requests` requests in any `per` seconds, e.g. { requests: 5, per: 60 }, or a RateLimiter, or null for no limit';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidParameterError(name, value, allowed);
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'requests' && key !== 'per' && !extraKeys.includes(key)) {
      throw new InvalidParameterError(`${name}.${key}`, record[key], `unknown field; ${allowed}`);
    }
  }
  const { requests, per } = record;
  if (typeof requests !== 'number' || !Number.isSafeInteger(requests) || requests < 1) {
    throw new InvalidParameterError(
      `${name}.requests`,
      requests,
      'expected an integer ≥ 1: the requests allowed in any window of `per` seconds',
    );
  }
  if (typeof per !== 'number' || !Number.isFinite(per) || per <= 0) {
    throw new InvalidParameterError(
      `${name}.per`,
      per,
      'expected a positive finite number of seconds: the length of the window',
    );
  }
  return { requests, per };
}
