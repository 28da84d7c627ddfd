import { addDays } from '../../dates/calendar.js';
import { NEW_YORK, startOfDay } from '../../dates/time-zone.js';
import type { Store } from '../store/store.js';
import { marketTimeZone } from './time-zone.js';

const HOUR = 3_600_000;

/**
 * The `t` that grouped daily (`grouped`) and previous close (`previous`) give the daily bar of `date`,
 * as the service stamps them (reference spec examples and recordings):
 *
 * - US stocks, options and indices: 16:00 New York, the end of the regular session.
 * - Forex: the last millisecond of the UTC day (23:59:59.999).
 * - Crypto: previous close, the end of the day (the next midnight); grouped daily, the start of the
 *   minute holding the day's last trade or bar (the service's rows of one day differ by pair), or the
 *   day's last minute when only a daily bar is stored.
 */
export async function dayBarStamp(
  store: Store,
  ticker: string,
  date: string,
  kind: 'grouped' | 'previous',
): Promise<number> {
  const tz = marketTimeZone(ticker);
  if (tz === NEW_YORK) return startOfDay(date, tz) + 16 * HOUR;
  const start = startOfDay(date, tz);
  const end = startOfDay(addDays(date, 1), tz);
  if (!ticker.startsWith('X:')) return end - 1;
  if (kind === 'previous') return end;
  const d = store.dialect;
  const rows = await store.all<{ t: number | null }>(
    `SELECT ${d.double(
      d.greatest(
        `(SELECT ${d.maxOrNull('t')} FROM bars WHERE ticker = $1 AND resolution IN ('second', 'minute') AND t >= $2 AND t < $3)`,
        `(SELECT ${d.intDiv(d.maxOrNull('sip_timestamp'), '1000000')} FROM trades
          WHERE ticker = $1 AND sip_timestamp >= $2 * 1000000 AND sip_timestamp < $3 * 1000000)`,
      ),
    )} AS t`,
    [ticker, BigInt(start), BigInt(end)],
  );
  const last = rows[0]?.t;
  return last === null || last === undefined ? end - 60_000 : Math.floor(last / 60_000) * 60_000;
}
