/**
 * NYSE trading days, enough to date a split: a factor file's split row is stamped with the last day
 * of the old share count, and the split takes effect on the next trading day.
 */

/** Full-day closures outside the regular holiday rules. */
const SPECIAL_CLOSURES = new Set([
  '2001-09-11',
  '2001-09-12',
  '2001-09-13',
  '2001-09-14',
  '2004-06-11',
  '2007-01-02',
  '2012-10-29',
  '2012-10-30',
  '2018-12-05',
  '2025-01-09',
]);

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  const first = Date.UTC(year, month - 1, 1);
  const shift = (weekday - new Date(first).getUTCDay() + 7) % 7;
  return first + (shift + (n - 1) * 7) * 86_400_000;
}

function lastWeekday(year: number, month: number, weekday: number): number {
  const last = Date.UTC(year, month, 0);
  const shift = (new Date(last).getUTCDay() - weekday + 7) % 7;
  return last - shift * 86_400_000;
}

function easter(year: number): number {
  // Anonymous Gregorian algorithm (Meeus/Jones/Butcher).
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

/** A fixed-date holiday moved off the weekend (Saturday → Friday, Sunday → Monday). */
function observed(year: number, month: number, day: number): number {
  const t = Date.UTC(year, month - 1, day);
  const wd = new Date(t).getUTCDay();
  return wd === 6 ? t - 86_400_000 : wd === 0 ? t + 86_400_000 : t;
}

const holidayCache = new Map<number, Set<string>>();

function holidays(year: number): Set<string> {
  let set = holidayCache.get(year);
  if (set) return set;
  const days = [
    nthWeekday(year, 1, 1, 3), // Martin Luther King Jr. Day
    nthWeekday(year, 2, 1, 3), // Washington's Birthday
    easter(year) - 2 * 86_400_000, // Good Friday
    lastWeekday(year, 5, 1), // Memorial Day
    observed(year, 7, 4),
    nthWeekday(year, 9, 1, 1), // Labor Day
    nthWeekday(year, 11, 4, 4), // Thanksgiving
    observed(year, 12, 25),
  ];
  // New Year's Day on a Saturday is not moved back into the old year.
  const newYear = Date.UTC(year, 0, 1);
  if (new Date(newYear).getUTCDay() !== 6) days.push(observed(year, 1, 1));
  if (year >= 2022) days.push(observed(year, 6, 19));
  set = new Set(days.map(iso));
  holidayCache.set(year, set);
  return set;
}

/** True when NYSE traded on `YYYY-MM-DD`. */
export function isUsTradingDay(date: string): boolean {
  const t = Date.parse(`${date}T00:00:00Z`);
  const wd = new Date(t).getUTCDay();
  if (wd === 0 || wd === 6) return false;
  return !holidays(Number(date.slice(0, 4))).has(date) && !SPECIAL_CLOSURES.has(date);
}

/** The first NYSE trading day after `YYYY-MM-DD`. */
export function nextUsTradingDay(date: string): string {
  let t = Date.parse(`${date}T00:00:00Z`);
  for (;;) {
    t += 86_400_000;
    const d = iso(t);
    if (isUsTradingDay(d)) return d;
  }
}
