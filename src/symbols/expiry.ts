/**
 * Expiry dates of option symbols. A symbol carries a two-digit year, which is always read as 20YY
 * (2000–2099), never guessed from today's date, so a symbol means the same day whenever it is parsed.
 */

import { InvalidParameterError } from '../core/errors.js';

/** A calendar day, without time or time zone. */
export interface CalendarDay {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/**
 * An expiry as callers give it: a `Date` (its UTC calendar day, so `new Date('2022-01-21')` is the
 * 21st), a `YYMMDD` string (`'220121'`) or a `YYYY-MM-DD` string (`'2022-01-21'`).
 */
export type ExpiryInput = Date | string;

/** The day, or undefined when the fields are not a calendar day of 2000–2099. */
function calendarDay(year: number, month: number, day: number): CalendarDay | undefined {
  if (year < 2000 || year > 2099 || month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth ? { year, month, day } : undefined;
}

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * Reads a six-digit date segment in the given order; returns the day, or why it is not one.
 *
 * @param order - `YYMMDD` (most layouts) or `MMDDYY` (tda).
 */
export function readSixDigitDate(segment: string, order: 'YYMMDD' | 'MMDDYY'): CalendarDay | string {
  const m = /^(\d\d)(\d\d)(\d\d)$/.exec(segment);
  const reason = `expiry ${JSON.stringify(segment)} is not a calendar date in ${order} form`;
  if (!m) return reason;
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = order === 'YYMMDD' ? calendarDay(2000 + a, b, c) : calendarDay(2000 + c, a, b);
  return day ?? reason;
}

/**
 * The calendar day of an expiry given by a caller.
 *
 * @param expiry - a `Date` (its UTC day), a six-digit string in `sixDigitOrder`, or a `YYYY-MM-DD` string.
 * @param parameter - the caller's name of the argument, used in the error message.
 * @param sixDigitOrder - how a six-digit string is read.
 * @throws {@link InvalidParameterError} when it is not a date of 2000–2099 (two-digit years cannot
 *   carry any other century).
 */
export function toCalendarDay(
  expiry: unknown,
  parameter = 'expiry',
  sixDigitOrder: 'YYMMDD' | 'MMDDYY' = 'YYMMDD',
): CalendarDay {
  const allowed = `an expiry is a Date, a ${sixDigitOrder} string or a YYYY-MM-DD string, of a day in 2000–2099`;
  let day: CalendarDay | undefined;
  if (expiry instanceof Date) {
    if (!Number.isNaN(expiry.getTime())) {
      day = calendarDay(expiry.getUTCFullYear(), expiry.getUTCMonth() + 1, expiry.getUTCDate());
    }
  } else if (typeof expiry === 'string') {
    const iso = /^(\d{4})-(\d\d)-(\d\d)$/.exec(expiry);
    if (iso) day = calendarDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    else if (/^\d{6}$/.test(expiry)) {
      const read = readSixDigitDate(expiry, sixDigitOrder);
      if (typeof read !== 'string') day = read;
    }
  }
  if (day) return day;
  const hint = typeof expiry === 'number' ? `; write a six-digit expiry as a string, e.g. '220121'` : '';
  throw new InvalidParameterError(parameter, expiry, allowed + hint);
}

/** `YYMMDD`: 2022-01-21 → `220121`. */
export function formatYymmdd(day: CalendarDay): string {
  return `${two(day.year % 100)}${two(day.month)}${two(day.day)}`;
}

/** `MMDDYY`: 2022-01-21 → `012122`. */
export function formatMmddyy(day: CalendarDay): string {
  return `${two(day.month)}${two(day.day)}${two(day.year % 100)}`;
}

/** `YYYY-MM-DD`: 2022-01-21 → `2022-01-21`. */
export function formatIsoDay(day: CalendarDay): string {
  return `${day.year}-${two(day.month)}-${two(day.day)}`;
}

/** The day as a `Date` at 00:00 UTC. */
export function calendarDayToDate(day: CalendarDay): Date {
  return new Date(Date.UTC(day.year, day.month - 1, day.day));
}
