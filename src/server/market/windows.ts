import { zonedToUtc } from '../../dates/time-zone.js';
import { type OffsetSegment, offsetAt } from './time-zone.js';

/** The bar timespans. */
export type BarTimespan = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

/** One day in milliseconds (the length of a day on the wall clock; DST days differ in real time). */
export const DAY_MS = 86_400_000;

/** Length in ms of the intraday timespans. */
export const INTRADAY_MS: Readonly<Record<string, number>> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
};

/** True for timespans shorter than a day (bucketed on the clock, base aggregate second or minute). */
export const isIntraday = (timespan: BarTimespan): boolean => timespan in INTRADAY_MS;

/**
 * Index of the calendar period (of length one timespan) holding the local day `day` (days since
 * 1970-01-01 on the market's calendar). Weeks start on Sunday: 1970-01-01 was a Thursday.
 */
export function periodIndex(timespan: BarTimespan, day: number): number {
  if (timespan === 'day') return day;
  if (timespan === 'week') return Math.floor((day + 4) / 7);
  const d = new Date(day * DAY_MS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (timespan === 'month') return y * 12 + m;
  if (timespan === 'quarter') return y * 4 + Math.floor(m / 3);
  return y;
}

/** The first local day of period `index`. */
export function periodStartDay(timespan: BarTimespan, index: number): number {
  if (timespan === 'day') return index;
  if (timespan === 'week') return index * 7 - 4;
  if (timespan === 'month') return Date.UTC(Math.floor(index / 12), index % 12, 1) / DAY_MS;
  if (timespan === 'quarter') return Date.UTC(Math.floor(index / 4), (index % 4) * 3, 1) / DAY_MS;
  return Date.UTC(index, 0, 1) / DAY_MS;
}

const midnights = new Map<string, number>();

/** Midnight in `tz` of the local day `day`, as Unix ms (memoised: each costs several `Intl` calls). */
export function localMidnight(tz: string, day: number): number {
  if (tz === 'UTC') return day * DAY_MS;
  const key = `${tz}|${day}`;
  const known = midnights.get(key);
  if (known !== undefined) return known;
  const d = new Date(day * DAY_MS);
  const ms = zonedToUtc(tz, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  if (midnights.size >= 100_000) midnights.clear();
  midnights.set(key, ms);
  return ms;
}

/** The local day (days since 1970-01-01 on the wall calendar) of the instant `ms`. */
export function localDay(segments: readonly OffsetSegment[], ms: number): number {
  return Math.floor((ms + offsetAt(segments, ms)) / DAY_MS);
}

/** The instant at which the wall clock shows `localMs` (wall-clock ms since 1970-01-01). */
export function localToUtc(segments: readonly OffsetSegment[], localMs: number): number {
  const first = (segments[0] as OffsetSegment).offset;
  const guess = localMs - offsetAt(segments, localMs - first);
  return localMs - offsetAt(segments, guess);
}

/**
 * The first instant at which the wall clock shows `localMs` or later: where it shows `localMs`, the
 * first of the two such instants in the hour repeated when clocks go back, and the end of the gap when
 * clocks go forward over `localMs`. `segments` must cover it.
 */
export function firstInstantFrom(segments: readonly OffsetSegment[], localMs: number): number {
  let first = Number.POSITIVE_INFINITY;
  // The wall clock runs with the instant inside each segment and jumps at each segment's start.
  const candidates = [...segments.map((s) => localMs - s.offset), ...segments.map((s) => s.from)];
  for (const c of candidates) if (c < first && c + offsetAt(segments, c) >= localMs) first = c;
  return first;
}
