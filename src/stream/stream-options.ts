import { InvalidParameterError } from '../core/errors.js';
import type { OverflowPolicy } from './event-queue.js';

/** The real-time feed. */
export const DEFAULT_STREAM_URL = 'wss://socket.massive.com';
/** The feed delayed by 15 minutes, for plans without real-time data. */
export const DELAYED_STREAM_URL = 'wss://delayed.massive.com';

/** Options of every stream (`StocksStream(apiKey, options)` …). Times are in seconds. */
export interface StreamOptions {
  /**
   * Base URL of the feed, without the market: the stream connects to `<baseUrl>/<market>`.
   * `wss://socket.polygon.io` answers the same; `ws://127.0.0.1:8765` is `mdq serve`.
   * @default process.env.MDQ_STREAM_URL ?? 'wss://socket.massive.com' ('wss://delayed.massive.com' when `delayed`)
   */
  baseUrl?: string;
  /**
   * Connect to the delayed feed instead of the real-time one (ignored when `baseUrl` or `MDQ_STREAM_URL`
   * is set).
   * @default false
   */
  delayed?: boolean;
  /**
   * Most events buffered for the async iterator before `overflow` applies.
   * @default 10000
   */
  bufferSize?: number;
  /**
   * What happens when the iterator's consumer falls `bufferSize` events behind (see `OverflowPolicy`).
   * @default 'pause'
   */
  overflow?: OverflowPolicy;
  /**
   * Reconnections tried in a row after the connection drops (0: none). Each waits a random time up to
   * 0.5 s × 2^attempt, at most 8 s; a successful authentication resets the count.
   * @default 10
   */
  maxReconnects?: number;
  /**
   * Seconds allowed to open the connection and authenticate; exceeded counts as a drop.
   * @default 10
   */
  connectTimeout?: number;
  /**
   * Receives a line for each reconnection and each refused action. Never receives the API key.
   * @default undefined (silent)
   */
  logger?: (line: string) => void;
}

/** `StreamOptions` with defaults applied. */
export interface ResolvedStreamOptions {
  baseUrl: string;
  bufferSize: number;
  overflow: OverflowPolicy;
  maxReconnects: number;
  connectTimeout: number;
  logger: ((line: string) => void) | undefined;
}

const POLICIES: readonly OverflowPolicy[] = ['pause', 'drop-oldest', 'error'];

/**
 * Applies defaults and validates `options`.
 *
 * @throws InvalidParameterError naming the first bad option.
 */
export function resolveStreamOptions(options: StreamOptions = {}): ResolvedStreamOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidParameterError('options', options, 'expected an object of stream options');
  }
  if (options.delayed !== undefined && typeof options.delayed !== 'boolean') {
    throw new InvalidParameterError('delayed', options.delayed, 'expected true or false');
  }
  const base =
    options.baseUrl ??
    process.env.MDQ_STREAM_URL ??
    (options.delayed ? DELAYED_STREAM_URL : DEFAULT_STREAM_URL);
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new InvalidParameterError('baseUrl', base, 'expected a ws:// or wss:// URL');
  }
  if ((url.protocol !== 'ws:' && url.protocol !== 'wss:') || url.search !== '' || url.username !== '') {
    throw new InvalidParameterError(
      'baseUrl',
      base,
      'expected a ws:// or wss:// URL without query or credentials',
    );
  }
  const bufferSize = options.bufferSize ?? 10_000;
  if (!Number.isInteger(bufferSize) || bufferSize < 1) {
    throw new InvalidParameterError(
      'bufferSize',
      bufferSize,
      'expected a whole number of events, at least 1',
    );
  }
  const overflow = options.overflow ?? 'pause';
  if (!POLICIES.includes(overflow)) {
    throw new InvalidParameterError('overflow', overflow, `expected one of ${POLICIES.join(', ')}`);
  }
  const maxReconnects = options.maxReconnects ?? 10;
  if (!Number.isInteger(maxReconnects) || maxReconnects < 0) {
    throw new InvalidParameterError('maxReconnects', maxReconnects, 'expected a whole number, 0 or more');
  }
  const connectTimeout = options.connectTimeout ?? 10;
  if (typeof connectTimeout !== 'number' || !(connectTimeout > 0)) {
    throw new InvalidParameterError(
      'connectTimeout',
      connectTimeout,
      'expected a positive number of seconds',
    );
  }
  if (options.logger !== undefined && typeof options.logger !== 'function') {
    throw new InvalidParameterError('logger', typeof options.logger, 'expected a function');
  }
  return {
    baseUrl: base.replace(/\/+$/, ''),
    bufferSize,
    overflow,
    maxReconnects,
    connectTimeout,
    logger: options.logger,
  };
}
