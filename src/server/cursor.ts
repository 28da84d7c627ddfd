import { badRequest } from './http.js';

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
