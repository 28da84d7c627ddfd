import { addDays, formatDay, utcMidnight } from '../../dates/calendar.js';
import { easterSunday } from './easter.js';

/** A day on which the US stock exchanges close all day or early. */
export interface MarketHoliday {
  /** `YYYY-MM-DD` (America/New_York). */
  readonly date: string;
  /** The service's name of the holiday ("Thanksgiving" also names the early close the day after). */
  readonly name: string;
  readonly status: 'closed' | 'early-close';
}

/** Day of the week of a `YYYY-MM-DD`: 0 Sunday … 6 Saturday. */
export function weekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(utcMidnight(y, m, d)).getUTCDay();
}

/** The `n`-th (1-based; -1 = last) given weekday of a month. */
function nthWeekday(year: number, month: number, dow: number, n: number): string {
  if (n > 0) {
    const first = formatDay(year, month, 1);
    const offset = (dow - weekday(first) + 7) % 7;
    return addDays(first, offset + (n - 1) * 7);
  }
  const last = addDays(formatDay(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1), -1);
  return addDays(last, -((weekday(last) - dow + 7) % 7));
}

/**
 * NYSE weekend rule for fixed-date holidays: Sunday moves to Monday, Saturday to the Friday before.
 * New Year's Day is the exception (`saturdayToFriday` false): when it falls on a Saturday the exchange
 * stays open on December 31, the end of an accounting year.
 */
function observed(date: string, saturdayToFriday = true): string | undefined {
  const dow = weekday(date);
  if (dow === 0) return addDays(date, 1);
  if (dow === 6) return saturdayToFriday ? addDays(date, -1) : undefined;
  return date;
}

/**
 * Unscheduled full-day closures of the years the data covers (1998 onward): the September 11
 * attacks, national days of mourning for former presidents, Hurricane Sandy.
 */
const SPECIAL_CLOSURES: readonly MarketHoliday[] = [
  ...['2001-09-11', '2001-09-12', '2001-09-13', '2001-09-14'].map((date) => ({
    date,
    name: 'September 11 Attacks',
    status: 'closed' as const,
  })),
  { date: '2004-06-11', name: 'National Day of Mourning (Ronald Reagan)', status: 'closed' },
  { date: '2007-01-02', name: 'National Day of Mourning (Gerald Ford)', status: 'closed' },
  { date: '2012-10-29', name: 'Hurricane Sandy', status: 'closed' },
  { date: '2012-10-30', name: 'Hurricane Sandy', status: 'closed' },
  { date: '2018-12-05', name: 'National Day of Mourning (George H. W. Bush)', status: 'closed' },
  { date: '2025-01-09', name: 'National Day of Mourning (Jimmy Carter)', status: 'closed' },
];

/**
 * Early closes that the rules below do not produce: in 2002 the exchange closed early on Friday
 * July 5 rather than on Wednesday July 3.
 */
const SPECIAL_EARLY_CLOSES: readonly MarketHoliday[] = [
  { date: '2002-07-05', name: 'Independence Day', status: 'early-close' },
];
const EARLY_CLOSE_EXCEPTIONS = new Set(['2002-07-03']);

const cache = new Map<number, readonly MarketHoliday[]>();

/**
 * The NYSE (and NASDAQ, OTC) full closures and 13:00 early closes of a year, sorted by date.
 *
 * Rules: New Year's Day (Sunday → Monday; Saturday → not observed), Martin Luther King Jr. Day (third
 * Monday of January, since 1998), Washington's Birthday (third Monday of February), Good Friday,
 * Memorial Day (last Monday of May), Juneteenth (June 19, since 2022), Independence Day, Labor Day
 * (first Monday of September), Thanksgiving (fourth Thursday of November), Christmas; fixed dates move
 * off weekends (Saturday → Friday, Sunday → Monday). Early closes at 13:00: July 3 when Independence
 * Day falls Tuesday–Friday, the day after Thanksgiving, and December 24 when Christmas falls
 * Tuesday–Friday. Plus the unscheduled closures listed in `SPECIAL_CLOSURES`.
 */
export function nyseHolidays(year: number): readonly MarketHoliday[] {
  const hit = cache.get(year);
  if (hit) return hit;
  const out: MarketHoliday[] = [];
  const closed = (date: string | undefined, name: string) => {
    if (date?.startsWith(String(year))) out.push({ date, name, status: 'closed' });
  };
  const early = (date: string, name: string) => {
    if (!EARLY_CLOSE_EXCEPTIONS.has(date)) out.push({ date, name, status: 'early-close' });
  };

  closed(observed(formatDay(year, 1, 1), false), 'New Years Day');
  if (year >= 1998) closed(nthWeekday(year, 1, 1, 3), 'Martin Luther King, Jr. Day');
  closed(nthWeekday(year, 2, 1, 3), "Washington's Birthday");
  closed(addDays(easterSunday(year), -2), 'Good Friday');
  closed(nthWeekday(year, 5, 1, -1), 'Memorial Day');
  if (year >= 2022) closed(observed(formatDay(year, 6, 19)), 'Juneteenth');
  const july4 = formatDay(year, 7, 4);
  closed(observed(july4), 'Independence Day');
  if (weekday(july4) >= 2 && weekday(july4) <= 5) early(formatDay(year, 7, 3), 'Independence Day');
  closed(nthWeekday(year, 9, 1, 1), 'Labor Day');
  const thanksgiving = nthWeekday(year, 11, 4, 4);
  closed(thanksgiving, 'Thanksgiving');
  early(addDays(thanksgiving, 1), 'Thanksgiving');
  const christmas = formatDay(year, 12, 25);
  closed(observed(christmas), 'Christmas');
  if (weekday(christmas) >= 2 && weekday(christmas) <= 5) early(formatDay(year, 12, 24), 'Christmas');
  // New Year's Day of the next year observed on a Monday January 2 never falls in this year; a
  // Saturday one is not observed, so nothing of the next year spills back.
  for (const h of [...SPECIAL_CLOSURES, ...SPECIAL_EARLY_CLOSES])
    if (h.date.startsWith(String(year))) out.push(h);

  out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  cache.set(year, out);
  return out;
}

/** The holiday or early close on `date` (`YYYY-MM-DD`), if any. */
export function holidayOn(date: string): MarketHoliday | undefined {
  return nyseHolidays(Number(date.slice(0, 4))).find((h) => h.date === date);
}
