import { listValue } from '@duckdb/node-api';
import { dayOf, startOfDay } from '../../dates/time-zone.js';
import type { Store } from '../store/store.js';
import { type Bar, barsOfTickers, queryBars } from './bars.js';
import { marketTimeZone } from './time-zone.js';

const HOUR = 3_600_000;

/** Options of the daily look-ups. */
export interface DailyOptions {
  /**
   * Apply splits.
   * @default true
   */
  adjusted?: boolean;
}

/** The daily bar of `date` (`YYYY-MM-DD`, the market's calendar day), or undefined without data. */
export async function dailyBar(
  store: Store,
  ticker: string,
  date: string,
  options: DailyOptions = {},
): Promise<Bar | undefined> {
  return (await dailyBars(store, [ticker], date, options)).get(ticker);
}

/**
 * {@link dailyBar} of each of `tickers` (each on its market's calendar): one store query per time zone
 * and day rule among them, plus their splits when adjusted; tickers without data are left out.
 */
export async function dailyBars(
  store: Store,
  tickers: readonly string[],
  date: string,
  options: DailyOptions = {},
): Promise<Map<string, Bar>> {
  const byZone = new Map<string, string[]>();
  for (const t of tickers) {
    const tz = marketTimeZone(t);
    byZone.set(tz, [...(byZone.get(tz) ?? []), t]);
  }
  const out = new Map<string, Bar>();
  await Promise.all(
    [...byZone].map(async ([tz, list]) => {
      const start = startOfDay(date, tz);
      const adjusted = options.adjusted !== false;
      const bars = await barsOfTickers(store, list, {
        timespan: 'day',
        fromMs: start,
        toMs: start,
        adjusted,
      });
      for (const [t, [bar]] of bars) if (bar) out.set(t, bar);
    }),
  );
  return out;
}

/** A session's daily bar with the date it belongs to. */
export interface SessionBar {
  date: string;
  bar: Bar;
}

/**
 * The daily bar of the last day with data strictly before the market day holding `beforeMs`: the
 * service's "previous close" when `beforeMs` is now.
 */
export async function previousSessionBar(
  store: Store,
  ticker: string,
  beforeMs: number,
  options: DailyOptions = {},
): Promise<SessionBar | undefined> {
  const tz = marketTimeZone(ticker);
  const dayStart = startOfDay(dayOf(beforeMs, tz), tz);
  const t = (await lastTimesBefore(store, [ticker], dayStart)).get(ticker);
  if (t === undefined) return undefined;
  const date = dayOf(t, tz);
  const bar = await dailyBar(store, ticker, date, options);
  return bar ? { date, bar } : undefined;
}

/**
 * The last instant (Unix ms) with data (a bar's start or a trade) strictly before `beforeMs` of each of
 * `tickers`, in one query; tickers without any are left out.
 */
export async function lastTimesBefore(
  store: Store,
  tickers: readonly string[],
  beforeMs: number,
): Promise<Map<string, number>> {
  const d = store.dialect;
  const inList = d.inList('ticker', '$1');
  // `last_t`, not `t`: ClickHouse would read the inner `max(t)` as the outer alias.
  const rows = await store.all<{ tk: string; last_t: number }>(
    `SELECT ticker AS tk, max(last_t) AS last_t FROM (
       SELECT ticker, ${d.double('max(t)')} AS last_t FROM bars WHERE ${inList} AND t < $2 GROUP BY ticker
       UNION ALL
       SELECT ticker, ${d.double(d.intDiv('max(sip_timestamp)', '1000000'))} AS last_t FROM trades
        WHERE ${inList} AND sip_timestamp < $3 GROUP BY ticker)
     GROUP BY ticker`,
    [listValue([...tickers]), BigInt(beforeMs), BigInt(beforeMs) * 1_000_000n],
  );
  return new Map(rows.map((r) => [r.tk, Number(r.last_t)]));
}

/** Extended-hours prices of one US session. */
export interface ExtendedHours {
  /** First price of the pre-market (04:00–09:30 New York), if anything traded. */
  preMarket?: number;
  /** Last price of the after-hours session (16:00–20:00 New York), if anything traded. */
  afterHours?: number;
}

/** Pre-market open and after-hours close of `date`, from ticks or minute bars of that day. */
export async function extendedHours(
  store: Store,
  ticker: string,
  date: string,
  options: DailyOptions = {},
): Promise<ExtendedHours> {
  const midnight = startOfDay(date, marketTimeZone(ticker));
  const adjusted = options.adjusted !== false;
  const base = { ticker, multiplier: 1, timespan: 'minute', adjusted, limit: 50_000 } as const;
  const [pre, post] = await Promise.all([
    queryBars(store, { ...base, fromMs: midnight + 4 * HOUR, toMs: midnight + 9.5 * HOUR - 1, sort: 'asc' }),
    queryBars(store, { ...base, fromMs: midnight + 16 * HOUR, toMs: midnight + 20 * HOUR - 1, sort: 'desc' }),
  ]);
  const out: ExtendedHours = {};
  if (pre.bars[0]) out.preMarket = pre.bars[0].o;
  if (post.bars[0]) out.afterHours = post.bars[0].c;
  return out;
}
