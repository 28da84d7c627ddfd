import WebSocket from 'ws';
import { AbortError, APIConnectionError, DecodeError, StreamRefusedError } from '../core/errors.js';
import { parseJson } from '../core/json.js';
import { maskKey } from '../core/mask-key.js';
import { retryDelay } from '../core/retry.js';
import { checkChannels, type StreamMarket } from './channels.js';
import { EventQueue } from './event-queue.js';
import type { MarketEvents, StatusEvent } from './events.js';
import type { ResolvedStreamOptions } from './stream-options.js';

/** A reconnection about to be tried. */
export interface ReconnectInfo {
  /** 1 for the first reconnection after a drop. */
  attempt: number;
  /** Wait before it, in milliseconds. */
  delayMs: number;
  /** Close code of the dropped connection (1006: closed without a close frame). */
  code: number;
}

/** The listeners of a stream, by event name. */
export interface StreamListeners<E> {
  /** Every market event, as it arrives (also when nothing iterates). */
  event: (event: E) => void;
  /** Every status message of the service (`connected`, `auth_success`, `success`, `error` …). */
  status: (status: StatusEvent) => void;
  /**
   * Errors: a message that could not be decoded (the stream goes on), or the error that ended the
   * stream (`StreamRefusedError`, `APIConnectionError` once reconnections are exhausted, `StreamOverflowError`).
   */
  error: (error: Error) => void;
  /** A dropped connection is about to be reopened. */
  reconnect: (info: ReconnectInfo) => void;
}

type State = 'idle' | 'connecting' | 'open' | 'closed' | 'failed';

/**
 * A connection to one market of the streaming service: authenticates with the key, keeps a set of
 * subscribed channels, and delivers their events to `for await` (one iterator at a time, through a
 * bounded buffer, see `StreamOptions.overflow`) and to `on('event', …)` listeners.
 *
 * After a drop it reconnects with backoff and jitter, authenticates again and re-subscribes every
 * channel; events sent while it was disconnected are not received. `close()` ends the iteration.
 * The key travels only in the `auth` message: never in the URL, an error or a log line.
 */
export class MarketStream<E extends MarketEvents[StreamMarket]> implements AsyncIterable<E> {
  /** `<baseUrl>/<market>`: where the stream connects. */
  readonly url: string;
  private readonly subs = new Set<string>();
  private readonly queue: EventQueue<E>;
  private readonly listeners: { [K in keyof StreamListeners<E>]: StreamListeners<E>[K][] } = {
    event: [],
    status: [],
    error: [],
    reconnect: [],
  };
  private state: State = 'idle';
  private ws: WebSocket | undefined;
  private authed = false;
  private iterating = false;
  private attempts = 0;
  private timer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;
  private waiting: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(
    /** The market: `stocks`, `options`, `forex`, `crypto` or `indices`. */
    readonly market: StreamMarket,
    private readonly apiKey: string,
    private readonly options: ResolvedStreamOptions,
  ) {
    this.url = `${options.baseUrl}/${market}`;
    this.queue = new EventQueue<E>(options.bufferSize, options.overflow);
    this.queue.onDrain = () => this.ws?.resume();
  }

  /** The subscribed channels, in the order they were added. */
  get subscriptions(): readonly string[] {
    return [...this.subs];
  }

  /** Events discarded under the `'drop-oldest'` overflow policy. */
  get dropped(): number {
    return this.queue.dropped;
  }

  /** Events waiting in the buffer for the iterator. */
  get buffered(): number {
    return this.queue.size;
  }

  /** True between a successful authentication and the next drop. */
  get authenticated(): boolean {
    return this.authed;
  }

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof StreamListeners<E>>(name: K, listener: StreamListeners<E>[K]): () => void {
    const list = this.listeners[name] as StreamListeners<E>[K][];
    list.push(listener);
    return () => {
      const i = list.indexOf(listener);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /**
   * Opens the connection (when not yet open) and resolves once the service has accepted the key.
   *
   * @throws StreamRefusedError on `auth_failed` or `max_connections`; APIConnectionError when every
   *   reconnection failed; AbortError when `close()` came first.
   */
  connect(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.state === 'closed') return Promise.reject(new AbortError('The stream is closed'));
    if (this.authed) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.start();
    return done;
  }

  /**
   * Subscribes to channels (`'T.AAPL'`, `['Q.AAPL', 'AM.*']`, `'T.AAPL,T.MSFT'`), opening the connection
   * when needed. They are re-subscribed after every reconnection.
   *
   * @throws InvalidParameterError for a channel this market does not have, before anything is sent.
   */
  subscribe(...channels: (string | readonly string[])[]): void {
    const list = checkChannels(this.market, channels).filter((c) => !this.subs.has(c));
    for (const c of list) this.subs.add(c);
    if (list.length > 0 && this.authed) this.send('subscribe', list);
    this.start();
  }

  /** Unsubscribes from channels. */
  unsubscribe(...channels: (string | readonly string[])[]): void {
    const list = checkChannels(this.market, channels).filter((c) => this.subs.delete(c));
    if (list.length > 0 && this.authed) this.send('unsubscribe', list);
  }

  /**
   * Closes the connection and ends the iteration (events still buffered are discarded). Safe to call
   * more than once.
   */
  async close(): Promise<void> {
    if (this.state !== 'failed') this.state = 'closed';
    this.authed = false;
    clearTimeout(this.timer);
    this.queue.end();
    this.settle(new AbortError('The stream was closed before it connected'));
    const ws = this.ws;
    this.ws = undefined;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => ws.terminate(), 2_000);
      ws.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1000);
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    this.iterating = true;
    this.start();
    return {
      next: () => this.queue.next(),
      return: async () => {
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }

  private start(): void {
    if (this.state !== 'idle') return;
    this.state = 'connecting';
    this.open();
  }

  private open(): void {
    const ws = new WebSocket(this.url, { handshakeTimeout: this.options.connectTimeout * 1000 });
    this.ws = ws;
    this.authed = false;
    // Until the key is accepted: a service that never answers counts as a drop.
    this.timer = setTimeout(() => ws.terminate(), this.options.connectTimeout * 1000);
    ws.on('open', () => ws.send(JSON.stringify({ action: 'auth', params: this.apiKey })));
    ws.on('message', (data: WebSocket.RawData) => {
      if (ws === this.ws) this.receive(data);
    });
    // Every error is followed by 'close', which decides what happens next.
    ws.on('error', () => {});
    ws.on('close', (code: number) => this.onClose(ws, code));
  }

  private receive(data: WebSocket.RawData): void {
    let messages: unknown;
    try {
      messages = parseJson(data.toString());
    } catch (e) {
      this.emit(
        'error',
        new DecodeError(`A ${this.market} stream message is not JSON: ${String(e)}`, 0, { cause: e }),
      );
      return;
    }
    for (const m of Array.isArray(messages) ? messages : [messages]) {
      if (typeof m !== 'object' || m === null) continue;
      if ((m as { ev?: unknown }).ev === 'status') this.onStatus(m as StatusEvent);
      else this.deliver(m as E);
    }
  }

  private deliver(event: E): void {
    for (const l of this.listeners.event) l(event);
    if (this.iterating && this.queue.push(event) && this.options.overflow === 'pause') this.ws?.pause();
  }

  private onStatus(status: StatusEvent): void {
    // Without a key (a local server needs none) there is nothing to mask.
    const message = maskKey(String(status.message ?? ''), this.apiKey);
    const clean: StatusEvent = { ev: 'status', status: String(status.status), message };
    for (const l of this.listeners.status) l(clean);
    switch (clean.status) {
      case 'auth_success':
        clearTimeout(this.timer);
        this.authed = true;
        this.state = 'open';
        this.attempts = 0;
        if (this.subs.size > 0) this.send('subscribe', [...this.subs]);
        this.settle();
        break;
      case 'auth_failed':
      case 'max_connections':
        this.fail(
          new StreamRefusedError(
            clean.status,
            `The ${this.market} stream at ${this.url} refused the connection: ${clean.status}${message ? ` (${message})` : ''}`,
          ),
        );
        break;
      case 'connected':
      case 'success':
        break;
      default:
        // `error`, and what the server says besides the protocol (mdq's replay: `waiting`).
        this.options.logger?.(`${this.market} stream: ${message}`);
    }
  }

  private send(action: 'subscribe' | 'unsubscribe', channels: readonly string[]): void {
    this.ws?.send(JSON.stringify({ action, params: channels.join(',') }));
  }

  /** The connection `ws` closed with `code`: reconnect, unless the stream was closed or has failed. */
  private onClose(ws: WebSocket, code: number): void {
    if (ws !== this.ws) return;
    clearTimeout(this.timer);
    this.authed = false;
    if (this.state === 'closed' || this.state === 'failed') return;
    this.state = 'connecting';
    if (this.attempts >= this.options.maxReconnects) {
      this.fail(
        new APIConnectionError(
          `The ${this.market} stream at ${this.url} closed (code ${code})${
            this.options.maxReconnects > 0 ? ` and ${this.attempts} reconnections failed` : ''
          }`,
        ),
      );
      return;
    }
    const delayMs = retryDelay(this.attempts, undefined);
    this.attempts++;
    this.options.logger?.(
      `${this.market} stream: connection closed (code ${code}); reconnecting in ${delayMs} ms (attempt ${this.attempts} of ${this.options.maxReconnects})`,
    );
    this.emit('reconnect', { attempt: this.attempts, delayMs, code });
    this.timer = setTimeout(() => {
      if (this.state === 'connecting') this.open();
    }, delayMs);
  }

  private fail(error: Error): void {
    if (this.state === 'closed' || this.state === 'failed') return;
    this.state = 'failed';
    this.failure = error;
    this.authed = false;
    clearTimeout(this.timer);
    this.queue.fail(error);
    this.settle(error);
    this.emit('error', error);
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN) ws.close(1000);
    else ws?.terminate();
  }

  /** Resolves (no error) or rejects the pending `connect()` calls. */
  private settle(error?: unknown): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) {
      if (error === undefined) w.resolve();
      else w.reject(error);
    }
  }

  private emit<K extends 'error' | 'reconnect'>(name: K, value: Parameters<StreamListeners<E>[K]>[0]): void {
    for (const l of this.listeners[name]) (l as (v: typeof value) => void)(value);
  }
}
