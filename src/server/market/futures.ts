import { listValue } from '@duckdb/node-api';
import { dayOf, NEW_YORK, startOfDay, zonedToUtc } from '../../dates/time-zone.js';
import { FUTURES_MONTH_CODES } from '../../symbols/futures-ticker.js';
import { Where } from '../listing/where.js';
import { latestOpenInterest } from '../snapshots/latest-bars.js';
import type { SqlDialect, Store } from '../store/store.js';
import { FUTURES_TICKER_PATTERN } from './futures-tickers.js';

/**
 * Futures in the store: contract and product facts of the products the local server knows (CME E-mini
 * S&P 500 `ES`, COMEX gold `GC`), the trading date of an instant, and aggregates of stored bars.
 *
 * Rules (CME Group contract specifications of ES and GC, as listed in 2013):
 * - A trading session runs on Globex from 18:00 New York the evening before to 17:00 New York on its
 *   trading date (`session_end_date`), Sunday evening to Friday.
 * - ES: quarterly months (H M U Z), five consecutive quarters listed; trading ends on the third Friday
 *   of the contract month, which is also its final settlement date (cash settled). Tick 0.25 index
 *   points, $50 per point.
 * - GC: trading ends on the third last business day of the contract month, deliverable. Listed: the
 *   current and next two months, any Feb, Apr, Aug and Oct within 23 months, any Jun and Dec within
 *   72 months. Tick 0.10 USD per troy ounce, 100 troy ounces.
 * - A contract's first trade date is the business day after the last trade date of the contract whose
 *   expiry opens its place in the listing cycle (for ES the one five quarters earlier; for GC the month
 *   as many months earlier as its listing window is long). Business days are weekdays here: exchange
 *   holidays are not taken into account.
 */

/** A product the local server has facts for. */
export interface FuturesProduct {
  product_code: string;
  name: string;
  trading_venue: string;
  asset_class: string;
  asset_sub_class: string;
  sector: string;
  sub_sector?: string;
  settlement_method: string;
  settlement_type: string;
  price_quotation: string;
  trade_currency_code: string;
  settlement_currency_code: string;
  unit_of_measure: string;
  unit_of_measure_qty: number;
  type: 'single';
  /** Contract facts, not sent with the product. */
  tickSize: number;
  /** The contract months a product lists, 1 to 12, with how many months ahead each is listed. */
  listedAhead: (month: number) => number | undefined;
  lastTradeDate: (year: number, month: number) => string;
}

export const FUTURES_PRODUCTS: readonly FuturesProduct[] = [
  {
    product_code: 'ES',
    name: 'E-mini S&P 500 Futures',
    trading_venue: 'XCME',
    asset_class: 'financials',
    asset_sub_class: 'equity',
    sector: 'us_index',
    sub_sector: 'large_cap_index',
    settlement_method: 'financially_settled',
    settlement_type: 'cash',
    price_quotation: 'U.S. dollars and cents per index point',
    trade_currency_code: 'USD',
    settlement_currency_code: 'USD',
    unit_of_measure: 'IPNT',
    unit_of_measure_qty: 50,
    type: 'single',
    tickSize: 0.25,
    listedAhead: (month) => (month % 3 === 0 ? 15 : undefined),
    lastTradeDate: (year, month) => nthWeekday(year, month, 5, 3),
  },
  {
    product_code: 'GC',
    name: 'Gold Futures',
    trading_venue: 'XCEC',
    asset_class: 'commodity',
    asset_sub_class: 'metals',
    sector: 'precious',
    settlement_method: 'deliverable',
    settlement_type: 'physical',
    price_quotation: 'U.S. dollars and cents per troy ounce',
    trade_currency_code: 'USD',
    settlement_currency_code: 'USD',
    unit_of_measure: 'OZTR',
    unit_of_measure_qty: 100,
    type: 'single',
    tickSize: 0.1,
    listedAhead: (month) => (month === 6 || month === 12 ? 72 : [2, 4, 8, 10].includes(month) ? 23 : 3),
    lastTradeDate: (year, month) => lastBusinessDay(year, month, 3),
  },
];

/** The product of a code, or undefined. */
export function futuresProduct(code: string): FuturesProduct | undefined {
  return FUTURES_PRODUCTS.find((p) => p.product_code === code);
}

/** A contract's facts as the contracts listing sends them. */
export interface FuturesContract {
  ticker: string;
  product_code: string;
  name: string;
  type: 'single';
  first_trade_date: string;
  last_trade_date: string;
  settlement_date: string;
  trade_tick_size: number;
  settlement_tick_size: number;
  spread_tick_size: number;
  trading_venue: string;
  min_order_quantity: number;
}

const iso = (y: number, m: number, d: number) =>
  `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** The `n`th `weekday` (0 Sunday … 6 Saturday) of a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return iso(year, month, 1 + ((weekday - first + 7) % 7) + 7 * (n - 1));
}

/** The `n`th last weekday of a month (1 is the last). */
function lastBusinessDay(year: number, month: number, n: number): string {
  const d = new Date(Date.UTC(year, month, 0));
  for (let left = n; ; d.setUTCDate(d.getUTCDate() - 1)) {
    const wd = d.getUTCDay();
    if (wd !== 0 && wd !== 6 && --left === 0) break;
  }
  return d.toISOString().slice(0, 10);
}

/** The weekday after `date`. */
function nextBusinessDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
  return d.toISOString().slice(0, 10);
}

/**
 * The facts of a contract of a known product, its year given in full; undefined when the product is
 * unknown or does not list that month.
 */
export function futuresContract(product: string, year: number, month: number): FuturesContract | undefined {
  const p = futuresProduct(product);
  const ahead = p?.listedAhead(month);
  if (!p || ahead === undefined) return undefined;
  const last = p.lastTradeDate(year, month);
  const opener = year * 12 + (month - 1) - ahead;
  const first = nextBusinessDay(p.lastTradeDate(Math.floor(opener / 12), (opener % 12) + 1));
  const code = FUTURES_MONTH_CODES[month - 1] as string;
  const ticker = `${product}${code}${year % 10}`;
  return {
    ticker,
    product_code: product,
    name: `${ticker} Future`,
    type: 'single',
    first_trade_date: first,
    last_trade_date: last,
    settlement_date: last,
    trade_tick_size: p.tickSize,
    settlement_tick_size: p.tickSize,
    spread_tick_size: p.tickSize,
    trading_venue: p.trading_venue,
    min_order_quantity: 1,
  };
}

/**
 * The contracts with data in the store, each with the full year of its one-digit ticker: the first
 * year ending in that digit from the year of its first stored data on (a contract trades before it
 * expires, and within ten years).
 */
export async function storedFuturesContracts(store: Store): Promise<FuturesContract[]> {
  const pattern = FUTURES_TICKER_PATTERN;
  const d = store.dialect;
  // `first_t`, not `first`: ClickHouse would read the inner `min(first)` as the outer alias.
  const rows = await store.all<{ ticker: string; first: bigint | number }>(
    `SELECT ticker, min(first_t) AS first FROM (
       SELECT ticker, min(t) AS first_t FROM bars WHERE ${d.regexMatch('ticker', '$1')} GROUP BY ticker
       UNION ALL
       SELECT ticker, ${d.intDiv('min(sip_timestamp)', '1000000')} AS first_t FROM trades
         WHERE ${d.regexMatch('ticker', '$2')} GROUP BY ticker)
     GROUP BY ticker ORDER BY ticker`,
    [pattern, pattern],
  );
  const out: FuturesContract[] = [];
  for (const r of rows) {
    const product = r.ticker.slice(0, -2);
    const month = FUTURES_MONTH_CODES.indexOf(r.ticker.at(-2) as (typeof FUTURES_MONTH_CODES)[number]) + 1;
    const digit = Number(r.ticker.at(-1));
    const from = new Date(Number(r.first)).getUTCFullYear();
    const year = from + ((digit - (from % 10) + 10) % 10);
    const c = futuresContract(product, year, month);
    if (c) out.push(c);
  }
  return out;
}

/** The trading date of an instant: sessions end at 17:00 New York and the next opens at 18:00. */
export function sessionEndDate(ms: number): string {
  return dayOf(ms + 6 * 3_600_000, NEW_YORK);
}

/** The instants `[start, end)` of a trading date's session: 18:00 New York the day before to 17:00. */
export function sessionBoundsMs(date: string): { start: number; end: number } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const prev = new Date(Date.UTC(y, m - 1, d - 1));
  return {
    start: zonedToUtc(NEW_YORK, prev.getUTCFullYear(), prev.getUTCMonth() + 1, prev.getUTCDate(), 18),
    end: zonedToUtc(NEW_YORK, y, m, d, 17),
  };
}

/** An aggregate candle of a contract. */
export interface FuturesCandle {
  window_start: bigint;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  dollar_volume: number;
  /** Trades in the candle, known only for candles built from trade ticks. */
  transactions?: number;
  /** Start of the last stored bar or tick in the candle, ms. */
  last: number;
  /** A one-session candle's settlement price, when the service gave it (stored from its answer). */
  settlement_price?: number;
}

/**
 * A candle size the local server computes: from which stored data (trade ticks, minute, hour or daily
 * bars), and its windows: `size` ms long from `offset` ms past 1970-01-01 UTC (`unit: 'ms'`), `size`
 * calendar months from January 1970 (`unit: 'month'`), or `size` trading dates (weekdays) from Monday
 * 1970-01-05 (`unit: 'session'`).
 */
export interface FuturesWindow {
  source: 'tick' | 'minute' | 'hour' | 'day';
  unit: 'ms' | 'month' | 'session';
  size: number;
  offset: number;
}

const DAY_MS = 86_400_000;
/** 1970-01-04, the first Sunday: week candles start on Sundays, as the service's weekly bars do. */
const FIRST_SUNDAY_MS = 3 * DAY_MS;

/**
 * The window of a `resolution`, or a message saying what is computed: seconds from the trade ticks,
 * minutes and hours from the stored minute and hour bars, one session from the daily bars, weeks
 * (from Sunday), months, quarters and years from the daily bars (sessions).
 */
export function futuresWindow(resolution: string): FuturesWindow | string {
  const m = /^(\d+)(sec|min|hour|session|week|month|quarter|year)$/.exec(resolution);
  const n = m ? Number(m[1]) : 0;
  const fixed = (source: FuturesWindow['source'], ms: number, offset = 0): FuturesWindow => ({
    source,
    unit: 'ms',
    size: ms,
    offset,
  });
  const months = (k: number): FuturesWindow => ({ source: 'day', unit: 'month', size: k, offset: 0 });
  if (n >= 1) {
    if (m?.[2] === 'sec' && n <= 59) return fixed('tick', n * 1000);
    if (m?.[2] === 'min' && n <= 59) return fixed('minute', n * 60_000);
    if (m?.[2] === 'hour' && n <= 23) return fixed('hour', n * 3_600_000);
    // One session is the daily bar as stamped; several count trading dates.
    if (m?.[2] === 'session' && n === 1) return fixed('day', DAY_MS);
    if (m?.[2] === 'session' && n <= 9999) return { source: 'day', unit: 'session', size: n, offset: 0 };
    if (m?.[2] === 'week' && n <= 9999) return fixed('day', n * 7 * DAY_MS, FIRST_SUNDAY_MS);
    if (m?.[2] === 'month' && n <= 11) return months(n);
    if (m?.[2] === 'quarter' && n <= 3) return months(3 * n);
    if (m?.[2] === 'year' && n <= 9999) return months(12 * n);
  }
  return 'the local server computes 1-59sec (from trade ticks), 1-59min (from minute bars), 1-23hour (from hour bars), and 1-9999session, 1-9999week, 1-11month, 1-3quarter, 1-9999year (from daily bars)';
}

/** 1970-01-05, the first Monday: trading date 0 of several-session candles. */
const FIRST_MONDAY_DAY = 4;

/**
 * The start (ms) of the window holding the instant `ms`. Several-session windows count trading dates
 * (weekdays; a Saturday or Sunday stamp belongs to Monday's session, which opens Sunday evening) and
 * start at UTC midnight of their first trading date.
 */
export function futuresWindowStart(w: FuturesWindow, ms: number): number {
  if (w.unit === 'ms') return ms - ((((ms - w.offset) % w.size) + w.size) % w.size);
  if (w.unit === 'session') {
    const days = Math.floor(ms / DAY_MS) - FIRST_MONDAY_DAY;
    const index = Math.floor(days / 7) * 5 + Math.min(((days % 7) + 7) % 7, 5);
    const first = index - (((index % w.size) + w.size) % w.size);
    return (Math.floor(first / 5) * 7 + (first % 5) + FIRST_MONDAY_DAY) * DAY_MS;
  }
  const d = new Date(ms);
  const index = d.getUTCFullYear() * 12 + d.getUTCMonth();
  const first = index - (index % w.size);
  return Date.UTC(Math.floor(first / 12), first % 12, 1);
}

/**
 * {@link futuresWindowStart} in SQL, over the column (or expression) `t` of Unix ms, in the store's
 * dialect.
 */
function windowStartSql(d: SqlDialect, w: FuturesWindow, t: string): string {
  const size = String(w.size);
  if (w.unit === 'ms') return `(${t} - ${d.mod(`${d.mod(`${t} - ${w.offset}`, size)} + ${size}`, size)})`;
  if (w.unit === 'session') {
    // Stored data is after 1970-01-05: the divisions below are of positive numbers.
    const days = `(${d.intDiv(t, String(DAY_MS))} - ${FIRST_MONDAY_DAY})`;
    const index = `(${d.intDiv(days, '7')} * 5 + least(${d.mod(days, '7')}, 5))`;
    const first = `(${index} - ${d.mod(index, size)})`;
    return `((${d.intDiv(first, '5')} * 7 + ${d.mod(first, '5')} + ${FIRST_MONDAY_DAY}) * ${DAY_MS})`;
  }
  const index = d.monthIndex(t);
  return d.monthStartMs(`${index} - ${d.mod(index, size)}`);
}

/** A candle query: start bounds in ms, newest first unless `asc`, resuming after `after`. */
export interface FuturesAggQuery {
  ticker: string;
  window: FuturesWindow;
  gte?: number;
  lt?: number;
  asc: boolean;
  limit: number;
  after?: bigint;
}

/**
 * Candles of the stored data, windows as {@link futuresWindowStart} sets them (an hour window on the
 * UTC hour, a session on UTC midnight of its trading date, as the service stamps them; a week on the
 * Sunday, a month, quarter or year on its first day, UTC).
 *
 * From bars: open and close of the first and last bar, high and low over the bars, volume summed,
 * dollar volume Σ volume × the bar's average price (`vw`, which bars the caching server stored from the
 * service's candles carry) or, without one, its typical price (h + l + c) / 3 (Lean's bars carry no tick
 * prices); transactions summed where the bars count them.
 * From trade ticks (second candles): open and close of the first and last trade in time and sequence
 * order, high and low over the trades, volume Σ size, dollar volume Σ price × size, transactions the
 * count of trades.
 */
export async function queryFuturesAggs(store: Store, q: FuturesAggQuery): Promise<FuturesCandle[]> {
  return (await futuresCandles(store, [q.ticker], q)).get(q.ticker) ?? [];
}

/**
 * The candles of several contracts in one query, by ticker (those without any left out), each list as
 * {@link queryFuturesAggs} answers it for that contract; `limit` counts the candles of all of them.
 */
export function queryFuturesAggsOf(
  store: Store,
  tickers: readonly string[],
  q: Omit<FuturesAggQuery, 'ticker'>,
): Promise<Map<string, FuturesCandle[]>> {
  return tickers.length === 0 ? Promise.resolve(new Map()) : futuresCandles(store, tickers, q);
}

async function futuresCandles(
  store: Store,
  tickers: readonly string[],
  q: Omit<FuturesAggQuery, 'ticker'>,
): Promise<Map<string, FuturesCandle[]>> {
  const d = store.dialect;
  const fromTicks = q.window.source === 'tick';
  const where = new Where();
  if (tickers.length === 1) where.add('ticker = ?', tickers[0] as string);
  else where.add(d.inList('ticker', '?'), listValue([...tickers]));
  if (!fromTicks) where.add('resolution = ?', q.window.source);
  const bucket = windowStartSql(d, q.window, fromTicks ? d.intDiv('sip_timestamp', '1000000') : 't');
  if (q.gte !== undefined) where.add(`${bucket} >= ?`, BigInt(q.gte));
  if (q.lt !== undefined) where.add(`${bucket} < ?`, BigInt(q.lt));
  // The same bounds on the bars' own time, which the stores' sort keys can use: a window of fixed
  // length starts at or before its bars, and less than its length before them.
  if (!fromTicks && q.window.unit === 'ms') {
    if (q.gte !== undefined) where.add('t >= ?', BigInt(q.gte));
    if (q.lt !== undefined) where.add('t < ?', BigInt(q.lt + q.window.size));
  }
  if (q.after !== undefined) where.add(`${bucket} ${q.asc ? '>' : '<'} ?`, q.after / 1_000_000n);
  const dir = q.asc ? 'ASC' : 'DESC';
  const limit = where.param(BigInt(q.limit));
  const order = 'sip_timestamp, sequence_number';
  const columns = fromTicks
    ? `${d.firstInOrder('price', order)} AS open, max(price) AS high, min(price) AS low,
       ${d.lastInOrder('price', order)} AS close,
       sum(size) AS volume, sum(price * size) AS dollar_volume, count(*) AS transactions,
       ${d.intDiv('max(sip_timestamp)', '1000000')} AS last`
    : `${d.argMin('o', 't')} AS open, max(h) AS high, min(l) AS low, ${d.argMax('c', 't')} AS close,
       sum(v) AS volume, sum(v * coalesce(vw, (h + l + c) / 3)) AS dollar_volume, sum(n) AS transactions,
       max(t) AS last`;
  // Only a one-session candle is a session's own, with its settlement.
  const session =
    q.window.source === 'day' && q.window.unit === 'ms' && q.window.size === DAY_MS && q.window.offset === 0;
  const rows = await store.all<{
    ticker: string;
    ws: bigint;
    settlement_price?: number | null;
    open: number;
    high: number;
    low: number;
    close: number;
    volume: number;
    dollar_volume: number;
    transactions: bigint | null;
    last: bigint;
  }>(
    `SELECT ticker, ${bucket} AS ws, ${columns}${session ? `, ${d.argMax('settlement_price', 't')} AS settlement_price` : ''}
     FROM ${fromTicks ? 'trades' : 'bars'}${where} GROUP BY ticker, ws ORDER BY ws ${dir}, ticker LIMIT ${limit}`,
    where.params,
  );
  const out = new Map<string, FuturesCandle[]>();
  for (const r of rows) {
    let list = out.get(r.ticker);
    if (!list) {
      list = [];
      out.set(r.ticker, list);
    }
    list.push({
      window_start: BigInt(r.ws) * 1_000_000n,
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: r.volume,
      dollar_volume: Math.round(r.dollar_volume * 100) / 100,
      ...(r.transactions !== null && { transactions: Number(r.transactions) }),
      last: Number(r.last),
      ...(r.settlement_price !== null &&
        r.settlement_price !== undefined && { settlement_price: Number(r.settlement_price) }),
    });
  }
  return out;
}

/** Midnight UTC of a date, ms (a session candle's start). */
export function utcDayStart(date: string): number {
  return startOfDay(date, 'UTC');
}

/** The trading dates (weekdays: exchange holidays are not applied) from `from` to `to`, inclusive. */
export function tradingDates(from: string, to: string): string[] {
  const out: string[] = [];
  const d = new Date(`${from}T00:00:00Z`);
  for (; d.toISOString().slice(0, 10) <= to; d.setUTCDate(d.getUTCDate() + 1)) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** The session events of a trading date: `open` at 18:00 New York the evening before, `close` at 17:00. */
export function sessionEvents(date: string): [{ event: 'open'; ms: number }, { event: 'close'; ms: number }] {
  // The evening before is a calendar day: Monday's session opens on Sunday.
  const { start: open, end } = sessionBoundsMs(date);
  return [
    { event: 'open', ms: open },
    { event: 'close', ms: end },
  ];
}

/**
 * The market state at `ms`: `open` within a session (timestamp its open), else `closed` (timestamp the
 * last close), with the trading date of the session in progress or next.
 */
export function marketStateAt(ms: number): {
  market_event: 'open' | 'closed';
  session_end_date: string;
  at: number;
} {
  let date = sessionEndDate(ms);
  // A Saturday or Sunday instant belongs to Monday's session, which opens Sunday 18:00.
  while ([0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay())) {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    date = d.toISOString().slice(0, 10);
  }
  const [open, close] = sessionEvents(date);
  const step = (from: string, days: number) => {
    const d = new Date(`${from}T00:00:00Z`);
    do d.setUTCDate(d.getUTCDate() + days);
    while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
    return d.toISOString().slice(0, 10);
  };
  // Between 17:00 and 18:00 New York the day's session is over and the next one not yet open.
  if (ms >= close.ms) return { market_event: 'closed', session_end_date: step(date, 1), at: close.ms };
  if (ms >= open.ms) return { market_event: 'open', session_end_date: date, at: open.ms };
  return { market_event: 'closed', session_end_date: date, at: sessionEvents(step(date, -1))[1].ms };
}

/** The first and last trading dates with futures data in the store, if any. */
export async function futuresDataDates(store: Store): Promise<{ from: string; to: string } | undefined> {
  const pattern = FUTURES_TICKER_PATTERN;
  const [r] = await store.all<{ lo: bigint | null; hi: bigint | null }>(
    `SELECT min(t) AS lo, max(t) AS hi FROM bars WHERE ${store.dialect.regexMatch('ticker', '$1')} AND resolution <> 'day'`,
    [pattern],
  );
  if (!r || r.lo === null || r.hi === null) return undefined;
  return { from: sessionEndDate(Number(r.lo)), to: sessionEndDate(Number(r.hi)) };
}

/** What the snapshot of a contract holds at an instant, from the stored data up to it. */
export interface FuturesSnapshotData {
  lastTrade?: { price: number; size: number; ns: bigint };
  lastMinute?: { o: number; h: number; l: number; c: number; v: number; t: number };
  session?: { o: number; h: number; l: number; c: number; v: number; date: string };
  openInterest?: number;
}

/**
 * The latest trade, minute bar, session so far and open interest of each of `tickers`, as of `ms`:
 * nothing stamped after `ms` is read. A fixed number of queries for the whole list (one per kind of
 * fact, each over every ticker), so that a page of contracts costs no more round trips to the store
 * than one contract. Tickers without any of these facts map to an empty object.
 */
export async function futuresSnapshots(
  store: Store,
  tickers: readonly string[],
  ms: number,
): Promise<Map<string, FuturesSnapshotData>> {
  const out = new Map<string, FuturesSnapshotData>(tickers.map((t) => [t, {}]));
  if (tickers.length === 0) return out;
  const d = store.dialect;
  const list = listValue([...tickers]);
  const inList = d.inList('ticker', '$1');
  type Ohlcv = { ticker: string; o: number; h: number; l: number; c: number; v: number };
  // The session in progress: its minute bars up to `ms`; once it has closed, its daily bar (which
  // starts at UTC midnight of its trading date) for the contracts without minute bars.
  const date = sessionEndDate(ms);
  const { start, end } = sessionBoundsMs(date);
  const [trades, minutes, parts, days, interest] = await Promise.all([
    store.all<{ ticker: string; price: number; size: number; ns: bigint }>(
      d.firstPer(
        `SELECT ticker, price, size, sip_timestamp AS ns FROM trades WHERE ${inList} AND sip_timestamp <= $2`,
        'ticker',
        'sip_timestamp DESC, sequence_number DESC',
      ),
      [list, BigInt(ms) * 1_000_000n],
    ),
    store.all<Ohlcv & { t: bigint }>(
      d.firstPer(
        `SELECT ticker, o, h, l, c, v, t FROM bars
          WHERE ${inList} AND resolution = 'minute' AND t + 60000 <= $2`,
        'ticker',
        't DESC',
      ),
      [list, BigInt(ms)],
    ),
    store.all<Ohlcv>(
      `SELECT ticker, ${d.argMin('o', 't')} AS o, max(h) AS h, min(l) AS l, ${d.argMax('c', 't')} AS c,
         sum(v) AS v
       FROM bars WHERE ${inList} AND resolution = 'minute' AND t >= $2 AND t + 60000 <= $3
       GROUP BY ticker`,
      [list, BigInt(start), BigInt(Math.min(ms, end))],
    ),
    ms >= end
      ? store.all<Ohlcv>(
          `SELECT ticker, o, h, l, c, v FROM bars WHERE ${inList} AND resolution = 'day' AND t = $2`,
          [list, BigInt(utcDayStart(date))],
        )
      : Promise.resolve([]),
    latestOpenInterest(store, tickers, ms),
  ]);
  const at = (ticker: string) => out.get(ticker) as FuturesSnapshotData;
  for (const r of trades) {
    at(r.ticker).lastTrade = { price: r.price, size: r.size, ns: BigInt(r.ns) };
  }
  for (const { ticker, o, h, l, c, v, t } of minutes) at(ticker).lastMinute = { o, h, l, c, v, t: Number(t) };
  // Minute bars, when a contract has any in the session, win over its daily bar: they come last.
  for (const { ticker, o, h, l, c, v } of [...days, ...parts]) at(ticker).session = { o, h, l, c, v, date };
  for (const [ticker, openInterest] of interest) at(ticker).openInterest = openInterest;
  return out;
}
