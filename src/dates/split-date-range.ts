import { InvalidParameterError } from '../core/errors.js';
import { addDays } from './calendar.js';
import type { DateInput } from './date-input.js';
import { type RangeBound, rangeToInstants, readRangeBound } from './range-bounds.js';
import { isTimeZone, NEW_YORK, startOfDay } from './time-zone.js';

/** A half-open span of time `[startMs, endMs)` in Unix milliseconds. */
export type DateRangeChunk = readonly [startMs: number, endMs: number];

/** Options of {@link splitDateRange}. */
export interface SplitDateRangeOptions {
  /**
   * Smaller chunks, for symbols traded so heavily that a normal chunk would exceed the service's
   * 50 000-bar cap.
   * @default false
   */
  highVolatility?: boolean;
  /**
   * Newest chunk first.
   * @default true
   */
  reverse?: boolean;
  /**
   * Time zone whose midnights bound calendar days (US stock and option bars are aligned to New York days).
   * @default 'America/New_York'
   */
  timeZone?: string;
}

/** Chunk length per timespan: whole days, or a fixed length in ms for `second`. */
export type ChunkLength = { readonly days: number } | { readonly ms: number };

// Sized so that one chunk stays under the 50 000-bar cap even with extended hours. The reference client
// computes a negative length for high-volatility seconds; half an hour (at most 1 800 bars) is used here.
const CHUNK_LENGTHS: Readonly<Record<string, readonly [normal: ChunkLength, highVolatility: ChunkLength]>> = {
  second: [{ ms: 3_600_000 }, { ms: 1_800_000 }],
  minute: [{ days: 45 }, { days: 25 }],
  min: [{ days: 45 }, { days: 25 }],
  hour: [{ days: 60 }, { days: 40 }],
  day: [{ days: 3500 }, { days: 2000 }],
  week: [{ days: 3500 }, { days: 2000 }],
  month: [{ days: 3500 }, { days: 2000 }],
  quarter: [{ days: 3500 }, { days: 2000 }],
  year: [{ days: 3500 }, { days: 2000 }],
};

/** The timespans {@link splitDateRange} accepts (`min` is an alias of `minute`). */
export const CHUNKED_TIMESPANS: readonly string[] = Object.keys(CHUNK_LENGTHS);

/**
 * Splits a date range into chunks small enough for one aggregate-bars request each.
 *
 * Chunk lengths by timespan (normal / `highVolatility`): `second` 1 h / 30 min; `minute` (`min`)
 * 45 / 25 days; `hour` 60 / 40 days; `day`, `week`, `month`, `quarter`, `year` 3500 / 2000 days.
 *
 * The range runs from midnight (in `timeZone`) of `start`'s day to the next midnight after `end`'s day;
 * an exact instant (a `Date` that is not at 00:00 UTC, or a Unix ms `number`) is used as is, and an
 * exact `end` is included. Day-sized chunks of a range that starts at midnight break at midnights of
 * `timeZone`, so no day is split between two chunks across a DST change. The chunks are half-open
 * `[startMs, endMs)`, never empty, and tile the range with neither gap nor overlap; the last one is
 * cut at the range's end.
 *
 * @param timespan - one of {@link CHUNKED_TIMESPANS}; the multiplier does not change the chunk length.
 * @throws InvalidParameterError for an unknown timespan, an invalid bound or time zone, or `end` before `start`.
 * @example
 * splitDateRange('2024-01-01', '2024-03-31', 'minute', { reverse: false })
 * // [[Date.parse('2024-01-01T05:00Z'), Date.parse('2024-02-15T05:00Z')], … ] (New York midnights)
 */
export function splitDateRange(
  start: DateInput | number,
  end: DateInput | number,
  timespan: string,
  options: SplitDateRangeOptions = {},
): DateRangeChunk[] {
  const { highVolatility = false, reverse = true, timeZone = NEW_YORK } = options;
  const lengths = chunkLengthsOf(timespan);
  if (!lengths) {
    throw new InvalidParameterError('timespan', timespan, `expected one of ${CHUNKED_TIMESPANS.join(', ')}`);
  }
  if (!isTimeZone(timeZone)) {
    throw new InvalidParameterError('timeZone', timeZone, 'expected UTC or an IANA time zone name');
  }
  const chunks = splitBounds(
    readRangeBound(start, 'start'),
    readRangeBound(end, 'end'),
    highVolatility ? lengths[1] : lengths[0],
    timeZone,
    ['start', 'end'],
  );
  return reverse ? chunks.reverse() : chunks;
}

/** Splits already-read bounds, oldest chunk first; `names` label the bounds in error messages. */
export function splitBounds(
  start: RangeBound,
  end: RangeBound,
  length: ChunkLength,
  timeZone: string,
  names: readonly [string, string],
): DateRangeChunk[] {
  const [startMs, endMs] = rangeToInstants(start, end, timeZone, names);
  const chunks: DateRangeChunk[] = [];
  if ('days' in length && 'day' in start) {
    // Step by calendar days so that every boundary is a local midnight.
    for (let k = 1, lo = startMs; lo < endMs; k++) {
      const hi = Math.min(startOfDay(addDays(start.day, k * length.days), timeZone), endMs);
      chunks.push([lo, hi]);
      lo = hi;
    }
  } else {
    const step = 'ms' in length ? length.ms : length.days * 86_400_000;
    for (let lo = startMs; lo < endMs; lo += step) chunks.push([lo, Math.min(lo + step, endMs)]);
  }
  return chunks;
}

/** The chunk length `splitDateRange` uses, for callers that split bounds themselves. */
export function chunkLengthOf(timespan: string, highVolatility: boolean): ChunkLength | undefined {
  return chunkLengthsOf(timespan)?.[highVolatility ? 1 : 0];
}

function chunkLengthsOf(timespan: unknown): readonly [ChunkLength, ChunkLength] | undefined {
  return typeof timespan === 'string' && Object.hasOwn(CHUNK_LENGTHS, timespan)
    ? CHUNK_LENGTHS[timespan]
    : undefined;
}
