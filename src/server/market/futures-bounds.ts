import type { DecodedValue } from '../../core/wire-values.js';
import { type NsBounds, timestampBounds } from '../validate.js';
import { type FuturesWindow, futuresWindowStart, sessionBoundsMs, utcDayStart } from './futures.js';

/**
 * The ranges a futures request selects, read once for the local routes and for the caching server,
 * which fetches what they cover.
 */

/** A `window_start` value in ms: a date is UTC midnight of that day. */
function startMs(v: DecodedValue | undefined): number | undefined {
  if (v === undefined || typeof v !== 'object' || Array.isArray(v)) return undefined;
  if ('date' in v) return utcDayStart(v.date);
  if ('ns' in v) return Number(v.ns / 1_000_000n);
  return v.ms;
}

/**
 * The candle starts `[gte, lt)` (ms) an aggregates request selects; an absent side is unbounded. The
 * exact value, `gt` and `gte` snap to the candle holding them (`gte` takes in that candle, `gt` starts
 * after it); `lte` and `lt` compare candle starts.
 */
export function futuresCandleBounds(
  values: ReadonlyMap<string, DecodedValue>,
  window: FuturesWindow,
): { gte?: number; lt?: number } {
  const snap = (ms: number) => futuresWindowStart(window, ms);
  let gte: number | undefined;
  let lt: number | undefined;
  const lower = (ms: number | undefined) => {
    if (ms !== undefined && (gte === undefined || ms > gte)) gte = ms;
  };
  const upper = (ms: number | undefined) => {
    if (ms !== undefined && (lt === undefined || ms < lt)) lt = ms;
  };
  const exact = values.get('window_start');
  const exactMs = startMs(exact);
  if (exactMs !== undefined) {
    const isDate = typeof exact === 'object' && exact !== null && 'date' in exact;
    lower(snap(exactMs));
    upper(isDate ? exactMs + 86_400_000 : snap(exactMs) + 1);
  }
  const gtMs = startMs(values.get('window_start.gt'));
  if (gtMs !== undefined) lower(snap(gtMs) + 1);
  const gteMs = startMs(values.get('window_start.gte'));
  if (gteMs !== undefined) lower(snap(gteMs));
  const lteMs = startMs(values.get('window_start.lte'));
  if (lteMs !== undefined) upper(lteMs + 1);
  upper(startMs(values.get('window_start.lt')));
  return { ...(gte !== undefined && { gte }), ...(lt !== undefined && { lt }) };
}

/**
 * The tick times (ns) a trades or quotes request selects: its `timestamp` filters (a date is a UTC
 * day), within the session of its `session_end_date` when given.
 */
export function futuresTickBounds(values: ReadonlyMap<string, DecodedValue>): NsBounds {
  const bounds = timestampBounds(values, 'UTC');
  const session = values.get('session_end_date');
  if (session !== undefined) {
    const date = typeof session === 'object' && 'date' in session ? session.date : String(session);
    const { start, end } = sessionBoundsMs(date);
    const lo = BigInt(start) * 1_000_000n;
    const hi = BigInt(end) * 1_000_000n;
    if (bounds.gte === undefined || lo > bounds.gte) bounds.gte = lo;
    if (bounds.lt === undefined || hi < bounds.lt) bounds.lt = hi;
  }
  return bounds;
}
