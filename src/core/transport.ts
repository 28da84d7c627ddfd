import type { Socket } from 'node:net';
import { buildConnector, type Dispatcher, Pool } from 'undici';
import { answerError } from './answer-error.js';
import type { ResolvedClientOptions } from './client-options.js';
import { decodeContent, isEncoded } from './decode-content.js';
import {
  AbortError,
  APIConnectionError,
  type APIError,
  type ApiErrorBody,
  apiErrorFor,
  ConnectTimeout,
  DecodeError,
  ForeignOriginError,
  InvalidParameterError,
  MdqError,
  ReadTimeout,
  WriteTimeout,
} from './errors.js';
import { maskKey, maskKeyDeep } from './mask-key.js';
import { onAbort } from './on-abort.js';
import { ConnectionSlots } from './pool.js';
import type { RateLimiter } from './rate-limit.js';
import { isRetryableError, isRetryableStatus, retryDelay } from './retry.js';
import { parseRetryAfter } from './retry-after.js';
import { VERSION } from './version.js';

/** A complete HTTP response, body read as text. */
export interface HttpResponse {
  /** HTTP status code. */
  status: number;
  /** Response headers, names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body, decoded as UTF-8; empty when a 2xx body went to `RequestInit.decoder`. */
  body: string;
  /** What `RequestInit.decoder`'s `end()` returned for a 2xx body. */
  decoded?: unknown;
  /** The URL requested (after same-origin redirects); never contains the API key. */
  url: string;
}

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

/** An error thrown by `Transport.get` once retries are exhausted carries how many attempts were made. */
export type WithAttempts<E extends Error = MdqError> = E & { attempts: number };

/** Redirects followed per request (same origin only). */
export const MAX_REDIRECTS = 5;

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
  readonly #origin: string;
  readonly #basePath: string;
  readonly #headers: Record<string, string>;
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
    const base = new URL(options.baseUrl);
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, '');
    this.#headers = {
      ...options.headers,
      'user-agent': `mdq/${VERSION}`,
      accept: 'application/json',
      ...(options.apiKey !== '' && { authorization: `Bearer ${options.apiKey}` }),
    };
    this.#maxKeepalive = options.maxKeepalive;
    this.#rateLimit = options.rateLimit;
    this.#slots =
      options.maxConnections === null
        ? undefined
        : new ConnectionSlots(options.maxConnections, options.poolTimeout * 1000);
    this.#pool = new Pool(this.#origin, {
      connections: options.maxConnections,
      headersTimeout: options.readTimeout * 1000,
      bodyTimeout: options.readTimeout * 1000,
      connect: watchedConnector(options.connectTimeout * 1000, options.writeTimeout * 1000),
    });
  }

  /** Origin (`scheme://host:port`) every request goes to. */
  get origin(): string {
    return this.#origin;
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
    let path = this.#resolveTarget(target);
    let redirects = 0;
    let retries = 0;
    for (;;) {
      let failure: MdqError;
      let retryAfterMs: number | undefined;
      try {
        const res = await this.#send(path, signal, init?.decoder);
        if (res.status >= 200 && res.status < 300) return res;
        const location = res.headers.location;
        if (res.status >= 300 && res.status < 400 && location !== undefined) {
          if (++redirects > MAX_REDIRECTS) {
            throw apiErrorFor(
              res.status,
              `more than ${MAX_REDIRECTS} redirects`,
              undefined,
              maskKey(stripQuery(path), this.#options.apiKey),
            );
          }
          path = this.#resolveLocation(location, res.url);
          continue;
        }
        failure = errorOf(res, path, this.#options.apiKey);
        if (!isRetryableStatus(res.status)) throw failure;
        retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      } catch (error) {
        failure = error instanceof MdqError ? error : this.#mapError(error, path);
        if (failure instanceof AbortError || failure instanceof ForeignOriginError) throw failure;
        if (!isRetryableError(failure) || this.#closed) {
          throw withAttempts(failure, retries + 1);
        }
      }
      if (retries >= this.#options.maxRetries) throw withAttempts(failure, retries + 1);
      const delay = retryDelay(retries, retryAfterMs);
      retries++;
      this.#options.logger?.(
        `GET ${path}: ${failure.name}${'status' in failure ? ` ${failure.status}` : ''}; retry ${retries} of ${this.#options.maxRetries} in ${(delay / 1000).toFixed(2)} s`,
      );
      await sleep(delay, signal);
    }
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
        `${this.#origin}${path}`,
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
        ? { path, method: 'GET', headers: this.#headers }
        : { path, method: 'GET', headers: this.#headers, reset: true };
      try {
        this.#pool.dispatch(options, handler);
      } catch (error) {
        handler.onResponseError(undefined, error as Error);
      }
    });
  }

  /** Maps an undici or socket failure to mdq's typed errors; messages hold the path without query. */
  #mapError(error: unknown, path: string): MdqError {
    const where = `GET ${maskKey(stripQuery(path), this.#options.apiKey)}`;
    const cause = { cause: error };
    const code = (error as { code?: unknown } | null)?.code;
    if (error instanceof WriteStalled) {
      return new WriteTimeout(`${where}: request not written within ${this.#options.writeTimeout} s`, cause);
    }
    if (error instanceof DeadlinePassed) {
      return new ReadTimeout(
        `${where}: response not complete within ${this.#options.totalTimeout} s (totalTimeout)`,
        cause,
      );
    }
    switch (code) {
      case 'UND_ERR_INVALID_ARG':
        // Refused by undici before sending (e.g. a path with spaces): no retry can fix it.
        return new InvalidParameterError(
          'target',
          maskKey(stripQuery(path), this.#options.apiKey),
          `the request was refused before sending: ${error instanceof Error ? error.message : String(error)}`,
        );
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new ConnectTimeout(
          `${where}: could not connect to ${this.#origin} within ${this.#options.connectTimeout} s`,
          cause,
        );
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return new ReadTimeout(`${where}: no data received for ${this.#options.readTimeout} s`, cause);
      default: {
        const detail = error instanceof Error ? error.message : String(error);
        return new APIConnectionError(
          `${where}: connection to ${this.#origin} failed${typeof code === 'string' ? ` (${code})` : ''}: ${maskKey(detail, this.#options.apiKey)}`,
          cause,
        );
      }
    }
  }

  /** Turns a caller's target into the request path (with base prefix), refusing other origins. */
  #resolveTarget(target: string): string {
    if (typeof target !== 'string') {
      throw new InvalidParameterError('target', target, 'expected a path or a URL string');
    }
    if (target.charCodeAt(0) === 47 /* / */ && target.charCodeAt(1) !== 47) {
      return withoutApiKey(this.#basePath + target);
    }
    if (!/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return withoutApiKey(`${this.#basePath}/${target}`);
    return this.#sameOriginPath(target, undefined);
  }

  #resolveLocation(location: string, from: string): string {
    return this.#sameOriginPath(location, from);
  }

  #sameOriginPath(link: string, base: string | undefined): string {
    let url: URL;
    try {
      url = new URL(link, base ?? this.#origin);
    } catch {
      throw new ForeignOriginError(
        `Refused to follow ${JSON.stringify(maskKey(safeUrl(link), this.#options.apiKey))}: not a valid URL`,
      );
    }
    if (url.origin !== this.#origin) {
      throw new ForeignOriginError(
        `Refused to follow ${maskKey(safeUrl(url.href), this.#options.apiKey)}: it is not on the configured origin ${this.#origin}, and the API key is sent only there`,
      );
    }
    return withoutApiKey(url.pathname + url.search);
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

/** Marks a request dropped because its response did not end within `totalTimeout`. */
class DeadlinePassed extends Error {
  override name = 'DeadlinePassed';
}

/** Marks a socket destroyed by the write watchdog. */
class WriteStalled extends Error {
  override name = 'WriteStalled';
}

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

function errorOf(res: HttpResponse, path: string, apiKey: string): APIError {
  // A server may echo the key it refused, in the body or in a header (a request id made from it); the
  // error (message, body, request id, headers) must not carry it. A JSON body is masked value by value,
  // after parsing, so that masking a short key cannot break the JSON.
  let body: ApiErrorBody | string | undefined = res.body === '' ? undefined : maskKey(res.body, apiKey);
  if (res.body !== '') {
    try {
      const parsed: unknown = JSON.parse(res.body);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        body = maskKeyDeep(parsed as ApiErrorBody, apiKey);
    } catch {
      // Not JSON: the (masked) text itself is the body.
    }
  }
  const headers = maskKeyDeep(res.headers, apiKey);
  const fromBody = typeof body === 'object' ? body.request_id : undefined;
  const requestId = typeof fromBody === 'string' && fromBody !== '' ? fromBody : headers['x-request-id'];
  return apiErrorFor(res.status, body, requestId, maskKey(stripQuery(path), apiKey), headers);
}

function withAttempts(error: MdqError, attempts: number): MdqError {
  (error as WithAttempts).attempts = attempts;
  if (attempts > 1) error.message += ` (gave up after ${attempts} attempts)`;
  return error;
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

function stripQuery(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

const API_KEY_PARAM = /[?&]apikey=/i;

/** Removes `apiKey=` query parameters (the key travels only in the Authorization header). */
function withoutApiKey(path: string): string {
  if (!API_KEY_PARAM.test(path)) return path;
  const q = path.indexOf('?');
  const kept = path
    .slice(q + 1)
    .split('&')
    .filter((part) => part.split('=', 1)[0]!.toLowerCase() !== 'apikey');
  return kept.length === 0 ? path.slice(0, q) : `${path.slice(0, q)}?${kept.join('&')}`;
}

/** A URL as it may appear in a message: `apiKey` parameters removed, credentials dropped. */
function safeUrl(link: string): string {
  const cleaned = withoutApiKey(link);
  try {
    const url = new URL(cleaned);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return cleaned.slice(0, 200);
  }
}
