import { NEW_YORK, zoneOffset } from '../../dates/time-zone.js';

/**
 * The time zone whose midnight starts a market's day: UTC for forex (`C:`) and crypto (`X:`), New York
 * for US stocks, options and indices (the service stamps their daily bars at midnight Eastern).
 */
export function marketTimeZone(ticker: string): string {
  return ticker.startsWith('C:') || ticker.startsWith('X:') ? 'UTC' : NEW_YORK;
}

/** From `from` (Unix ms) on, the zone is `offset` ms ahead of UTC (New York in winter: -18,000,000). */
export interface OffsetSegment {
  readonly from: number;
  readonly offset: number;
}

const HOUR = 3_600_000;
const yearCache = new Map<string, OffsetSegment[]>();

/**
 * The offset changes of `tz` within one calendar year (UTC), found by probing every month start and
 * bisecting to the hour where the offset changes. Cached: each year is computed once per zone.
 */
function yearSegments(tz: string, year: number): OffsetSegment[] {
  const key = `${tz}|${year}`;
  const cached = yearCache.get(key);
  if (cached) return cached;
  const segments: OffsetSegment[] = [];
  let prevAt = Date.UTC(year, 0, 1);
  let prevOffset = zoneOffset(prevAt, tz);
  segments.push({ from: prevAt, offset: prevOffset });
  for (let m = 1; m <= 12; m++) {
    const at = Date.UTC(year, m, 1);
    const offset = zoneOffset(at, tz);
    if (offset !== prevOffset) {
      // Transitions happen on an hour boundary (UTC) in every zone the markets use.
      let lo = prevAt;
      let hi = at;
      while (hi - lo > HOUR) {
        const mid = lo + Math.floor((hi - lo) / 2 / HOUR) * HOUR;
        if (mid === lo) break;
        if (zoneOffset(mid, tz) === prevOffset) lo = mid;
        else hi = mid;
      }
      segments.push({ from: hi, offset });
    }
    prevAt = at;
    prevOffset = offset;
  }
  yearCache.set(key, segments);
  return segments;
}

/**
 * The offsets of `tz` over `[fromMs, toMs]`: the first segment covers `fromMs`, each next one starts at
 * an offset change. UTC (and any zone without changes in the range) gives one segment.
 */
export function offsetSegments(tz: string, fromMs: number, toMs: number): OffsetSegment[] {
  if (tz === 'UTC') return [{ from: fromMs, offset: 0 }];
  const first = new Date(fromMs).getUTCFullYear();
  const last = new Date(toMs).getUTCFullYear();
  const out: OffsetSegment[] = [{ from: fromMs, offset: zoneOffset(fromMs, tz) }];
  for (let y = first; y <= last; y++) {
    for (const s of yearSegments(tz, y)) {
      const prev = out[out.length - 1] as OffsetSegment;
      if (s.from > fromMs && s.from <= toMs && s.offset !== prev.offset) out.push(s);
    }
  }
  return out;
}

/** The offset in effect at `ms` according to `segments` (which must cover it). */
export function offsetAt(segments: readonly OffsetSegment[], ms: number): number {
  let offset = (segments[0] as OffsetSegment).offset;
  for (const s of segments) {
    if (s.from <= ms) offset = s.offset;
    else break;
  }
  return offset;
}

/**
 * A SQL expression giving the offset in effect at the instant in column `column`, both in units of
 * `scale` ms (1: ms; 1,000,000: ns, so tick times need no conversion per row). Only numbers computed
 * here enter the text, never request input.
 */
export function offsetSql(segments: readonly OffsetSegment[], column: string, scale = 1): string {
  const n = (ms: number) => (BigInt(Math.floor(ms)) * BigInt(scale)).toString();
  if (segments.length === 1) return n((segments[0] as OffsetSegment).offset);
  let sql = 'CASE';
  for (let i = 1; i < segments.length; i++) {
    sql += ` WHEN ${column} < ${n((segments[i] as OffsetSegment).from)} THEN ${n((segments[i - 1] as OffsetSegment).offset)}`;
  }
  return `${sql} ELSE ${n((segments[segments.length - 1] as OffsetSegment).offset)} END`;
}
