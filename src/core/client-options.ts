import { InvalidParameterError, MissingApiKeyError } from './errors.js';
import { isLoopbackUrl } from './loopback.js';
import { type RateLimiter, type RateLimitSpec, rateLimitOption } from './rate-limit.js';

/** The service every client talks to unless told otherwise. */
export const DEFAULT_BASE_URL = 'https://api.massive.com';

/** Options accepted by every client constructor. Times are in seconds. */
export interface ClientOptions {
  /**
   * Return the asynchronous client (promises) instead of the synchronous one.
   * @default false
   */
  useAsync?: boolean;
  /**
   * Base URL of the service; may carry a path prefix (`http://127.0.0.1:8765/proxy`). A trailing slash is
   * ignored; a query string is refused.
   * @default process.env.MDQ_BASE_URL ?? 'https://api.massive.com'
   */
  baseUrl?: string;
  /**
   * Seconds allowed to establish a connection; exceeded → `ConnectTimeout`.
   * @default 10
   */
  connectTimeout?: number;
  /**
   * Seconds allowed between bytes of the response (headers, then each body chunk); exceeded → `ReadTimeout`.
   * @default 10
   */
  readTimeout?: number;
  /**
   * Seconds allowed for one request from start to the last byte of the response, however steadily the
   * bytes arrive (a body dribbled a byte at a time never ends otherwise); exceeded → `ReadTimeout`
   * (retried like one). Bounds each attempt; the whole call also waits for retries.
   * @default 300
   */
  totalTimeout?: number;
  /**
   * Seconds allowed for written request bytes to be taken by the network; exceeded → `WriteTimeout`.
   * @default 10
   */
  writeTimeout?: number;
  /**
   * Seconds a request may wait for a free connection when `maxConnections` is reached; exceeded →
   * `PoolTimeout`.
   * @default 10
   */
  poolTimeout?: number;
  /**
   * Most connections open at once (and so most requests in flight); `null` for no limit.
   * @default null
   */
  maxConnections?: number | null;
  /**
   * Most idle keep-alive connections kept for reuse; `null` for no limit, `0` to close every connection after
   * its response.
   * @default null
   */
  maxKeepalive?: number | null;
  /**
   * Retries of a failed idempotent request (connection errors, timeouts except `PoolTimeout`, 408, 429, 5xx).
   * @default 3
   */
  maxRetries?: number;
  /**
   * Receives verbose and progress lines (retries, pages fetched, full-range messages): a function of the
   * line, or an object with `log`, `info`, `warn` or `debug` methods such as `console` (warnings go to
   * `warn`, other lines to `info`, each falling back to the methods it has). Never receives the API key.
   * @default undefined (only what was asked for, `verbose` pages and full-range messages, reaches
   *   standard error)
   */
  logger?: Logger;
  /**
   * Extra headers sent with every request. `Authorization` cannot be set here: the key is sent by mdq.
   * @default {}
   */
  headers?: Record<string, string>;
  /**
   * Spaces this client's requests so that no window of `per` seconds holds more than `requests` of them
   * (`{ requests: 5, per: 60 }` is the free plan); the others wait their turn, in order, instead of
   * failing with 429. Every request counts: each page followed, each full-range chunk (the limit holds
   * across the parallel workers) and each retry. A `RateLimiter` instead shares one limit among several
   * async clients (clients using one key share the service's limit); a synchronous client takes only
   * `{ requests, per }`, as it runs in a thread of its own. `null` for no limit.
   * @default null
   */
  rateLimit?: RateLimitSpec | RateLimiter | null;
  /**
   * A synchronous client on an `http:` base URL (a local server such as `mdq serve`) sends each call of
   * one request, one page included, from the calling thread itself, and reads its answer there: no
   * thread hand-off, so a small call costs what an async one does. `false` sends every call through the
   * client's worker thread. Calls over `https:`, full ranges, all pages, and clients with `rateLimit` or
   * `maxConnections` always go through the worker; an async client is not affected.
   * @default true
   */
  directHttp?: boolean;
}

/** Something with the methods of `console` that a logger may have; `console` itself is one. */
export interface LoggerObject {
  log?(line: string): void;
  info?(line: string): void;
  warn?(line: string): void;
  debug?(line: string): void;
}

/** A logger: a function of the line, or an object such as `console`. */
export type Logger = ((line: string) => void) | LoggerObject;

/** How serious a log line is: a warning (a retry, a failed chunk) or information. */
export type LogLevel = 'info' | 'warn';

/** A logger as the client calls it: every line with its level (information when not given). */
export type LogSink = (line: string, level?: LogLevel) => void;

/**
 * `ClientOptions` with every default applied and validated, plus the API key. Each field means what the
 * `ClientOptions` field of the same name says.
 */
export interface ResolvedClientOptions {
  /** The API key, sent only as `Authorization: Bearer <key>`; empty (none sent) for a loopback `baseUrl` without one. */
  apiKey: string;
  useAsync: boolean;
  /** Origin plus optional path prefix, without trailing slash. */
  baseUrl: string;
  connectTimeout: number;
  readTimeout: number;
  totalTimeout: number;
  writeTimeout: number;
  poolTimeout: number;
  maxConnections: number | null;
  maxKeepalive: number | null;
  maxRetries: number;
  /** The `logger` option as a function of the line and its level; `undefined` when none is set. */
  logger: LogSink | undefined;
  headers: Record<string, string>;
  /** The limiter every request of the client passes, or `null` for none. */
  rateLimit: RateLimiter | null;
  directHttp: boolean;
}

/**
 * Applies defaults to `options`, validates each one and finds the API key: the argument, else
 * `MASSIVE_API_KEY`, else `POLYGON_API_KEY`; none is needed for a loopback `baseUrl` (a local server).
 *
 * @throws MissingApiKeyError when no key is found and `baseUrl` is not loopback.
 * @throws InvalidParameterError naming the first bad option.
 * @example resolveClientOptions('key', { readTimeout: 30, maxRetries: 5 })
 */
export function resolveClientOptions(
  apiKey: string | undefined | null,
  options: ClientOptions = {},
): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidParameterError('options', options, 'expected an object of client options');
  }
  const baseUrl = baseUrlOption(options.baseUrl ?? process.env.MDQ_BASE_URL ?? DEFAULT_BASE_URL);
  return {
    apiKey: resolveApiKey(apiKey, baseUrl),
    useAsync: booleanOption('useAsync', options.useAsync, false),
    baseUrl,
    connectTimeout: secondsOption('connectTimeout', options.connectTimeout),
    readTimeout: secondsOption('readTimeout', options.readTimeout),
    totalTimeout: secondsOption('totalTimeout', options.totalTimeout, 300),
    writeTimeout: secondsOption('writeTimeout', options.writeTimeout),
    poolTimeout: secondsOption('poolTimeout', options.poolTimeout),
    maxConnections: countOption('maxConnections', options.maxConnections, 1),
    maxKeepalive: countOption('maxKeepalive', options.maxKeepalive, 0),
    maxRetries: maxRetriesOption(options.maxRetries),
    logger: loggerOption(options.logger),
    headers: headersOption(options.headers),
    rateLimit: rateLimitOption(options.rateLimit),
    directHttp: booleanOption('directHttp', options.directHttp, true),
  };
}

/**
 * The API key: the argument, else `MASSIVE_API_KEY`, else `POLYGON_API_KEY`; none needed (`''`) when
 * `baseUrl` is a loopback address.
 *
 * @throws MissingApiKeyError when there is none; InvalidParameterError when it holds white space.
 */
export function resolveApiKey(apiKey: string | undefined | null, baseUrl: string): string {
  if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string') {
    throw new InvalidParameterError('apiKey', typeof apiKey, 'expected a string');
  }
  const key = apiKey || process.env.MASSIVE_API_KEY || process.env.POLYGON_API_KEY;
  // A local server (`mdq serve` without keys) needs none: nothing is sent.
  if (!key && isLoopbackUrl(baseUrl)) return '';
  if (!key) {
    throw new MissingApiKeyError(
      'No API key: pass one to the client constructor, or set MASSIVE_API_KEY (or POLYGON_API_KEY) in the environment',
    );
  }
  if (/[\r\n\s]/.test(key)) {
    // The key's value must not be echoed, so the refused value is described instead.
    throw new InvalidParameterError('apiKey', '(not shown)', 'the key must not contain white space');
  }
  return key;
}

function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new InvalidParameterError(name, value, 'expected true or false');
  return value;
}

function secondsOption(name: string, value: unknown, fallback = 10): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidParameterError(name, value, 'expected a positive finite number of seconds');
  }
  return value;
}

function countOption(name: string, value: unknown, min: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidParameterError(name, value, `expected an integer ≥ ${min}, or null for no limit`);
  }
  return value;
}

function maxRetriesOption(value: unknown): number {
  if (value === undefined) return 3;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InvalidParameterError('maxRetries', value, 'expected an integer ≥ 0');
  }
  return value;
}

const LOGGER_METHODS = ['log', 'info', 'warn', 'debug'] as const;

function loggerOption(value: unknown): LogSink | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function') {
    const fn = value as (line: string) => void;
    return (line) => fn(line);
  }
  if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    const method = (names: readonly string[]): ((line: string) => void) | undefined => {
      const name = names.find((n) => typeof object[n] === 'function');
      return name === undefined
        ? undefined
        : (line) => (object[name] as (line: string) => void).call(object, line);
    };
    const info = method(['info', 'log', 'debug', 'warn']);
    const warn = method(['warn', 'log', 'info', 'debug']);
    if (info && warn) return (line, level) => (level === 'warn' ? warn : info)(line);
  }
  throw new InvalidParameterError(
    'logger',
    value,
    `expected a function, or an object with a ${LOGGER_METHODS.join(', ').replace(/, (?=\w+$)/, ' or ')} method (such as console)`,
  );
}

function headersOption(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidParameterError('headers', value, 'expected an object of header names to string values');
  }
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
      throw new InvalidParameterError('headers', name, 'header names must be HTTP tokens');
    }
    if (name.toLowerCase() === 'authorization') {
      throw new InvalidParameterError('headers', name, 'the Authorization header is set from the API key');
    }
    if (typeof v !== 'string' || /[\r\n\0]/.test(v)) {
      throw new InvalidParameterError(`headers.${name}`, v, 'expected a string without line breaks');
    }
    out[name] = v;
  }
  return out;
}

function baseUrlOption(value: unknown): string {
  const allowed = 'expected an http(s) URL without query string or fragment, e.g. https://api.massive.com';
  if (typeof value !== 'string') throw new InvalidParameterError('baseUrl', value, allowed);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidParameterError('baseUrl', value, allowed);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search !== '' ||
    url.hash !== '' ||
    value.includes('?') ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new InvalidParameterError(
      'baseUrl',
      url.username || url.password ? '(credentials not shown)' : value,
      allowed,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
