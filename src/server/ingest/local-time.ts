import { zonedToUtc, zoneOffset } from '../../dates/time-zone.js';

/** A calendar date as written in Lean's file names and rows. */
export interface LeanDate {
  year: number;
  month: number;
  day: number;
}

const HOUR = 3_600_000;

/** Parses `YYYYMMDD` (a real calendar date), or returns undefined. */
export function parseLeanDate(text: string): LeanDate | undefined {
  if (!/^\d{8}$/.test(text)) return undefined;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(4, 6));
  const day = Number(text.slice(6, 8));
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day)
    return undefined;
  return { year, month, day };
}

/** `YYYY-MM-DD` of a Lean date. */
export function isoDate(d: LeanDate): string {
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/**
 * Converts Lean's intraday stamps (milliseconds since midnight of `date`, wall clock in `tz`) to Unix
 * ms. Lean adds the milliseconds to the local date and then converts, so the offset is looked up per
 * wall-clock hour; this keeps a day with a DST change right while costing one array read per row.
 */
export function wallClockOfDay(date: LeanDate, tz: string): (msOfDay: number) => number {
  const key = `${tz} ${date.year}-${date.month}-${date.day}`;
  let clock = clocks.get(key);
  if (!clock) {
    // Option archives hold thousands of entries of one day; the offsets are worked out once.
    if (clocks.size > 10_000) clocks.clear();
    clock = buildClock(date, tz);
    clocks.set(key, clock);
  }
  return clock;
}

const clocks = new Map<string, (msOfDay: number) => number>();

function buildClock(date: LeanDate, tz: string): (msOfDay: number) => number {
  const naiveMidnight = Date.UTC(date.year, date.month - 1, date.day);
  const offsets: number[] = [];
  for (let h = 0; h <= 48; h++) {
    offsets.push(naiveMidnight + h * HOUR - zonedToUtc(tz, date.year, date.month, date.day, h));
  }
  const last = offsets.length - 1;
  return (msOfDay) => {
    const h = Math.min(Math.max(Math.floor(msOfDay / HOUR), 0), last);
    return naiveMidnight + msOfDay - (offsets[h] as number);
  };
}

/**
 * The pieces of `wallClockOfDay` for SQL: naive midnight (the date read as UTC) and the offsets to
 * subtract, each from the wall-clock ms of the day where it starts (one entry unless DST changes).
 */
export function wallClockOffsets(
  date: LeanDate,
  tz: string,
): { naiveMidnight: number; changes: { fromMs: number; offset: number }[] } {
  const naiveMidnight = Date.UTC(date.year, date.month - 1, date.day);
  const changes: { fromMs: number; offset: number }[] = [];
  for (let h = 0; h <= 48; h++) {
    const offset = naiveMidnight + h * HOUR - zonedToUtc(tz, date.year, date.month, date.day, h);
    if (changes.length === 0 || changes[changes.length - 1]?.offset !== offset)
      changes.push({ fromMs: h * HOUR, offset });
  }
  return { naiveMidnight, changes };
}

/**
 * Parses Lean's hour and daily stamp `YYYYMMDD HH:mm` (wall clock in `tz`) to Unix ms, or returns
 * undefined when malformed. Offsets are cached per date, as daily files repeat few distinct dates.
 */
export function leanStampParser(tz: string): (text: string) => number | undefined {
  const cache = new Map<string, (ms: number) => number>();
  return (text) => {
    const m = /^(\d{8}) (\d{2}):(\d{2})$/.exec(text);
    if (!m) return undefined;
    const dateText = m[1] as string;
    const hour = Number(m[2]);
    const minute = Number(m[3]);
    if (hour > 23 || minute > 59) return undefined;
    let clock = cache.get(dateText);
    if (!clock) {
      const date = parseLeanDate(dateText);
      if (!date) return undefined;
      clock = wallClockOfDay(date, tz);
      cache.set(dateText, clock);
    }
    return clock(hour * HOUR + minute * 60_000);
  };
}

/**
 * Midnight of a session date in `tz`, as Unix ms: the service stamps daily bars at the start of the
 * session date in the market's time zone. Cached per date.
 */
export function sessionStartParser(tz: string): (date: LeanDate) => number {
  const cache = new Map<number, number>();
  return (d) => {
    const key = d.year * 10_000 + d.month * 100 + d.day;
    let t = cache.get(key);
    if (t === undefined) {
      t = midnight(tz, d);
      cache.set(key, t);
    }
    return t;
  };
}

/**
 * Midnight of `d` in `tz`: the offset at noon, confirmed at the candidate instant (two look-ups);
 * on the rare day where they differ, the full `zonedToUtc`.
 */
function midnight(tz: string, d: LeanDate): number {
  const naive = Date.UTC(d.year, d.month - 1, d.day);
  if (tz === 'UTC') return naive;
  const candidate = naive - zoneOffset(naive + 12 * HOUR, tz);
  if (naive - zoneOffset(candidate, tz) === candidate) return candidate;
  return zonedToUtc(tz, d.year, d.month, d.day);
}
