import { StreamOverflowError } from '../core/errors.js';

/**
 * What a stream does when its consumer is slower than the feed and the buffer is full:
 * - `'pause'`: stop reading the socket until the consumer has taken half the buffer. Nothing is lost; the
 *   sender is held back by TCP (the local server then slows its replay; the live service may end a
 *   connection that lags too long, after which the stream reconnects).
 * - `'drop-oldest'`: discard the oldest buffered events to make room (counted in `dropped`).
 * - `'error'`: end the iteration with a `StreamOverflowError`.
 */
export type OverflowPolicy = 'pause' | 'drop-oldest' | 'error';

/**
 * A bounded FIFO of events between the socket and one async iterator. `push` reports whether the buffer
 * has reached its capacity (for the `'pause'` policy); `onDrain` is told when the consumer has taken it
 * back down to half.
 */
export class EventQueue<E> {
  private items: E[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<E>) => void) | undefined;
  private failWaiter: ((e: unknown) => void) | undefined;
  private ended = false;
  private error: unknown;
  /** Events discarded by the `'drop-oldest'` policy. */
  dropped = 0;
  /** Called when a full buffer has been drained to half. */
  onDrain: (() => void) | undefined;
  private full = false;

  constructor(
    readonly capacity: number,
    readonly policy: OverflowPolicy,
  ) {}

  get size(): number {
    return this.items.length - this.head;
  }

  /** Adds an event; true when the buffer is now full (the caller pauses its source). */
  push(event: E): boolean {
    if (this.ended) return false;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      this.failWaiter = undefined;
      waiter({ value: event, done: false });
      return false;
    }
    if (this.size >= this.capacity) {
      if (this.policy === 'drop-oldest') {
        this.head++;
        this.dropped++;
      } else if (this.policy === 'error') {
        this.fail(
          new StreamOverflowError(
            `The stream's buffer of ${this.capacity} events is full: the consumer is slower than the feed (overflow: 'error')`,
          ),
        );
        return false;
      }
      // 'pause': events the socket had already read still come in; they are kept.
    }
    this.items.push(event);
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.full = this.size >= this.capacity;
    return this.full;
  }

  /** Ends the iteration after the buffered events; with `error`, the next read after them throws it. */
  fail(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    this.settleWaiter();
  }

  /** Ends the iteration now, discarding what is buffered. */
  end(): void {
    this.items = [];
    this.head = 0;
    this.ended = true;
    this.error = undefined;
    this.settleWaiter();
  }

  private settleWaiter(): void {
    if (!this.waiter || this.size > 0) return;
    const waiter = this.waiter;
    const failWaiter = this.failWaiter;
    this.waiter = undefined;
    this.failWaiter = undefined;
    if (this.error !== undefined) failWaiter?.(this.error);
    else waiter({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<E>> {
    if (this.size > 0) {
      const value = this.items[this.head] as E;
      this.items[this.head] = undefined as E;
      this.head++;
      if (this.size === 0) {
        this.items = [];
        this.head = 0;
      }
      if (this.full && this.size <= this.capacity / 2) {
        this.full = false;
        this.onDrain?.();
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) {
      if (this.error !== undefined) {
        const error = this.error;
        this.error = undefined;
        return Promise.reject(error);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    if (this.full) {
      this.full = false;
      this.onDrain?.();
    }
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }
}
