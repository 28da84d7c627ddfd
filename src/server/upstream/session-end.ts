import { dayOf, NEW_YORK, zonedToUtc } from '../../dates/time-zone.js';
import { sessionBoundsMs } from '../market/futures.js';
import { isStoredFuturesTicker } from '../market/futures-tickers.js';
import { marketTimeZone } from '../market/time-zone.js';
import { type CoverageKind, dayNumber, dayText } from './coverage.js';

/**
 * When a market day has ended for good, so that what was stamped on it cannot change any more:
 *
 * - forex and crypto: at midnight UTC, the end of the service's day;
 * - US stocks, options and indices: at 20:00 New York, the end of the extended session;
 * - futures: a session's daily bar at 17:00 New York, its session end; bars within a day at midnight
 *   New York, as the next session trades from 18:00 on the same calendar day.
 */

/** The hour (in the market's time zone) at which a day of `ticker` and `kind` has ended. */
function endHour(ticker: string, kind: CoverageKind): number {
  if (marketTimeZone(ticker) === 'UTC') return 24;
  if (isStoredFuturesTicker(ticker)) return kind === 'bars:day' ? 17 : 24;
  return 20;
}

/** The instant (Unix ms) at which the market day `day` of `ticker` and `kind` has ended. */
export function dayEndMs(ticker: string, kind: CoverageKind, day: string): number {
  const hour = endHour(ticker, kind);
  if (isStoredFuturesTicker(ticker) && hour === 17) return sessionBoundsMs(day).end;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  // 24:00 is midnight of the next day, however long the day was.
  if (hour === 24) return zonedToUtc(marketTimeZone(ticker), y, m, d + 1);
  return zonedToUtc(NEW_YORK, y, m, d, hour);
}

/** The first market day of `ticker` and `kind` that had not ended at `ms`: every earlier day is final. */
export function firstOpenDay(ticker: string, kind: CoverageKind, ms: number): string {
  const today = dayOf(ms, marketTimeZone(ticker));
  return ms >= dayEndMs(ticker, kind, today) ? dayText(dayNumber(today) + 1) : today;
}
