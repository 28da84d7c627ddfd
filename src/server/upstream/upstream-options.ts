import { DEFAULT_BASE_URL } from '../../core/client-options.js';
import { InvalidParameterError } from '../../core/errors.js';
import type { RateLimitSpec } from '../../core/rate-limit.js';

/**
 * The service a caching server (`mdq serve --upstream`) reads through: what the store cannot answer
 * completely is fetched from it, stored, and answered from the store.
 */
export interface UpstreamOptions {
  /**
   * Base URL of the service.
   * @default 'https://api.massive.com'
   */
  url?: string;
  /**
   * The key sent upstream; never the key a local client sends, never stored, logged or answered.
   * @default $MASSIVE_API_KEY, else $POLYGON_API_KEY (none for a loopback upstream)
   */
  apiKey?: string;
  /**
   * Never call upstream: a request outside what is stored gets a 404 naming what is missing.
   * @default false
   */
  offline?: boolean;
  /**
   * At most this many upstream requests in a window (`{ requests: 5, per: 60 }` or `'5/min'`); more
   * wait their turn instead of failing.
   * @default none
   */
  rate?: RateLimitSpec | string;
  /**
   * Seconds data that can still change (the current day's bars and ticks, reference records,
   * snapshots, last trades and quotes) is answered from the store before it is fetched again. Days
   * whose session had ended when they were fetched are kept for good.
   * @default 900
   */
  maxAgeSeconds?: number;
  /**
   * Retries of an upstream request on a connection error, 429 (after its `Retry-After`) or 5xx.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Seconds one upstream attempt may take from its request to the last byte of the answer, however
   * steadily the bytes arrive; past it the attempt is dropped and fails like a read timeout (retried,
   * then answered with a 504, nothing stored). Bytes that stop for 10 s fail sooner.
   * @default 60
   */
  totalTimeout?: number;
}

/** Default of `UpstreamOptions.maxAgeSeconds`. */
export const UPSTREAM_MAX_AGE_SECONDS = 900;

/** Default of `UpstreamOptions.totalTimeout`: well below the time a client waits for an answer. */
export const UPSTREAM_TOTAL_TIMEOUT = 60;

/** The service's URL, for `--upstream` given without one. */
export const DEFAULT_UPSTREAM_URL = DEFAULT_BASE_URL;

const UNITS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  second: 1,
  min: 60,
  minute: 60,
  h: 3600,
  hour: 3600,
};

/**
 * Reads a rate such as `5/min`, `100/s` or `5/60s` (requests per window).
 * @throws InvalidParameterError naming `parameter` and the value when it is not one.
 * @example parseRate('5/min') // { requests: 5, per: 60 }
 */
export function parseRate(text: string, parameter = 'upstreamRate'): RateLimitSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*([a-z]+)\s*$/i.exec(text);
  const unit = m ? UNITS[(m[3] as string).toLowerCase()] : undefined;
  const requests = m ? Number(m[1]) : 0;
  const per = unit === undefined ? 0 : Number(m?.[2] ?? 1) * unit;
  if (!(requests > 0) || !(per > 0)) {
    throw new InvalidParameterError(
      parameter,
      text,
      'expected requests per window such as 5/min, 100/s, 5/60s or 1000/hour',
    );
  }
  return { requests, per };
}
