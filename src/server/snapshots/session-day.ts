import { addDays } from '../../dates/calendar.js';
import { dayOf, NEW_YORK, startOfDay } from '../../dates/time-zone.js';
import { isTradingDay, previousTradingDay, tradingSession, weekday } from '../calendar/index.js';
import { type Bar, dailyBar, marketTimeZone, previousSessionBar, queryBars } from '../market/index.js';
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
 */
export async function sessionSoFar(store: Store, ticker: string, nowMs: number): Promise<SessionSoFar> {
  const tz = marketTimeZone(ticker);
  const date = sessionDate(ticker, nowMs);
  const dayStart = startOfDay(date, tz);
  const [minutes, prev] = await Promise.all([
    nowMs > dayStart
      ? queryBars(store, {
          ticker,
          multiplier: 1,
          timespan: 'minute',
          fromMs: dayStart,
          toMs: nowMs - 1,
          adjusted: false,
          sort: 'asc',
          limit: 50_000,
        })
      : Promise.resolve({ bars: [] as Bar[], queryCount: 0 }),
    previousSessionBar(store, ticker, dayStart, { adjusted: false }),
  ]);
  // Complete minutes only: queryBars snaps the end forward to the end of the window holding it, and a
  // minute in progress would carry trades from after now.
  const bars = minutes.bars.filter((b) => b.t + 60_000 <= nowMs);
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
  } else {
    if (nowMs >= dailyBarFinalAt(ticker, date)) {
      const bar = await dailyBar(store, ticker, date, { adjusted: false });
      if (bar)
        day = { o: bar.o, h: bar.h, l: bar.l, c: bar.c, v: bar.v, vw: bar.vw ?? (bar.h + bar.l + bar.c) / 3 };
    }
  }
  const prevDate = previousSessionDate(ticker, date);
  const out: { -readonly [K in keyof SessionSoFar]: SessionSoFar[K] } = {
    date,
    dayStart,
    freshFrom: startOfDay(prevDate, tz),
  };
  if (day) out.day = day;
  if (minute) out.minute = minute;
  // Only the session just before counts as the previous day: a bar of an older session is not paired
  // with today's as if it were yesterday's.
  if (prev && prev.date >= prevDate) {
    out.prevDate = prev.date;
    out.prevDay = await adjustAcrossSplits(store, ticker, prev.bar, prev.date, date);
  }
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
async function adjustAcrossSplits(
  store: Store,
  ticker: string,
  bar: Bar,
  fromDate: string,
  toDate: string,
): Promise<Bar> {
  const d = store.dialect;
  // Multiplied here, in date order, so that every store gives the same factor to the last bit.
  const rows = await store.all<{ r: number }>(
    `SELECT split_to / split_from AS r FROM splits
      WHERE ticker = $1 AND execution_date > ${d.date('$2')} AND execution_date <= ${d.date('$3')} AND split_from > 0
      ORDER BY execution_date`,
    [ticker, fromDate, toDate],
  );
  const f = rows.reduce((p, { r }) => p * r, 1);
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
