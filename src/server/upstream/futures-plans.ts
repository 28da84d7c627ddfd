import type { Context } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import { FUTURES_VERSIONS, futuresOperationsOf } from '../../operations/futures.js';
import { parseFuturesTicker } from '../../symbols/futures-ticker.js';
import type { AppEnv } from '../http.js';
import { type FuturesWindow, futuresWindow, futuresWindowStart, sessionEndDate } from '../market/futures.js';
import { futuresCandleBounds, futuresTickBounds } from '../market/futures-bounds.js';
import { parseRequest } from '../validate.js';
import { ALL_DAYS, type DayRange } from './coverage.js';
import { firstOpenTradingDate, TRADING_DATES, UTC_DATES } from './futures-kinds.js';
import { type Need, type RoutePlan, requestKey, setLists } from './route-plans.js';

/**
 * What the futures routes need stored (see {@link RoutePlan}), in both path generations. Candles are
 * answered from the stored candles of their source (seconds from trades, minutes from one-minute
 * candles, hours from one-hour candles, sessions, weeks, months, quarters and years from session
 * candles), trades and quotes from the stored ticks; contracts, products, schedules, exchanges, market
 * status and snapshots are stored as answered, under their request.
 */

const DAY_MS = 86_400_000;

/** The kind of each candle source. */
const SOURCE_KIND: Readonly<Record<FuturesWindow['source'], string>> = {
  tick: 'futures:trades',
  minute: 'futures:minute',
  hour: 'futures:hour',
  day: 'futures:day',
};

/** The contract as the store keys it (`ESZ23` is `ESZ3`); undefined for a ticker the local route refuses. */
function storedContract(ticker: string): string | undefined {
  try {
    const p = parseFuturesTicker(ticker, { referenceDate: 2000 });
    return `${p.productCode}${p.monthCode}${p.year % 10}`;
  } catch {
    return undefined;
  }
}

/** The end (ms, exclusive) of the candle window starting at `start`. */
function windowEndMs(w: FuturesWindow, start: number): number {
  if (w.unit === 'ms') return start + w.size;
  if (w.unit === 'month') {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + w.size, 1);
  }
  // Several sessions: the next window starts on a later UTC midnight.
  let t = start + DAY_MS;
  while (futuresWindowStart(w, t) === start) t += DAY_MS;
  return t;
}

/** `range` up to the trading date in progress at `now` (later dates hold nothing yet), or undefined. */
function untilNow(range: DayRange, now: number): DayRange | undefined {
  const open = firstOpenTradingDate(now);
  const last = range.last < open ? range.last : open;
  return range.first <= last ? { first: range.first, last } : undefined;
}

/**
 * A candle request needs its source over every date its windows touch, from the first window's start
 * to the last one's end. Without both ends of a range it goes upstream as it is.
 */
function candleNeeds(c: Context<AppEnv>, op: OperationSpec, now: number): Need[] | 'upstream' {
  const req = parseRequest(op, c, { resolution: '1session', limit: 1000, sort: 'window_start.desc' });
  const ticker = storedContract(String(req.values.get('ticker')));
  const window = futuresWindow(String(req.values.get('resolution')));
  // A bad ticker or resolution: the local route answers the 400.
  if (ticker === undefined || typeof window === 'string') return [];
  const { gte, lt } = futuresCandleBounds(req.values, window);
  if (gte === undefined || lt === undefined) return 'upstream';
  if (!(gte < lt)) return [];
  const end = windowEndMs(window, futuresWindowStart(window, lt - 1));
  const days = window.source === 'day' ? UTC_DATES : TRADING_DATES;
  const range = untilNow({ first: days.of(gte), last: days.of(end - 1) }, now);
  const kind = SOURCE_KIND[window.source];
  return range ? [{ ticker, kind, accepts: [kind], range }] : [];
}

/** Sorts the local route orders by. */
const TICK_SORT = /^(timestamp|sequence_number)(\.(asc|desc))?(,|$)/;

/**
 * A trades or quotes request needs the ticks of the trading dates its time range touches. One without
 * both ends of a range, or sorted by what the local route does not order by, goes upstream as it is.
 */
function tickNeeds(
  c: Context<AppEnv>,
  op: OperationSpec,
  kind: 'futures:trades' | 'futures:quotes',
  now: number,
): Need[] | 'upstream' {
  const req = parseRequest(op, c);
  const ticker = storedContract(String(req.values.get('ticker')));
  if (ticker === undefined) return [];
  const sort = req.values.get('sort');
  if (typeof sort === 'string' && !TICK_SORT.test(sort)) return 'upstream';
  const b = futuresTickBounds(req.values);
  if (b.gte === undefined || b.lt === undefined) return 'upstream';
  if (b.gte >= b.lt) return [];
  const ms = (ns: bigint) => Number(ns / 1_000_000n);
  const range = untilNow({ first: sessionEndDate(ms(b.gte)), last: sessionEndDate(ms(b.lt - 1n)) }, now);
  return range ? [{ ticker, kind, accepts: [kind], range }] : [];
}

/**
 * An answer stored under its request, the same filters in another order sharing it (the futures
 * listings are sorted by `sort`, whatever the order of an `.any_of`); a page's cursor is the
 * service's: validated without one.
 */
function answerNeeds(c: Context<AppEnv>, op: OperationSpec): Need[] {
  const url = new URL(c.req.url);
  if (!url.searchParams.has('cursor')) parseRequest(op, c);
  return [{ ticker: requestKey(url, setLists(op)), kind: 'answer', accepts: ['answer'], range: ALL_DAYS }];
}

/** Every futures route the caching server answers from the store. */
export const FUTURES_PLANS: readonly RoutePlan[] = FUTURES_VERSIONS.flatMap((version) => {
  const ops = futuresOperationsOf(version);
  return [
    { op: ops.getAggregates, needs: (c, now) => candleNeeds(c, ops.getAggregates, now) },
    { op: ops.getTrades, needs: (c, now) => tickNeeds(c, ops.getTrades, 'futures:trades', now) },
    { op: ops.getQuotes, needs: (c, now) => tickNeeds(c, ops.getQuotes, 'futures:quotes', now) },
    ...[
      ops.getContracts,
      ops.getProducts,
      ops.getSchedules,
      ops.getExchanges,
      ops.getMarketStatus,
      ops.getSnapshot,
    ].map((op) => ({ op, needs: (c: Context<AppEnv>) => answerNeeds(c, op) })),
  ] satisfies RoutePlan[];
});
