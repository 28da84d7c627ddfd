import { InvalidParameterError } from '../core/errors.js';
import { addDays, parseDay } from './calendar.js';
import { parseRfc3339Ns } from './rfc3339.js';
import { formatFields, parseWithFormat } from './strftime.js';
import { dayOf, isTimeZone, startOfDay, wallTime, zonedToUtc } from './time-zone.js';

/** What {@link normalizeDatetime} returns: a timestamp, a date-or-timestamp, a formatted string, a calendar day or a `Date`. */
export type NormalizeOutputType = 'ts' | 'nts' | 'str' | 'date' | 'datetime';

/** Units of numeric timestamps. */
export type TimestampUnit = 's' | 'ms' | 'us' | 'ns';

/** Inputs {@link normalizeDatetime} reads. */
export type DateTimeInput = Date | string | number | bigint;

/** Options of {@link normalizeDatetime}. */
export interface NormalizeDatetimeOptions {
  /**
   * - `ts`: a Unix timestamp in `unit` (`bigint` for `ns`, else an integer `number`);
   * - `nts`: a calendar day stays a string (written with `format`), an instant becomes a `ts` timestamp;
   * - `str`: the wall time in `tz` written with `format`;
   * - `date`: the calendar day in `tz`, `YYYY-MM-DD`;
   * - `datetime`: a `Date`.
   * @default 'ts'
   */
  outputType?: NormalizeOutputType;
  /**
   * Which end of a calendar day a day input stands for: `start` is its first instant (midnight in `tz`),
   * `end` its **last** instant in `unit` (the next midnight minus one unit: 23:59:59.999 for `ms`), so
   * that an inclusive bound such as the service's `to` or `timestamp.lte` covers the whole day. For an
   * exclusive bound, ask for the `start` of the next day. Ignored for instants.
   * @default 'start'
   */
  dir?: 'start' | 'end';
  /**
   * `strftime` format for `str` and `nts` output and for reading strings that are neither `YYYY-MM-DD`
   * nor RFC 3339. Directives: `%Y %m %d %H %M %S %%`.
   * @default '%Y-%m-%d'
   */
  format?: string;
  /**
   * Unit of numeric input and of `ts` output.
   * @default 'ms'
   */
  unit?: TimestampUnit;
  /**
   * Time zone of calendar days and wall times: a day starts at midnight in `tz`, a string read with a
   * `format` that has a time is a wall time in `tz`, and `str`/`date` output is written in `tz`. Instants
   * (a `Date`, a number, RFC 3339 text) are converted to `tz`, never relabelled.
   * @default 'UTC'
   */
  tz?: string;
}

const UNIT_NS: Readonly<Record<TimestampUnit, bigint>> = {
  s: 1_000_000_000n,
  ms: 1_000_000n,
  us: 1_000n,
  ns: 1n,
};
const OUTPUT_TYPES: readonly NormalizeOutputType[] = ['ts', 'nts', 'str', 'date', 'datetime'];
const DEFAULT_FORMAT = '%Y-%m-%d';

/** A calendar day, or an instant in exact nanoseconds. */
type Moment = { day: string } | { ns: bigint };

/**
 * Converts a date or time into a timestamp, a formatted string, a calendar day or a `Date`.
 *
 * Input: a `YYYY-MM-DD` string is a calendar day; an RFC 3339 string with an offset
 * (`2024-01-02T14:30:00.123456789-05:00`) is an exact instant; any other string is read with `format`
 * (a wall time in `tz` when the format has a time, else a calendar day); a `Date` is an instant (pass a
 * `YYYY-MM-DD` string for a calendar day); a `number` or `bigint` is a Unix timestamp in `unit`.
 * Nanoseconds are computed with integer arithmetic, never rounded through floating point.
 *
 * @throws InvalidParameterError for an unknown `unit`, `outputType`, `dir` or `tz`, an unreadable string,
 * an invalid `Date`, or a non-integer number.
 * @example
 * normalizeDatetime('2021-06-28') // 1624838400000
 * normalizeDatetime('2021-06-28', { dir: 'end' }) // 1624924799999
 * normalizeDatetime('2022-06-28T01:02:03.456789Z', { unit: 'ns' }) // 1656378123456789000n
 * normalizeDatetime(1624886854000, { outputType: 'str', format: '%Y-%m-%d %H:%M', tz: 'Asia/Kolkata' }) // '2021-06-28 18:57'
 */
export function normalizeDatetime(
  dt: DateTimeInput,
  options: NormalizeDatetimeOptions & { outputType: 'str' | 'date' },
): string;
export function normalizeDatetime(
  dt: DateTimeInput,
  options: NormalizeDatetimeOptions & { outputType: 'datetime' },
): Date;
export function normalizeDatetime(
  dt: DateTimeInput,
  options: NormalizeDatetimeOptions & { outputType?: 'ts'; unit: 'ns' },
): bigint;
export function normalizeDatetime(
  dt: DateTimeInput,
  options?: NormalizeDatetimeOptions & { outputType?: 'ts'; unit?: 's' | 'ms' | 'us' },
): number;
export function normalizeDatetime(
  dt: DateTimeInput,
  options?: NormalizeDatetimeOptions,
): number | bigint | string | Date;
export function normalizeDatetime(
  dt: DateTimeInput,
  options: NormalizeDatetimeOptions = {},
): number | bigint | string | Date {
  const { outputType = 'ts', dir = 'start', format = DEFAULT_FORMAT, unit = 'ms', tz = 'UTC' } = options;
  if (!Object.hasOwn(UNIT_NS, unit)) {
    throw new InvalidParameterError('unit', unit, 'expected one of s, ms, us, ns');
  }
  if (!OUTPUT_TYPES.includes(outputType)) {
    throw new InvalidParameterError('outputType', outputType, `expected one of ${OUTPUT_TYPES.join(', ')}`);
  }
  if (dir !== 'start' && dir !== 'end')
    throw new InvalidParameterError('dir', dir, "expected 'start' or 'end'");
  if (!isTimeZone(tz)) throw new InvalidParameterError('tz', tz, 'expected UTC or an IANA time zone name');
  const factor = UNIT_NS[unit];
  const moment = readMoment(dt, format, factor, tz);

  if ('day' in moment) {
    const { day } = moment;
    switch (outputType) {
      case 'date':
        return day;
      case 'str':
      case 'nts':
        return formatDayEdge(day, dir, format);
      case 'datetime':
        return new Date(dir === 'start' ? startOfDay(day, tz) : startOfDay(addDays(day, 1), tz) - 1);
      case 'ts': {
        const edge = dir === 'start' ? startOfDay(day, tz) : startOfDay(addDays(day, 1), tz);
        const units = floorDiv(BigInt(edge) * 1_000_000n, factor) - (dir === 'end' ? 1n : 0n);
        return unit === 'ns' ? units : Number(units);
      }
    }
  }
  const { ns } = moment;
  const ms = Number(floorDiv(ns, 1_000_000n));
  switch (outputType) {
    case 'date':
      return dayOf(ms, tz);
    case 'str':
      return formatFields(wallTime(ms, tz), format);
    case 'datetime':
      return new Date(ms);
    default: {
      const units = floorDiv(ns, factor);
      return unit === 'ns' ? units : Number(units);
    }
  }
}

function readMoment(dt: unknown, format: string, factor: bigint, tz: string): Moment {
  if (typeof dt === 'string') {
    if (parseDay(dt)) return { day: dt };
    const ns = parseRfc3339Ns(dt);
    if (ns !== undefined) return { ns };
    if (format !== DEFAULT_FORMAT) {
      const f = parseWithFormat(dt, format);
      if (f && !f.hasTime) return { day: formatFields(f, DEFAULT_FORMAT) };
      if (f)
        return {
          ns: BigInt(zonedToUtc(tz, f.year, f.month, f.day, f.hour, f.minute, f.second)) * 1_000_000n,
        };
    }
  } else if (dt instanceof Date) {
    const ms = dt.getTime();
    if (!Number.isNaN(ms)) return { ns: BigInt(ms) * 1_000_000n };
  } else if (typeof dt === 'bigint') {
    return { ns: dt * factor };
  } else if (typeof dt === 'number' && Number.isInteger(dt)) {
    return { ns: BigInt(dt) * factor };
  }
  throw new InvalidParameterError(
    'dt',
    dt,
    `expected a YYYY-MM-DD string, an RFC 3339 string with an offset, a string in the format ${JSON.stringify(format)}, a valid Date, or an integer timestamp`,
  );
}

function formatDayEdge(day: string, dir: 'start' | 'end', format: string): string {
  const p = parseDay(day) as { year: number; month: number; day: number };
  const clock = dir === 'start' ? { hour: 0, minute: 0, second: 0 } : { hour: 23, minute: 59, second: 59 };
  return formatFields({ ...p, ...clock }, format);
}

/** Division rounding toward negative infinity (bigint `/` truncates toward zero). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
