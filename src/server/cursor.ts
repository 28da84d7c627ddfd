import type { Context } from 'hono';
import { type AppEnv, badRequest, originOf } from './http.js';
import type { ParsedRequest } from './validate.js';

/**
 * Paging cursors: the next page's query (the original filters plus where to resume) as a query string,
 * in unpadded base64url like the service's own cursors. Opaque to clients, URL-safe.
 */

/** Encodes the next page's query parameters into a cursor. */
export function encodeCursor(params: Readonly<Record<string, string>> | URLSearchParams): string {
  const query = params instanceof URLSearchParams ? params : new URLSearchParams(params);
  return Buffer.from(query.toString(), 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * Decodes a cursor back into query parameters.
 * @throws HttpProblem 400 when the cursor is not one this server wrote (not base64url, not text, empty).
 */
export function decodeCursor(cursor: string): URLSearchParams {
  if (cursor.length > 8192 || !BASE64URL.test(cursor)) throw malformed();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (text === '' || text.includes('\uFFFD') || !text.includes('=')) throw malformed();
  return new URLSearchParams(text);
}

const malformed = () => badRequest('The cursor is malformed; use the next_url of a previous response as is.');

/** `next_url` of a page: absolute on the request's origin, the path as given, and the cursor. */
export function nextUrl(
  origin: string,
  path: string,
  next: Readonly<Record<string, string>> | URLSearchParams,
): string {
  return `${origin}${path}?cursor=${encodeCursor(next)}`;
}

/** Query keys a cursor never carries: the key, and the cursor a request came with. */
const NOT_CARRIED = ['apiKey', 'cursor'];

/**
 * The `next_url` of the page after this one, on the server's origin and the request's path: the
 * request's effective query (its filters, never the key) with `set` applied, packed into a cursor.
 * Every listing pages through here, by offset ({@link pageOffset}) or by position (`keysetPage`).
 */
export function nextPageUrl(
  c: Context<AppEnv>,
  req: ParsedRequest,
  set: Readonly<Record<string, string>>,
): string {
  const params = new URLSearchParams();
  for (const [k, v] of req.query) if (!NOT_CARRIED.includes(k) && !Object.hasOwn(set, k)) params.append(k, v);
  for (const [k, v] of Object.entries(set)) params.set(k, v);
  return nextUrl(originOf(c), new URL(c.req.url).pathname, params);
}
