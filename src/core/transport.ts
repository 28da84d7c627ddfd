import type { Socket } from 'node:net';
import { buildConnector, type Dispatcher, Pool } from 'undici';
import { answerError } from './answer-error.js';
import type { ResolvedClientOptions } from './client-options.js';
import { decodeContent, isEncoded } from './decode-content.js';
import { AbortError, APIConnectionError, type APIError, DecodeError } from './errors.js';
import {
  type AttemptOutcome,
  DeadlinePassed,
  GetPolicy,
  type HttpResponse,
  stripQuery,
  WriteStalled,
} from './get-policy.js';
import { onAbort } from './on-abort.js';
import { ConnectionSlots } from './pool.js';
import type { RateLimiter } from './rate-limit.js';

export { type HttpResponse, MAX_REDIRECTS, type WithAttempts } from './get-policy.js';

/** Options of one request. */
export interface RequestInit {
  /** Cancels the request, including retries and waits, with `AbortError`. */
  signal?: AbortSignal | undefined;
  /**
   * Makes a decoder for a 2xx body (given its `content-length`, if any): each piece of the body is
   * pushed to it as it arrives, and never collected, so the body is not held whole; `end()`'s result
   * is the response's `decoded`. One decoder per attempt.
   */
  decoder?: ((length: number | undefined) => BodyDecoder) | undefined;
}

/** Takes a response body piece by piece (see `RequestInit.decoder`). */
export interface BodyDecoder {
  push(piece: Uint8Array): void;
  end(): unknown;
}

/**
 * The one HTTP core of mdq: keep-alive connections to the configured origin, the API key as a bearer
 * header, the four timeouts, retries with backoff, error mapping and origin safety.
 *
 * Timeouts:
 * - connect: undici's connector timeout → `ConnectTimeout` (retried).
 * - read: undici's headers and body timeouts (the time to the response headers, then between body
 *   chunks) → `ReadTimeout` (retried).
 * - total: a timer of `totalTimeout` from the dispatch of an attempt to the response's last byte, so a
 *   body that keeps arriving a byte at a time still ends; on expiry the request is dropped →
 *   `ReadTimeout` (retried).
 * - write: undici has no write timeout, and hands a bodiless request to the socket synchronously. So each
 *   socket is watched instead: when a write leaves bytes queued in user space (the kernel's send buffer is
 *   full because the peer does not read), a timer of `writeTimeout` starts; it stops once the queue is
 *   flushed, and on expiry the socket is destroyed → `WriteTimeout` (retried). Connections carry one request
 *   at a time, so a socket's writes are the current request's writes.
 * - pool: with `maxConnections`, a semaphore of that size sits in front of undici; waiting longer than
 *   `poolTimeout` for a slot → `PoolTimeout`. It is not retried: the pool is full of this client's own
 *   requests, so waiting again would only double the caller's wait.
 *
 * With `rateLimit`, every attempt (a page, a chunk, a retry, a redirect) first waits for its turn in the
 * limiter, without a time limit (the wait for a connection slot, and `poolTimeout`, start after it) and
 * holds it until its response has ended. The caller's signal removes a waiting request from the queue;
 * `close()` fails the requests this transport still has queued.
 *
 * undici runs the connect and read timers on a coarse clock (ticks of about half a second), so those two
 * fire up to about a second after the configured time; the write and pool timers are exact.
 *
 * @example
 * const transport = new Transport(resolveClientOptions(key));
 * const res = await transport.get('/v3/trades/AAPL?limit=5');
 */
export class Transport {
  readonly #options: ResolvedClientOptions;
  readonly #pool: Pool;
  readonly #policy: GetPolicy;
  readonly #slots: ConnectionSlots | undefined;
  readonly #maxKeepalive: number | null;
  readonly #rateLimit: RateLimiter | null;
  /** Aborted by `close()`: takes this transport's waiting requests out of a (possibly shared) limiter. */
  readonly #closing = new AbortController();
  #inFlight = 0;
  #closed = false;

  /** @param options - Resolved client options (see `resolveClientOptions`). */
  constructor(options: ResolvedClientOptions) {
    this.#options = options;
    this.#policy = new GetPolicy(options);
    this.#maxKeepalive = options.maxKeepalive;
    this.#rateLimit = options.rateLimit;
    this.#slots =
      options.maxConnections === null
        ? undefined
        : new ConnectionSlots(options.maxConnections, options.poolTimeout * 1000);
    this.#pool = new Pool(this.#policy.origin, {
      connections: options.maxConnections,
      headersTimeout: options.readTimeout * 1000,
      bodyTimeout: options.readTimeout * 1000,
      connect: watchedConnector(options.connectTimeout * 1000, options.writeTimeout * 1000),
    });
  }

  /** Origin (`scheme://host:port`) every request goes to. */
  get origin(): string {
    return this.#policy.origin;
  }

  /**
   * GETs `target`: a path and query on the base URL (`'/v3/trades/AAPL?limit=5'`, joined to any base path
   * prefix), or an absolute URL on the same origin (a `next_url`). Retries as described on the class.
   *
   * @returns The 2xx response.
   * @throws ForeignOriginError when `target` or a redirect points to another origin; nothing is sent there.
   * @throws APIError (a subclass per status) for a non-2xx answer; `ConnectTimeout`, `ReadTimeout`,
   *   `WriteTimeout`, `PoolTimeout` or `APIConnectionError` for transport failures; `AbortError` on abort.
   *   An error thrown after retries carries `attempts`.
   */
  async get(target: string, init?: RequestInit): Promise<HttpResponse> {
    const signal = init?.signal;
    if (signal?.aborted) throw abortError(signal);
    if (this.#closed) throw new APIConnectionError('The client is closed; create a new one');
    const steps = this.#policy.steps(target, () => this.#closed);
    let step = steps.next();
    while (!step.done) {
      const next = step.value;
      if ('sleepMs' in next) {
        await sleep(next.sleepMs, signal);
        step = steps.next();
        continue;
      }
      let outcome: AttemptOutcome;
      try {
        outcome = { response: await this.#send(next.send, signal, init?.decoder) };
      } catch (failure) {
        outcome = { failure };
      }
      step = steps.next(outcome);
    }
    return step.value;
  }

  /**
   * The typed error a 2xx answer reports in its decoded body (`"status": "NOT_AUTHORIZED"`, ...), the key
   * masked, or undefined when the body is data (see `answerError`).
   */
  answerError(data: unknown, res: HttpResponse): APIError | undefined {
    return answerError(data, res, this.#options.apiKey);
  }

  /** Closes every connection; requests in flight finish first. Later calls to `get` fail. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closing.abort();
    await this.#pool.close();
  }

  /** One attempt: waits for its turn in the rate limit and for a connection slot (if limited), then sends. */
  #send(path: string, signal: AbortSignal | undefined, decoder: Decoders): Promise<HttpResponse> {
    const limiter = this.#rateLimit;
    if (limiter === null) return this.#sendNow(path, signal, decoder);
    return this.#waitTurn(limiter, signal).then(async (release) => {
      try {
        return await this.#sendNow(path, signal, decoder);
      } finally {
        release();
      }
    });
  }

  #waitTurn(limiter: RateLimiter, signal: AbortSignal | undefined): Promise<() => void> {
    const closing = this.#closing.signal;
    return limiter.acquire(signal ? AbortSignal.any([signal, closing]) : closing).catch((reason) => {
      if (signal?.aborted) throw abortError(signal);
      // One error per request: the caller's handling (attempts, message) must not touch another's.
      if (closing.aborted) {
        throw new APIConnectionError(
          'The client was closed while this request waited for its turn in the rate limit',
        );
      }
      throw reason;
    });
  }

  #sendNow(path: string, signal: AbortSignal | undefined, decoder: Decoders): Promise<HttpResponse> {
    const slots = this.#slots;
    if (slots === undefined) return this.#dispatch(path, signal, undefined, decoder);
    if (slots.tryAcquire()) return this.#dispatch(path, signal, slots, decoder);
    return slots.acquire(signal).then(() => this.#dispatch(path, signal, slots, decoder));
  }

  #dispatch(
    path: string,
    signal: AbortSignal | undefined,
    slots: ConnectionSlots | undefined,
    decoder: Decoders,
  ): Promise<HttpResponse> {
    return new Promise<HttpResponse>((resolve, reject) => {
      const keepAlive = this.#maxKeepalive === null || this.#inFlight < this.#maxKeepalive;
      this.#inFlight++;
      const handler = new ResponseCollector(
        `${this.#policy.origin}${path}`,
        signal,
        this.#options.totalTimeout * 1000,
        resolve,
        reject,
        () => {
          this.#inFlight--;
          slots?.release();
        },
        decoder,
      );
      // Past maxKeepalive concurrent requests, the extra connections are closed after their response, so
      // at most about maxKeepalive idle connections stay open.
      const options: Dispatcher.DispatchOptions = keepAlive
        ? { path, method: 'GET', headers: this.#policy.headers }
        : { path, method: 'GET', headers: this.#policy.headers, reset: true };
      try {
        this.#pool.dispatch(options, handler);
      } catch (error) {
        handler.onResponseError(undefined, error as Error);
      }
    });
  }
}

/** Collects one response (status, headers, body chunks) through undici's dispatch handler interface. */
class ResponseCollector implements Dispatcher.DispatchHandler {
  #status = 0;
  #headers: Record<string, string> = {};
  #chunks: Buffer[] = [];
  /** The decoder of a 2xx body, when the request has one: the body's pieces go to it, not to `#chunks`. */
  #decoder: BodyDecoder | undefined;
  /** The body's `content-encoding`, when it has one: its bytes are collected and decoded at the end. */
  #coding: string | undefined;
  #controller: Dispatcher.DispatchController | undefined;
  #done = false;
  #expired: DeadlinePassed | undefined;
  readonly #url: string;
  readonly #signal: AbortSignal | undefined;
  readonly #resolve: (res: HttpResponse) => void;
  readonly #reject: (error: unknown) => void;
  readonly #finish: () => void;
  readonly #unsubscribe: (() => void) | undefined;
  readonly #deadline: NodeJS.Timeout;
  readonly #makeDecoder: Decoders;

  constructor(
    url: string,
    signal: AbortSignal | undefined,
    totalTimeoutMs: number,
    resolve: (res: HttpResponse) => void,
    reject: (error: unknown) => void,
    finish: () => void,
    makeDecoder: Decoders = undefined,
  ) {
    this.#makeDecoder = makeDecoder;
    this.#url = url;
    this.#signal = signal;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#finish = finish;
    this.#unsubscribe = signal
      ? onAbort(signal, () => {
          // The caller stops waiting now; undici is told to drop the request (or does so once connected).
          this.#reject(abortError(signal));
          this.#controller?.abort(abortError(signal));
        })
      : undefined;
    this.#deadline = setTimeout(() => {
      const error = new DeadlinePassed(`response not complete within ${totalTimeoutMs} ms`);
      this.#expired = error;
      this.#reject(error);
      this.#controller?.abort(error);
    }, totalTimeoutMs);
    this.#deadline.unref();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#signal?.aborted) controller.abort(abortError(this.#signal));
    else if (this.#expired) controller.abort(this.#expired);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.#status = statusCode;
    const out: Record<string, string> = {};
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
    }
    this.#headers = out;
    const coding = out['content-encoding'];
    if (isEncoded(coding)) this.#coding = coding;
    else if (this.#makeDecoder && statusCode >= 200 && statusCode < 300) {
      const length = Number(out['content-length']);
      this.#decoder = this.#makeDecoder(Number.isSafeInteger(length) ? length : undefined);
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#decoder) this.#decoder.push(chunk);
    else this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#end()) return;
    const status = this.#status;
    const headers = this.#headers;
    if (this.#coding !== undefined) {
      this.#endEncoded(this.#coding);
      return;
    }
    if (this.#decoder) {
      this.#resolve({ status, headers, body: '', decoded: this.#decoder.end(), url: this.#url });
      return;
    }
    const chunks = this.#chunks;
    const body = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    this.#resolve({ status, headers, body, url: this.#url });
  }

  /** Decodes a body sent with a content coding, then hands it on as an unencoded one would be. */
  #endEncoded(coding: string): void {
    const status = this.#status;
    const headers = this.#headers;
    let bytes: Buffer;
    try {
      bytes = decodeContent(Buffer.concat(this.#chunks), coding);
    } catch (e) {
      this.#reject(
        new DecodeError(
          `The response to ${stripQuery(this.#url)} could not be decoded from its content-encoding ${coding}: ${(e as Error).message}`,
          status,
          { cause: e },
        ),
      );
      return;
    }
    if (this.#makeDecoder && status >= 200 && status < 300) {
      const decoder = this.#makeDecoder(bytes.length);
      decoder.push(bytes);
      this.#resolve({ status, headers, body: '', decoded: decoder.end(), url: this.#url });
      return;
    }
    this.#resolve({ status, headers, body: bytes.toString('utf8'), url: this.#url });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#end()) return;
    this.#reject(error);
  }

  /** Releases the slot and abort listener once; returns true if already finished. */
  #end(): boolean {
    if (this.#done) return true;
    this.#done = true;
    clearTimeout(this.#deadline);
    this.#unsubscribe?.();
    this.#finish();
    return false;
  }
}

type Decoders = RequestInit['decoder'];

/** undici's connector with a connect timeout, plus the write watchdog described on `Transport`. */
function watchedConnector(connectTimeoutMs: number, writeTimeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ timeout: connectTimeoutMs });
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (socket) watchWrites(socket, writeTimeoutMs);
      // undici's callback type is a tuple union; the call below forwards exactly what was received.
      (callback as (e: Error | null, s: Socket | null) => void)(error, socket);
    });
}

function watchWrites(socket: Socket, timeoutMs: number): void {
  let timer: NodeJS.Timeout | undefined;
  const disarm = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  };
  const write = socket.write;
  socket.write = function watchedWrite(
    this: Socket,
    chunk: unknown,
    encoding?: unknown,
    cb?: unknown,
  ): boolean {
    if (typeof encoding === 'function') {
      cb = encoding;
      encoding = undefined;
    }
    const ok = write.call(
      this,
      chunk as string | Uint8Array,
      encoding as BufferEncoding,
      (error?: Error | null) => {
        if (socket.writableLength === 0) disarm();
        if (typeof cb === 'function') cb(error);
      },
    );
    if (timer === undefined && socket.writableLength > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        socket.destroy(new WriteStalled(`request not written within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
    }
    return ok;
  } as Socket['write'];
  socket.once('close', disarm);
}

function abortError(signal: AbortSignal): AbortError {
  return new AbortError('Request aborted', { cause: signal.reason });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe?.();
      resolve();
    }, ms);
    const unsubscribe = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(abortError(signal));
        })
      : undefined;
  });
}
