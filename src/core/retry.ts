import { APIConnectionError, PoolTimeout } from './errors.js';

/** First backoff step, in milliseconds. */
export const RETRY_BASE_MS = 500;
/** Largest backoff step, in milliseconds. */
export const RETRY_CAP_MS = 8_000;

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** True for the statuses a GET is retried on: 408, 429, 500, 502, 503, 504. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * True for the transport failures a GET is retried on: every connection error (refused, reset, dropped
 * mid-body) and the connect, read and write timeouts. A `PoolTimeout` is not retried: the pool is saturated
 * by this client's own requests, and queueing again would only double the caller's wait.
 */
export function isRetryableError(error: unknown): boolean {
  return error instanceof APIConnectionError && !(error instanceof PoolTimeout);
}

/**
 * Backoff before retry number `retry` (0 for the first retry): exponential with full jitter, i.e. a uniform
 * random wait in `[0, min(cap, base * 2^retry))`. A server-sent `Retry-After` wins when present.
 *
 * @param retry - 0-based index of the retry about to happen.
 * @param retryAfterMs - Parsed `Retry-After`, already bounded (see `parseRetryAfter`).
 * @param random - Source of randomness in `[0, 1)`.
 * @returns The wait in milliseconds.
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** retry);
  return Math.floor(random() * ceiling);
}
