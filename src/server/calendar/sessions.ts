import { addDays } from '../../dates/calendar.js';
import { dayOf, NEW_YORK, zonedToUtc } from '../../dates/time-zone.js';
import { holidayOn, weekday } from './holidays.js';

/** The hours of one US equity trading day, as Unix ms. */
export interface TradingSession {
  /** `YYYY-MM-DD` (America/New_York). */
  readonly date: string;
  /** 04:00 ET: pre-market opens. */
  readonly preMarketOpen: number;
  /** 09:30 ET: the regular session opens. */
  readonly open: number;
  /** 16:00 ET, or 13:00 ET on an early close. */
  readonly close: number;
  /** 20:00 ET, or 17:00 ET on an early close: after-hours trading ends. */
  readonly afterHoursClose: number;
  readonly earlyClose: boolean;
}

/** True when the US stock exchanges trade on `date` (`YYYY-MM-DD`): a weekday that is no full holiday. */
export function isTradingDay(date: string): boolean {
  const dow = weekday(date);
  if (dow === 0 || dow === 6) return false;
  return holidayOn(date)?.status !== 'closed';
}

/** Sessions computed so far, by date (`null`: closed); servers ask for the same few days all the time. */
const sessions = new Map<string, TradingSession | null>();
/** Days remembered before the memo starts over (decades of days, a few MB at most). */
const MAX_CACHED_SESSIONS = 20_000;

/** The session of `date`, or `undefined` when the exchanges are closed that day. */
export function tradingSession(date: string): TradingSession | undefined {
  let session = sessions.get(date);
  if (session === undefined) {
    session = computeSession(date) ?? null;
    if (sessions.size >= MAX_CACHED_SESSIONS) sessions.clear();
    sessions.set(date, session);
  }
  return session ?? undefined;
}

function computeSession(date: string): TradingSession | undefined {
  if (!isTradingDay(date)) return undefined;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const earlyClose = holidayOn(date)?.status === 'early-close';
  // Frozen: every caller of the same day shares this object.
  return Object.freeze({
    date,
    preMarketOpen: zonedToUtc(NEW_YORK, y, m, d, 4),
    open: zonedToUtc(NEW_YORK, y, m, d, 9, 30),
    close: zonedToUtc(NEW_YORK, y, m, d, earlyClose ? 13 : 16),
    afterHoursClose: zonedToUtc(NEW_YORK, y, m, d, earlyClose ? 17 : 20),
    earlyClose,
  });
}

/** The first trading day strictly after `date`. */
export function nextTradingDay(date: string): string {
  let d = addDays(date, 1);
  while (!isTradingDay(d)) d = addDays(d, 1);
  return d;
}

/** The last trading day strictly before `date`. */
export function previousTradingDay(date: string): string {
  let d = addDays(date, -1);
  while (!isTradingDay(d)) d = addDays(d, -1);
  return d;
}

/** Where the US stock market stands at an instant. */
export interface MarketPhase {
  readonly market: 'open' | 'extended-hours' | 'closed';
  /** In pre-market hours (04:00–09:30 ET of a trading day). */
  readonly earlyHours: boolean;
  /** In after-hours trading (close–20:00 ET, 17:00 on an early close). */
  readonly afterHours: boolean;
}

/** The phase of the US stock market at `ms` (Unix ms). */
export function marketPhaseAt(ms: number): MarketPhase {
  const s = tradingSession(dayOf(ms, NEW_YORK));
  if (s && ms >= s.open && ms < s.close) return { market: 'open', earlyHours: false, afterHours: false };
  if (s && ms >= s.preMarketOpen && ms < s.open) {
    return { market: 'extended-hours', earlyHours: true, afterHours: false };
  }
  if (s && ms >= s.close && ms < s.afterHoursClose) {
    return { market: 'extended-hours', earlyHours: false, afterHours: true };
  }
  return { market: 'closed', earlyHours: false, afterHours: false };
}

/**
 * Whether the interbank currency market is open at `ms`: it trades around the clock from Sunday
 * 17:00 to Friday 17:00 America/New_York.
 */
export function isForexOpen(ms: number): boolean {
  const date = dayOf(ms, NEW_YORK);
  const dow = weekday(date);
  if (dow === 6) return false;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const fivePm = zonedToUtc(NEW_YORK, y, m, d, 17);
  if (dow === 0) return ms >= fivePm;
  if (dow === 5) return ms < fivePm;
  return true;
}
