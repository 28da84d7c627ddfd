/** The longest wait a `Retry-After` header may impose, in milliseconds; longer values are clamped. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Reads a `Retry-After` header: delay-seconds (`"2"`, `"0.5"`) or an HTTP date.
 *
 * @param value - The header value, if any.
 * @param now - Current time in epoch milliseconds (for HTTP dates).
 * @returns The wait in milliseconds, clamped to `[0, MAX_RETRY_AFTER_MS]`, or `undefined` when the header is
 *   absent or unreadable (the caller then falls back to its own backoff).
 * @example parseRetryAfter('3') // 3000
 */
export function parseRetryAfter(
  value: string | undefined | null,
  now: number = Date.now(),
): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) {
    ms = Number(text) * 1000;
  } else {
    // HTTP dates always name a month; this keeps Date.parse from reading numbers like "-1" as years.
    if (!/[a-z]{3}/i.test(text)) return undefined;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
