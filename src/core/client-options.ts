import { InvalidParameterError, MissingApiKeyError } from './errors.js';

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
   * Receives verbose and progress lines (retries, pages fetched). Never receives the API key.
   * @default undefined (silent)
   */
  logger?: (line: string) => void;
  /**
   * Extra headers sent with every request. `Authorization` cannot be set here: the key is sent by mdq.
   * @default {}
   */
  headers?: Record<string, string>;
}

/**
 * `ClientOptions` with every default applied and validated, plus the API key. Each field means what the
 * `ClientOptions` field of the same name says.
 */
export interface ResolvedClientOptions {
  /** The API key, sent only as `Authorization: Bearer <key>`. */
  apiKey: string;
  useAsync: boolean;
  /** Origin plus optional path prefix, without trailing slash. */
  baseUrl: string;
  connectTimeout: number;
  readTimeout: number;
  writeTimeout: number;
  poolTimeout: number;
  maxConnections: number | null;
  maxKeepalive: number | null;
  maxRetries: number;
  logger: ((line: string) => void) | undefined;
  headers: Record<string, string>;
}

/**
 * Applies defaults to `options`, validates each one and finds the API key: the argument, else
 * `MASSIVE_API_KEY`, else `POLYGON_API_KEY`.
 *
 * @throws MissingApiKeyError when no key is found.
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
  return {
    apiKey: resolveApiKey(apiKey),
    useAsync: booleanOption('useAsync', options.useAsync, false),
    baseUrl: baseUrlOption(options.baseUrl ?? process.env.MDQ_BASE_URL ?? DEFAULT_BASE_URL),
    connectTimeout: secondsOption('connectTimeout', options.connectTimeout),
    readTimeout: secondsOption('readTimeout', options.readTimeout),
    writeTimeout: secondsOption('writeTimeout', options.writeTimeout),
    poolTimeout: secondsOption('poolTimeout', options.poolTimeout),
    maxConnections: countOption('maxConnections', options.maxConnections, 1),
    maxKeepalive: countOption('maxKeepalive', options.maxKeepalive, 0),
    maxRetries: maxRetriesOption(options.maxRetries),
    logger: loggerOption(options.logger),
    headers: headersOption(options.headers),
  };
}

/**
 * The API key: the argument, else `MASSIVE_API_KEY`, else `POLYGON_API_KEY`.
 *
 * @throws MissingApiKeyError when there is none; InvalidParameterError when it holds white space.
 */
export function resolveApiKey(apiKey: string | undefined | null): string {
  if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string') {
    throw new InvalidParameterError('apiKey', typeof apiKey, 'expected a string');
  }
  const key = apiKey || process.env.MASSIVE_API_KEY || process.env.POLYGON_API_KEY;
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

function secondsOption(name: string, value: unknown): number {
  if (value === undefined) return 10;
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

function loggerOption(value: unknown): ((line: string) => void) | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new InvalidParameterError('logger', value, 'expected a function');
  return value as (line: string) => void;
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
