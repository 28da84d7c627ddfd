import type { Context } from 'hono';
import { nextPageUrl } from '../cursor.js';
import { type AppEnv, badRequest } from '../http.js';
import type { ParsedRequest } from '../validate.js';

/** The cursor key holding the sort key of the last row sent, as a JSON array (integers as text). */
const POSITION_KEY = 'pos';

/** The type of one part of a sort key. */
export type KeyPart = 'int' | 'text';
type PartValue<K extends KeyPart> = K extends 'int' ? bigint : string;

/**
 * Where this page resumes: the sort key (one value per part of `parts`) of the last row the previous
 * page sent, or undefined on a first page.
 * @throws HttpProblem 400 for a position this server did not write.
 */
export function keysetPosition<const P extends readonly KeyPart[]>(
  req: ParsedRequest,
  parts: P,
): { -readonly [I in keyof P]: PartValue<P[I]> } | undefined {
  const pos = req.fromCursor ? req.query.get(POSITION_KEY) : null;
  if (pos === null) return undefined;
  const malformed = () =>
    badRequest('The cursor is malformed; use the next_url of a previous response as is.');
  let values: unknown;
  try {
    values = JSON.parse(pos);
  } catch {
    throw malformed();
  }
  if (!Array.isArray(values) || values.length !== parts.length) throw malformed();
  return values.map((v, i) => {
    if (typeof v !== 'string') throw malformed();
    if (parts[i] === 'text') return v;
    if (!/^-?\d{1,20}$/.test(v)) throw malformed();
    return BigInt(v);
  }) as { -readonly [I in keyof P]: PartValue<P[I]> };
}

/** A page of a keyset listing: the rows to send, and the next page's link when there is one. */
export interface KeysetPage<R> {
  readonly rows: readonly R[];
  readonly nextUrl?: string;
}

/**
 * Cuts `fetched` (up to `limit + 1` rows, in sort order) to a page: with a row beyond `limit`, the
 * `next_url` resumes after the last row sent, at `positionOf(last)`; `fixed` pins query values the
 * next pages must keep (the effective order, limit and sort when they were defaults).
 */
export function keysetPage<R>(
  c: Context<AppEnv>,
  req: ParsedRequest,
  fetched: readonly R[],
  limit: number,
  positionOf: (row: R) => readonly (bigint | number | string)[],
  fixed: Readonly<Record<string, string>> = {},
): KeysetPage<R> {
  // The store may share result arrays between requests (its cache): never trimmed in place.
  const rows = fetched.length > limit ? fetched.slice(0, limit) : fetched;
  const last = rows[rows.length - 1];
  if (fetched.length <= limit || last === undefined) return { rows };
  const pos = JSON.stringify(positionOf(last).map(String));
  return { rows, nextUrl: nextPageUrl(c, req, { ...fixed, [POSITION_KEY]: pos }) };
}
