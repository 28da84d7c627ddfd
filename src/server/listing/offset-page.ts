import type { Context } from 'hono';
import { nextPageUrl } from '../cursor.js';
import type { AppEnv } from '../http.js';
import type { ParsedRequest } from '../validate.js';

/** The cursor key holding how many results earlier pages returned. */
const OFFSET_KEY = 'page_offset';

/**
 * How many results the pages before this one returned: 0 unless the query came from a cursor. For
 * small tables whose order has no unique key to resume after (sorting by any column, nulls last);
 * listings with one page by position (`keysetPage`).
 */
export function pageOffset(req: ParsedRequest): number {
  if (!req.fromCursor) return 0;
  const n = Number(req.query.get(OFFSET_KEY));
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** Adds `next_url` to `body` when `fetched` (one more than `limit` was asked for) shows another page. */
export function withNextUrl<T extends Record<string, unknown>>(
  c: Context<AppEnv>,
  req: ParsedRequest,
  body: T,
  fetched: number,
  limit: number,
): T {
  if (fetched > limit)
    return { ...body, next_url: nextPageUrl(c, req, { [OFFSET_KEY]: String(pageOffset(req) + limit) }) };
  return body;
}
