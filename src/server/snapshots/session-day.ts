import { listValue } from '@duckdb/node-api';
import { addDays } from '../../dates/calendar.js';
import { dayOf, NEW_YORK, startOfDay } from '../../dates/time-zone.js';
import { isTradingDay, previousTradingDay, tradingSession, weekday } from '../calendar/index.js';
import { type Bar, barsOfTickers, lastTimesBefore, marketTimeZone } from '../market/index.js';
import type { Store } from '../store/store.js';

/** A bar aggregated from minute bars, with its volume-weighted price. */
export interface DayAggregate {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  vw: number;
  n?: number;
}

/** What happened in a ticker's current session up to "now". */
export interface SessionSoFar {
  /** The session's date (`YYYY-MM-DD`, the market's time zone). */
  readonly date: string;
  /** Unix ms of the session day's midnight in the market's time zone. */
  readonly dayStart: number;
  /** The session so far, aggregated from the minute bars complete by now; undefined without data. */
  readonly day?: DayAggregate;
  /** The latest minute bar complete by now, with the session's volume up to and including it. */
  readonly minute?: Bar & { av: number };
  /** The previous session's daily bar, split-adjusted to the current session's shares. */
  readonly prevDay?: Bar;
  /** The previous session's date. */
  readonly prevDate?: string;
  /**
   * Unix ms of the start of the previous session's day: older data (a last trade of another year) is not
   * current and stays out of the snapshot.
   */
  readonly freshFrom: number;
}

/**
 * The session before `date` (`YYYY-MM-DD`): the previous trading day for US tickers, the day before for
 * crypto, the previous day the forex market opens (Sunday to Friday) for forex.
 */
export function previousSessionDate(ticker: string, date: string): string {
  const tz = marketTimeZone(ticker);
  if (tz === NEW_YORK) return previousTradingDay(date);
  const before = addDays(date, -1);
  return ticker.startsWith('C:') && weekday(before) === 6 ? addDays(before, -1) : before;
}

/**
 * The session "now" belongs to: for US tickers the latest trading day on or before now's New York
 * date (a weekend snapshot still shows Friday, as the service's does until the next session starts);
 * for forex and crypto the UTC calendar day of now.
 */
export function sessionDate(ticker: string, nowMs: number): string {
  const tz = marketTimeZone(ticker);
  const date = dayOf(nowMs, tz);
  if (tz !== NEW_YORK || isTradingDay(date)) return date;
  return previousTradingDay(date);
}

/**
 * The current session of `ticker` at `nowMs`: day-so-far from the complete minute bars (unadjusted:
 * splits after now must not reach back), the latest minute, and the previous session's bar. Without
 * minute bars but with a daily bar for a session that has ended, the daily bar stands for the day.
 * {@link sessionsSoFar} of one ticker.
 */
export async function sessionSoFar(store: Store, ticker: string, nowMs: number): Promise<SessionSoFar> {
  return (await sessionsSoFar(store, [ticker], nowMs)).get(ticker) as SessionSoFar;
}

/**
 * {@link sessionSoFar} of each of `tickers`, in a fixed number of queries for the whole list (a few per
 * time zone among the tickers, each over every ticker of that zone), so that a page of tickers costs
 * no more round trips to the store than one ticker.
 */
export async function sessionsSoFar(
  store: Store,
  tickers: readonly string[],
  nowMs: number,
): Promise<Map<string, SessionSoFar>> {
  const out = new Map<string, SessionSoFar>();
  const byZone = new Map<string, string[]>();
  for (const t of new Set(tickers)) {
    const tz = marketTimeZone(t);
    byZone.set(tz, [...(byZone.get(tz) ?? []), t]);
  }
  await Promise.all([...byZone.values()].map((list) => zoneSessions(store, list, nowMs, out)));
  return out;
}

/** {@link sessionsSoFar} of tickers of one time zone (they share the session's date), into `out`. */
async function zoneSessions(
  store: Store,
  tickers: readonly string[],
  nowMs: number,
  out: Map<string, SessionSoFar>,
): Promise<void> {
  const first = tickers[0] as string;
  const tz = marketTimeZone(first);
  const date = sessionDate(first, nowMs);
  const dayStart = startOfDay(date, tz);
  const prevDates = new Map(tickers.map((t) => [t, previousSessionDate(t, date)]));
  const earliestPrev = [...prevDates.values()].reduce((a, b) => (b < a ? b : a));
  const [minutes, lastTimes, splits] = await Promise.all([
    nowMs > dayStart
      ? barsOfTickers(store, tickers, { timespan: 'minute', fromMs: dayStart, toMs: nowMs - 1 })
      : Promise.resolve(new Map<string, Bar[]>()),
    lastTimesBefore(store, tickers, dayStart),
    splitRatios(store, tickers, earliestPrev, date),
  ]);
  // The daily bars wanted: the previous session's (the last day with data before today, when it is
  // the session just before: an older bar is not paired with today's as if it were yesterday's), and
  // today's for a ticker without minute bars once its session has ended.
  const wanted = new Map<string, string[]>();
  const complete = new Map<string, Bar[]>();
  for (const t of tickers) {
    // Complete minutes only: the range ends at the end of the minute holding now - 1, and a minute in
    // progress would carry trades from after now.
    const bars = (minutes.get(t) ?? []).filter((b) => b.t + 60_000 <= nowMs);
    complete.set(t, bars);
    const dates: string[] = [];
    const last = lastTimes.get(t);
    if (last !== undefined && dayOf(last, tz) >= (prevDates.get(t) as string)) dates.push(dayOf(last, tz));
    if (bars.length === 0 && nowMs >= dailyBarFinalAt(t, date)) dates.push(date);
    if (dates.length > 0) wanted.set(t, dates);
  }
  const earliest = [...wanted.values()].flat().reduce((a, b) => (b < a ? b : a), date);
  const daily =
    wanted.size > 0
      ? await barsOfTickers(store, [...wanted.keys()], {
          timespan: 'day',
          fromMs: startOfDay(earliest, tz),
          toMs: startOfDay(date, tz),
        })
      : new Map<string, Bar[]>();
  const dailyBarOf = (t: string, d: string) => daily.get(t)?.find((b) => dayOf(b.t, tz) === d);

  for (const ticker of tickers) {
    const bars = complete.get(ticker) as Bar[];
    let day: DayAggregate | undefined;
    let minute: (Bar & { av: number }) | undefined;
    if (bars.length > 0) {
      day = aggregate(bars);
      // The day bar's definition (market/bars.ts): a US stock's open, high, low and close come from the
      // regular session once it has traded, its volume and vw from the whole day.
      const regular = tz === NEW_YORK && !/^[A-Z]:/.test(ticker) ? tradingSession(date) : undefined;
      const inSession = regular ? bars.filter((b) => b.t + 60_000 > regular.open && b.t < regular.close) : [];
      if (inSession.length > 0) {
        const r = aggregate(inSession);
        day = { ...day, o: r.o, h: r.h, l: r.l, c: r.c };
      }
      const last = bars[bars.length - 1] as Bar;
      minute = { ...last, av: day.v };
    } else if (nowMs >= dailyBarFinalAt(ticker, date)) {
      const bar = dailyBarOf(ticker, date);
      if (bar)
        day = { o: bar.o, h: bar.h, l: bar.l, c: bar.c, v: bar.v, vw: bar.vw ?? (bar.h + bar.l + bar.c) / 3 };
    }
    const prevDate = prevDates.get(ticker) as string;
    const s: { -readonly [K in keyof SessionSoFar]: SessionSoFar[K] } = {
      date,
      dayStart,
      freshFrom: startOfDay(prevDate, tz),
    };
    if (day) s.day = day;
    if (minute) s.minute = minute;
    const lastTime = lastTimes.get(ticker);
    const lastDate = lastTime === undefined ? undefined : dayOf(lastTime, tz);
    const prev = lastDate !== undefined && lastDate >= prevDate ? dailyBarOf(ticker, lastDate) : undefined;
    if (prev && lastDate !== undefined) {
      s.prevDate = lastDate;
      s.prevDay = adjustAcrossSplits(prev, splits.get(ticker) ?? [], lastDate, date);
    }
    out.set(ticker, s);
  }
}

/** A split's ratio (new shares per old share) and its execution date. */
interface SplitRatio {
  date: string;
  r: number;
}

/** The splits of each of `tickers` executed after `fromDate` up to `toDate`, in date order. */
async function splitRatios(
  store: Store,
  tickers: readonly string[],
  fromDate: string,
  toDate: string,
): Promise<Map<string, SplitRatio[]>> {
  const d = store.dialect;
  const rows = await store.all<{ tk: string; ex: string; r: number }>(
    `SELECT ticker AS tk, ${d.dateText('execution_date')} AS ex, split_to / split_from AS r FROM splits
      WHERE ${d.inList('ticker', '$1')} AND execution_date > ${d.date('$2')} AND execution_date <= ${d.date('$3')}
        AND split_from > 0
      ORDER BY ticker, execution_date`,
    [listValue([...tickers]), fromDate, toDate],
  );
  const out = new Map<string, SplitRatio[]>();
  for (const r of rows) out.set(r.tk, [...(out.get(r.tk) ?? []), { date: r.ex, r: r.r }]);
  return out;
}

/** OHLC, summed volume and volume-weighted price of consecutive bars. */
export function aggregate(bars: readonly Bar[]): DayAggregate {
  const first = bars[0] as Bar;
  const out: DayAggregate = { o: first.o, h: first.h, l: first.l, c: first.c, v: 0, vw: 0 };
  let pv = 0;
  let n = 0;
  let knowsN = true;
  for (const b of bars) {
    out.h = Math.max(out.h, b.h);
    out.l = Math.min(out.l, b.l);
    out.c = b.c;
    out.v += b.v;
    pv += (b.vw ?? (b.h + b.l + b.c) / 3) * b.v;
    if (b.n === undefined) knowsN = false;
    else n += b.n;
  }
  out.vw = out.v > 0 ? pv / out.v : out.c;
  if (knowsN) out.n = n;
  return out;
}

/** `bar` of `fromDate` restated in the shares of `toDate`: divided by the splits executed in between. */
function adjustAcrossSplits(bar: Bar, splits: readonly SplitRatio[], fromDate: string, toDate: string): Bar {
  // Multiplied here, in date order, so that every store gives the same factor to the last bit.
  const f = splits.filter((s) => s.date > fromDate && s.date <= toDate).reduce((p, { r }) => p * r, 1);
  if (!f || f === 1) return bar;
  const out: Bar = { ...bar, o: bar.o / f, h: bar.h / f, l: bar.l / f, c: bar.c / f, v: bar.v * f };
  if (bar.vw !== undefined) out.vw = bar.vw / f;
  return out;
}

/**
 * From when a stored daily bar of `date` stands for the whole session: the close (16:00 New York, 13:00
 * on an early close) for US tickers, the last millisecond of the UTC day for forex and crypto.
 */
export function dailyBarFinalAt(ticker: string, date: string): number {
  const tz = marketTimeZone(ticker);
  if (tz === NEW_YORK) return tradingSession(date)?.close ?? startOfDay(date, tz) + 16 * 3_600_000;
  return startOfDay(dayOf(startOfDay(date, tz) + 36 * 3_600_000, tz), tz) - 1;
}
