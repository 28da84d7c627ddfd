/**
 * Calendar days as `YYYY-MM-DD` strings: validation and day arithmetic without any time zone.
 * A calendar day is a label, not an instant; it becomes an instant only with a time zone
 * (`startOfDay` in `time-zone.ts`).
 */

/** A calendar day split into numbers. */
export interface CalendarDay {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
}

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when the year, month and day name a day that exists (rejects `2024-02-30`, month 13). */
export function isRealDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

/** Days in `month` (1..12) of `year`, Gregorian. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Parses `YYYY-MM-DD`; `undefined` when the text has another shape or names a day that does not exist. */
export function parseDay(text: string): CalendarDay | undefined {
  const m = DAY_PATTERN.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return isRealDay(year, month, day) ? { year, month, day } : undefined;
}

/** True for a `YYYY-MM-DD` string naming a real day. */
export function isDayString(text: string): boolean {
  return parseDay(text) !== undefined;
}

/** Writes a calendar day as `YYYY-MM-DD` (years are zero-padded to four digits). */
export function formatDay(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The UTC calendar day of an instant (Unix ms), as `YYYY-MM-DD`. */
export function utcDayOf(ms: number): string {
  const d = new Date(ms);
  return formatDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/** `day` (`YYYY-MM-DD`, assumed valid) moved by `n` calendar days. */
export function addDays(day: string, n: number): string {
  return utcDayOf(dayNumber(day) * DAY_MS + n * DAY_MS);
}

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`; differences give day counts. */
export function dayNumber(day: string): number {
  const p = parseDay(day);
  if (!p) throw new RangeError(`not a calendar day: ${day}`);
  return utcMidnight(p.year, p.month, p.day) / DAY_MS;
}

/** Unix ms of 00:00 UTC of a day; unlike `Date.UTC`, years 0..99 are not read as 1900..1999. */
export function utcMidnight(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}
