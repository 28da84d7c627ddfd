import { listValue } from '@duckdb/node-api';
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
  return (await dayBarStamps(store, [ticker], date, kind)).get(ticker) as number;
}

/** {@link dayBarStamp} of each of `tickers`: one store query for the crypto pairs of grouped daily. */
export async function dayBarStamps(
  store: Store,
  tickers: readonly string[],
  date: string,
  kind: 'grouped' | 'previous',
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const read: string[] = [];
  for (const ticker of tickers) {
    const tz = marketTimeZone(ticker);
    const end = startOfDay(addDays(date, 1), tz);
    if (tz === NEW_YORK) out.set(ticker, startOfDay(date, tz) + 16 * HOUR);
    else if (!ticker.startsWith('X:')) out.set(ticker, end - 1);
    else if (kind === 'previous') out.set(ticker, end);
    else read.push(ticker);
  }
  if (read.length === 0) return out;
  // Crypto pairs are on UTC.
  const start = startOfDay(date, 'UTC');
  const end = startOfDay(addDays(date, 1), 'UTC');
  const d = store.dialect;
  const inList = d.inList('ticker', '$1');
  // `last_t`, not `t`: ClickHouse would read the inner `max(t)` as the outer alias.
  const rows = await store.all<{ tk: string; last_t: number }>(
    `SELECT ticker AS tk, max(last_t) AS last_t FROM (
       SELECT ticker, ${d.double('max(t)')} AS last_t FROM bars
        WHERE ${inList} AND resolution IN ('second', 'minute') AND t >= $2 AND t < $3 GROUP BY ticker
       UNION ALL
       SELECT ticker, ${d.double(d.intDiv('max(sip_timestamp)', '1000000'))} AS last_t FROM trades
        WHERE ${inList} AND sip_timestamp >= $2 * 1000000 AND sip_timestamp < $3 * 1000000 GROUP BY ticker)
     GROUP BY ticker`,
    [listValue([...read]), BigInt(start), BigInt(end)],
  );
  const last = new Map(rows.map((r) => [r.tk, Number(r.last_t)]));
  for (const ticker of read) {
    const t = last.get(ticker);
    out.set(ticker, t === undefined ? end - 60_000 : Math.floor(t / 60_000) * 60_000);
  }
  return out;
}
