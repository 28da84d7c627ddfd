/**
 * Key order of answers as the service writes them. Its recorded responses show two orders: most
 * snapshot objects come with their keys sorted (code-point order: `P` before `p`, `lastQuote` before
 * `lastTrade`), while other objects keep an order of their own (a minute bar's `t` and `n` after `vw`,
 * a last trade's `c, i, p, s, x, r, z, T, …`). Clients that compare answers as text, or show them as
 * they come, see the same bytes from this server as from the service.
 */

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** `value` with the keys of every object in it, at every depth, in code-point order. */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeysDeep) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeysDeep(value[k]);
  return out as T;
}

/** `obj` with the keys named in `order` first, in that order, then its other keys as they were. */
export function withKeyOrder<T extends Record<string, unknown>>(obj: T, order: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const k of order) if (Object.hasOwn(obj, k)) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!Object.hasOwn(out, k)) out[k] = obj[k];
  return out as T;
}
