/**
 * Wall-clock time in an IANA time zone, with nothing but `Intl`: the market's day boundaries
 * (America/New_York for US stocks and options, UTC for forex and crypto) and Lean's local timestamps.
 */

/** The time zone of the US stock and options markets. */
export const NEW_YORK = 'America/New_York';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Calendar and clock fields of an instant in a time zone. */
export interface WallTime {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The wall time in `tz` of the instant `ms` (Unix milliseconds). */
export function wallTime(ms: number, tz: string): WallTime {
  if (tz === 'UTC') return utcFields(ms);
  const offset = cachedOffset(ms, tz);
  return offset === undefined ? intlWallTime(ms, tz) : utcFields(ms + offset);
}

function utcFields(ms: number): WallTime {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

function intlWallTime(ms: number, tz: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(ms)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year as number,
    month: parts.month as number,
    day: parts.day as number,
    hour: parts.hour as number,
    minute: parts.minute as number,
    second: parts.second as number,
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

const HOUR_MS = 3_600_000;
/** Years 1000 to 9999: `Intl` prints four-digit years there, so its fields and the UTC getters agree. */
const CACHED_FROM = Date.UTC(1000, 0, 1);
const CACHED_UNTIL = Date.UTC(10000, 0, 1);
/** Hours remembered per zone before the memo starts over (a few hundred kB at most). */
const MAX_CACHED_HOURS = 50_000;
/** Per zone: the offset (ms) of each UTC hour seen, or NaN when the offset changes within that hour. */
const hourOffsets = new Map<string, Map<number, number>>();

/**
 * The offset of `tz` at `ms` from a memo of whole UTC hours, or undefined when that hour holds an
 * offset change. `Intl` formatting costs microseconds per call and servers convert the same few hours
 * over and over (sessions, day boundaries); an hour is trusted only when its first and last millisecond
 * have the same offset, so zones whose changes fall off the hour (Lord Howe, historic local mean times)
 * stay exact.
 */
function cachedOffset(ms: number, tz: string): number | undefined {
  if (!(ms >= CACHED_FROM && ms < CACHED_UNTIL)) return undefined;
  const hour = Math.floor(ms / HOUR_MS);
  let zone = hourOffsets.get(tz);
  if (!zone) {
    zone = new Map();
    hourOffsets.set(tz, zone);
  }
  let offset = zone.get(hour);
  if (offset === undefined) {
    const first = hour * HOUR_MS;
    const last = first + HOUR_MS - 1;
    const a = utcOf(intlWallTime(first, tz)) - first;
    const b = utcOf(intlWallTime(last, tz)) - last;
    offset = a === b ? a : Number.NaN;
    if (zone.size >= MAX_CACHED_HOURS) zone.clear();
    zone.set(hour, offset);
  }
  return Number.isNaN(offset) ? undefined : offset;
}

function utcOf(w: WallTime): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);
}

/** Offset of `tz` from UTC at the instant `ms`, in milliseconds (New York in winter: -5 h). */
export function zoneOffset(ms: number, tz: string): number {
  if (tz === 'UTC') return 0;
  return utcOf(wallTime(ms, tz)) - ms;
}

/**
 * The instant (Unix ms) at which the wall clock in `tz` shows the given time. For a wall time that
 * occurs twice (the autumn DST change) the earlier instant is returned; for one that does not occur
 * (spring), an instant one hour away.
 */
export function zonedToUtc(
  tz: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
): number {
  const naive = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  if (tz === 'UTC') return naive;
  // Two passes settle the offset across a DST change.
  let guess = naive - zoneOffset(naive, tz);
  guess = naive - zoneOffset(guess, tz);
  const earlier = naive - zoneOffset(guess - 3_600_000, tz);
  return earlier < guess && wallEquals(earlier, tz, naive) ? earlier : guess;
}

function wallEquals(ms: number, tz: string, naive: number): boolean {
  return utcOf(wallTime(ms, tz)) === naive;
}

/** Midnight in `tz` of the calendar day `YYYY-MM-DD`, as Unix ms. */
export function startOfDay(date: string, tz: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return zonedToUtc(tz, y, m, d);
}

/** The calendar day (`YYYY-MM-DD`) in `tz` of the instant `ms`. */
export function dayOf(ms: number, tz: string): string {
  const w = wallTime(ms, tz);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** True when `tz` is a time zone name this runtime knows (`UTC` or an IANA name such as `Europe/Paris`). */
export function isTimeZone(tz: unknown): tz is string {
  if (tz === 'UTC') return true;
  if (typeof tz !== 'string' || tz === '') return false;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}
