import type { Context } from 'hono';
import { encodeCursor } from '../cursor.js';
import { type AppEnv, originOf } from '../http.js';
import type { ParsedRequest } from '../validate.js';

/** The cursor key holding how many results earlier pages returned. */
const OFFSET_KEY = 'page_offset';

/** How many results the pages before this one returned: 0 unless the query came from a cursor. */
export function pageOffset(req: ParsedRequest): number {
  if (!req.fromCursor) return 0;
  const n = Number(req.query.get(OFFSET_KEY));
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/**
 * The absolute `next_url` of the page after this one, on the request's own origin and path: the
 * effective query (filters included) with the new offset, packed into an opaque cursor.
 */
export function nextPageUrl(c: Context<AppEnv>, req: ParsedRequest, nextOffset: number): string {
  const params = new URLSearchParams(req.query);
  params.delete('apiKey');
  params.delete('cursor');
  params.set(OFFSET_KEY, String(nextOffset));
  const url = new URL(c.req.url);
  return `${originOf(c)}${url.pathname}?cursor=${encodeCursor(params)}`;
}

/** Adds `next_url` to `body` when `fetched` (one more than `limit` was asked for) shows another page. */
export function withNextUrl<T extends Record<string, unknown>>(
  c: Context<AppEnv>,
  req: ParsedRequest,
  body: T,
  fetched: number,
  limit: number,
): T {
  if (fetched > limit) return { ...body, next_url: nextPageUrl(c, req, pageOffset(req) + limit) };
  return body;
}
