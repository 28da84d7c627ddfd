/**
 * The page's requests to its own server: paths built from the library's operation declarations, the
 * key, exact nanosecond integers, the API's error text.
 */
import type { OperationSpec } from '../core/operation.js';
import { buildRequest } from '../core/request.js';

/** The key the page was opened with (`/?apiKey=…`), sent with every request; none on loopback. */
export const apiKey = new URLSearchParams(location.search).get('apiKey') ?? undefined;

/** An answer that is not 2xx, with the API's own error message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Reviver = (key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * Integers beyond 2^53 (nanosecond timestamps) become exact bigints: the reviver sees each number's
 * source text where the browser offers it (Chromium does), else the rounded number is kept.
 */
const exact: Reviver = (_key, value, context) =>
  typeof value === 'number' &&
  !Number.isSafeInteger(value) &&
  context?.source &&
  /^-?\d+$/.test(context.source)
    ? BigInt(context.source)
    : value;

/** GETs a path (or a `next_url`) of this server and returns the parsed body; throws ApiError otherwise. */
export async function getJson<T = any>(pathOrUrl: string, signal?: AbortSignal): Promise<T> {
  const url = new URL(pathOrUrl, location.origin);
  if (url.origin !== location.origin) throw new ApiError(0, `refusing to follow a link to ${url.origin}`);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  const res = await fetch(url, { headers, ...(signal && { signal }) });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text, exact as (key: string, value: unknown) => unknown);
  } catch {
    throw new ApiError(res.status, `${res.status} ${res.statusText}: not JSON`);
  }
  if (!res.ok)
    throw new ApiError(res.status, `${res.status}: ${body?.error ?? body?.message ?? res.statusText}`);
  return body as T;
}

const NO_CALL_OPTIONS: ReadonlySet<string> = new Set();

/**
 * The path and query of an operation, checked and encoded as the library's clients do: `required` are
 * its required parameters in order, `options` its optional ones by name (undefined or empty: as if not
 * given, so the declared default applies). A bad value throws `InvalidParameterError` naming it and what
 * is allowed, before any request.
 */
export function pathOf(
  op: OperationSpec,
  required: readonly unknown[],
  options: Record<string, unknown> = {},
): string {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined && v !== ''));
  return buildRequest(op, required, given, NO_CALL_OPTIONS).target;
}
