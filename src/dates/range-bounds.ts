import { InvalidParameterError } from '../core/errors.js';
import { addDays, isDayString, utcDayOf } from './calendar.js';
import { startOfDay } from './time-zone.js';

/** One end of a range: a whole calendar day, or an exact instant (Unix ms). */
export type RangeBound = { readonly day: string } | { readonly ms: number };

const DAY_MS = 86_400_000;

/**
 * Reads one end of a date range. A `YYYY-MM-DD` string, or a `Date` at exactly 00:00:00.000 UTC (how a
 * `DateInput` names a day), is a calendar day; any other `Date`, and every integer `number` (Unix ms), is
 * an exact instant.
 *
 * @throws InvalidParameterError naming `paramName` for anything else.
 */
export function readRangeBound(value: unknown, paramName: string): RangeBound {
  if (typeof value === 'string') {
    if (isDayString(value)) return { day: value };
  } else if (value instanceof Date) {
    const ms = value.getTime();
    if (!Number.isNaN(ms)) return ms % DAY_MS === 0 ? { day: utcDayOf(ms) } : { ms };
  } else if (typeof value === 'number' && Number.isSafeInteger(value)) {
    return { ms: value };
  }
  throw new InvalidParameterError(
    paramName,
    value,
    'expected a YYYY-MM-DD string naming a real day, a Date, or an integer Unix millisecond timestamp',
  );
}

/**
 * The half-open instant range `[startMs, endMs)` that a pair of bounds covers in `timeZone`: from
 * midnight of the start day (or the start instant) to the **next** midnight after the end day, or to one
 * millisecond past an end instant (the end instant is included, as the service's `to` is).
 *
 * @throws InvalidParameterError when the range is empty (end before start).
 */
export function rangeToInstants(
  start: RangeBound,
  end: RangeBound,
  timeZone: string,
  names: readonly [string, string] = ['start', 'end'],
): [startMs: number, endMs: number] {
  const startMs = 'day' in start ? startOfDay(start.day, timeZone) : start.ms;
  const endMs = 'day' in end ? startOfDay(addDays(end.day, 1), timeZone) : end.ms + 1;
  if (endMs <= startMs) {
    throw new InvalidParameterError(
      names[1],
      'day' in end ? end.day : new Date(end.ms),
      `must not be before ${names[0]} (${'day' in start ? start.day : new Date(start.ms).toISOString()})`,
    );
  }
  return [startMs, endMs];
}
