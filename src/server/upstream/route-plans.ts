import type { Context } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import type { DecodedValue } from '../../core/wire-values.js';
import { dayOf } from '../../dates/time-zone.js';
import {
  aggregateBars,
  cryptoDailyOpenClose,
  dailyOpenClose,
  groupedDaily,
  previousClose,
} from '../../operations/aggregates.js';
import { ema, macd, rsi, sma } from '../../operations/indicators.js';
import { lastCryptoTrade, lastForexQuote } from '../../operations/last.js';
import {
  dividends,
  ipos,
  iposV1,
  optionContracts,
  relatedCompanies,
  splits,
  stockFinancials,
  tickerDetails,
  tickerEvents,
  tickerNews,
  tickers,
  tickerTypes,
} from '../../operations/reference.js';
import { legacyTicks, quotesV3, tradesV3 } from '../../operations/trades-quotes.js';
import type { AppEnv } from '../http.js';
import { IPO_SORT_KEYS } from '../market/records.js';
import { TICKER_SORT_COLUMNS } from '../market/reference.js';
import { marketTimeZone } from '../market/time-zone.js';
import { type BarTimespan, INTRADAY_MS, isIntraday, periodIndex, periodStartDay } from '../market/windows.js';
import { dayStartMs, parseRequest, timestampBounds } from '../validate.js';
import { GROUPED, LIVE } from './cached-kinds.js';
import { ALL_DAYS, type CoverageKind, type DayRange, dayNumber, dayText } from './coverage.js';
import { FUTURES_PLANS } from './futures-plans.js';
import { dayEndMs } from './session-end.js';
import { SNAPSHOT_PLANS } from './snapshot-plans.js';

/**
 * What each route the caching server answers from the store needs stored first, one plan per route
 * (see {@link RoutePlan}). Adding a route is one more entry in `ROUTE_PLANS`.
 */

/** What one request needs stored before the local route can answer it. */
export interface Need {
  ticker: string;
  /** The kind fetched when missing (a name of `CACHED_KINDS`). */
  kind: CoverageKind;
  /** Kinds whose coverage answers the request too (finer bars roll up into coarser ones). */
  accepts: readonly CoverageKind[];
  range: DayRange;
  /**
   * An answer about a past period: the instant (Unix ms) from which it cannot change any more. Fetched
   * at or after it, the answer is kept for good; before it, or without one, it ages.
   */
  settlesAt?: number;
  /**
   * A snapshot request its kind's rows answer (see `store-snapshots.ts`): the tickers it names, and its
   * answer built from their snapshot objects (JSON text, in that order). When any is missing or aged,
   * the request is fetched as it is and its objects stored as rows.
   */
  rows?: {
    tickers: readonly string[];
    answer(items: readonly string[], requestId: string): string;
    /** Whether a stored object answers the request (an option contract's, the underlying asked). */
    fits?(item: Record<string, unknown>): boolean;
  };
}

/** A route the caching server answers from the store once what it needs is stored. */
export interface RoutePlan {
  /** The operation whose route it is. */
  op: OperationSpec;
  /**
   * What a request needs stored, or `upstream`: a request the store cannot describe, passed upstream
   * as it is (offline, the local route answers it from what is stored).
   * @param now - The caching server's clock (Unix ms).
   */
  needs(c: Context<AppEnv>, now: number): Need[] | 'upstream';
}

/** Kinds that answer a bar request: its own resolution and every finer source the bars are built from. */
const BAR_SOURCES: Readonly<Record<'second' | 'minute' | 'day', readonly CoverageKind[]>> = {
  second: ['bars:second', 'trades'],
  minute: ['bars:minute', 'bars:second', 'trades'],
  day: ['bars:day', 'bars:minute', 'bars:second', 'trades'],
};

const aggregatesOp = aggregateBars();
const openCloseOp = dailyOpenClose();
const prevOp = previousClose();

/**
 * The days of a bar request: its range snapped out to whole timespans, as the local route reads it (the
 * windows at its edges hold only their part inside it).
 */
function aggregateNeeds(c: Context<AppEnv>): Need[] {
  const req = parseRequest(aggregatesOp, c);
  const ticker = req.values.get('ticker') as string;
  const tz = marketTimeZone(ticker);
  const from = req.values.get('from') as { date: string } | { ms: number };
  const to = req.values.get('to') as { date: string } | { ms: number };
  const fromMs = 'ms' in from ? from.ms : dayStartMs(from.date, tz, 0);
  const toMs = 'ms' in to ? to.ms : dayStartMs(to.date, tz, 1) - 1;
  // Out of order: the local route answers the 400.
  if (!(fromMs <= toMs) || !Number.isFinite(fromMs) || !Number.isFinite(toMs)) return [];
  const timespan = req.values.get('timespan') as BarTimespan;
  let range: DayRange;
  let base: 'second' | 'minute' | 'day';
  const unit = INTRADAY_MS[timespan];
  if (unit !== undefined) {
    base = timespan === 'second' ? 'second' : 'minute';
    range = { first: dayOf(fromMs, tz), last: dayOf(toMs, tz) };
  } else {
    base = 'day';
    const first = periodIndex(timespan, dayNumber(dayOf(fromMs, tz)));
    const last = periodIndex(timespan, dayNumber(dayOf(toMs, tz)));
    range = {
      first: dayText(periodStartDay(timespan, first)),
      last: dayText(periodStartDay(timespan, last + 1) - 1),
    };
  }
  const needs: Need[] = [{ ticker, kind: `bars:${base}`, accepts: BAR_SOURCES[base], range }];
  // Adjusting reads the ticker's splits; only stocks (tickers without a class prefix) have any.
  if (!/^[A-Z]:/.test(ticker) && req.values.get('adjusted') !== false) {
    needs.push({ ticker, kind: 'splits', accepts: ['splits'], range: ALL_DAYS });
  }
  return needs;
}

/**
 * A day's open, close, pre-market and after-hours prices come from its minute bars (or finer), with the
 * stock's splits when adjusted.
 */
function openCloseNeeds(c: Context<AppEnv>): Need[] {
  const req = parseRequest(openCloseOp, c);
  const ticker = req.values.get('ticker') as string;
  const { date } = req.values.get('date') as { date: string };
  const day = { first: date, last: date };
  const needs: Need[] = [{ ticker, kind: 'bars:minute', accepts: BAR_SOURCES.minute, range: day }];
  // An index's history is mostly daily values: a day without minute bars is answered from its daily
  // one, so the daily one is fetched too (minute bars, which cover the day, do not stand in for it).
  if (ticker.startsWith('I:')) needs.push({ ticker, kind: 'bars:day', accepts: ['bars:day'], range: day });
  if (!/^[A-Z]:/.test(ticker) && req.values.get('adjusted') !== false) {
    needs.push({ ticker, kind: 'splits', accepts: ['splits'], range: ALL_DAYS });
  }
  return needs;
}

/** Days before today a previous close looks back over: the last session is within them on any calendar. */
const PREVIOUS_CLOSE_DAYS = 7;

/**
 * A previous close is the daily bar of the last session before today: the daily bars of the week
 * before today (ended sessions, kept for good), with the stock's splits when adjusted.
 */
function previousCloseNeeds(c: Context<AppEnv>, now: number): Need[] {
  const req = parseRequest(prevOp, c);
  const ticker = req.values.get('ticker') as string;
  const today = dayNumber(dayOf(now, marketTimeZone(ticker)));
  const range = { first: dayText(today - PREVIOUS_CLOSE_DAYS), last: dayText(today - 1) };
  const needs: Need[] = [{ ticker, kind: 'bars:day', accepts: BAR_SOURCES.day, range }];
  if (!/^[A-Z]:/.test(ticker) && req.values.get('adjusted') !== false) {
    needs.push({ ticker, kind: 'splits', accepts: ['splits'], range: ALL_DAYS });
  }
  return needs;
}

/**
 * A market's daily bars of one day are stored unadjusted, whole: asked unadjusted (or for forex, which
 * has no splits), they are answered from the store. Adjusted stock bars need every ticker's splits, and
 * OTC tickers are not stored: those answers are stored as fetched, under their request.
 */
function groupedNeeds(c: Context<AppEnv>, g: (typeof GROUPED)[number]): Need[] {
  const req = parseRequest(g.op, c);
  const { date } = req.values.get('date') as { date: string };
  if (g.pattern === '*' && (req.values.get('adjusted') !== false || req.values.get('include_otc') === true))
    return answerNeeds(c, g.op);
  return [{ ticker: g.pattern, kind: 'grouped', accepts: ['grouped'], range: { first: date, last: date } }];
}

/** The days of a trades or quotes listing; one without both ends of a time range goes upstream. */
function tickNeeds(c: Context<AppEnv>, op: OperationSpec, kind: 'trades' | 'quotes'): Need[] | 'upstream' {
  const req = parseRequest(op, c);
  const ticker = req.values.get('ticker') as string;
  const tz = marketTimeZone(ticker);
  const b = timestampBounds(req.values, tz);
  if (b.gte === undefined || b.lt === undefined) return 'upstream';
  if (b.gte >= b.lt) return [];
  const ms = (ns: bigint) => Number(ns / 1_000_000n);
  return [
    { ticker, kind, accepts: [kind], range: { first: dayOf(ms(b.gte), tz), last: dayOf(ms(b.lt - 1n), tz) } },
  ];
}

/** A listing of one ticker's records is answered from its records stored whole; other listings go upstream. */
function recordNeeds(c: Context<AppEnv>, op: OperationSpec, kind: CoverageKind): Need[] | 'upstream' {
  const req = parseRequest(op, c);
  const ticker = req.values.get('ticker');
  if (typeof ticker !== 'string' || ticker === '') return 'upstream';
  return [{ ticker, kind, accepts: [kind], range: ALL_DAYS }];
}

/** A ticker's details as of today are stored as a record; as of another date they go upstream. */
function detailsNeeds(c: Context<AppEnv>): Need[] | 'upstream' {
  // The ticker types' path is a route of its own that the details' pattern matches too.
  if (c.req.path === tickerTypes.path) return 'upstream';
  const req = parseRequest(tickerDetails, c);
  const ticker = req.values.get('ticker');
  if (typeof ticker !== 'string' || ticker === '' || req.values.get('date') !== undefined) return 'upstream';
  return [{ ticker, kind: 'ticker_details', accepts: ['ticker_details'], range: ALL_DAYS }];
}

/**
 * One record of a ticker stored whole (its related companies; its events of every type, which the local
 * route filters by `types`), under the ticker or id asked for.
 */
function tickerRecordNeeds(c: Context<AppEnv>, op: OperationSpec, wire: string, kind: CoverageKind): Need[] {
  const id = String(parseRequest(op, c).values.get(wire));
  return [{ ticker: id, kind, accepts: [kind], range: ALL_DAYS }];
}

/**
 * A ticker's current state, stored as the answer that brought it (under the ticker with its market's
 * prefix), is answered as stored.
 */
function liveNeeds(c: Context<AppEnv>, { kind, prefix, op }: (typeof LIVE)[number]): Need[] {
  const raw = String(parseRequest(op, c).values.get('ticker'));
  const ticker = raw.startsWith(prefix) ? raw : `${prefix}${raw}`;
  return [{ ticker, kind, accepts: [kind], range: ALL_DAYS }];
}

/** Parameters of a listing that choose its page, not its rows. */
const PAGING = new Set(['limit', 'sort', 'order', 'cursor', 'apiKey']);

/**
 * A listing's filters as one canonical query (parameters by name, defaults written out), the ticker its
 * coverage is stored under: requests with the same filters and any limit, sort, order or page share it.
 * An `.any_of` list is a set (its order, repeats and repeated keys do not change the rows): its items
 * are written sorted, once each, so `ipo_status.any_of=pending,history` and `history,pending` share it.
 */
export function listingFilters(op: OperationSpec, query: URLSearchParams): string {
  const filters: [string, string][] = [];
  const sets = setLists(op);
  for (const p of op.params) {
    if (p.in !== 'query' || PAGING.has(p.wire)) continue;
    const value = query.getAll(p.wire).filter((v) => v !== '');
    if (value.length > 0) filters.push([p.wire, sets.has(p.wire) ? setText(value) : value.join(',')]);
    else if (p.default !== undefined) filters.push([p.wire, String(p.default)]);
  }
  filters.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(filters).toString();
}

const setListsCache = new WeakMap<OperationSpec, ReadonlySet<string>>();
/** The wire names of an operation's `.any_of` lists: filters whose items' order cannot change the answer. */
export function setLists(op: OperationSpec): ReadonlySet<string> {
  let sets = setListsCache.get(op);
  if (!sets) {
    sets = new Set(
      op.params.filter((p) => p.type.kind === 'list' && p.wire.endsWith('.any_of')).map((p) => p.wire),
    );
    setListsCache.set(op, sets);
  }
  return sets;
}

/** The items of a list's values (repeated keys, each comma-separated), trimmed, once each, sorted. */
function setText(values: readonly string[]): string {
  const items = new Set(values.flatMap((v) => v.split(',').map((s) => s.trim())).filter((s) => s !== ''));
  return [...items].sort().join(',');
}

/** Filters of the tickers listing the local route applies to stored rows as the service does. */
const STORED_TICKER_FILTERS = new Set([
  'ticker',
  'ticker.gt',
  'ticker.gte',
  'ticker.lt',
  'ticker.lte',
  'type',
  'market',
  'exchange',
  'active',
]);

/**
 * The tickers listing of a set of filters is stored whole the first time and answered from its rows
 * after, with any limit, sort, order or page. Filters the store cannot apply as the service does (a
 * search, as of a date, CUSIP, CIK) and sorts by what it does not store go upstream.
 */
function tickersNeeds(c: Context<AppEnv>): Need[] | 'upstream' {
  const req = parseRequest(tickers, c);
  const filters = listingFilters(tickers, req.query);
  const sort = req.values.get('sort');
  if (typeof sort === 'string' && !TICKER_SORT_COLUMNS.has(sort)) return 'upstream';
  for (const name of new URLSearchParams(filters).keys())
    if (!STORED_TICKER_FILTERS.has(name)) return 'upstream';
  return [{ ticker: filters, kind: 'tickers', accepts: ['tickers'], range: ALL_DAYS }];
}

/** Sort keys of the option contracts listing, all stored columns. */
const CONTRACT_SORTS = new Set(['ticker', 'underlying_ticker', 'expiration_date', 'strike_price']);

/**
 * The option contracts listing of a set of filters (every one a stored column) is stored whole the
 * first time and answered from its rows after, with any limit, sort, order or page. Without `as_of`
 * both the service and the local route list the contracts of today.
 */
function contractsNeeds(c: Context<AppEnv>): Need[] | 'upstream' {
  const req = parseRequest(optionContracts, c);
  const sort = req.values.get('sort');
  if (typeof sort === 'string' && !CONTRACT_SORTS.has(sort)) return 'upstream';
  const filters = listingFilters(optionContracts, req.query);
  return [{ ticker: filters, kind: 'option_contracts', accepts: ['option_contracts'], range: ALL_DAYS }];
}

/** Filters of the IPOs listing the local route applies to stored records as the service does. */
const STORED_IPO_FILTERS = new Set([
  'ticker',
  'us_code',
  'isin',
  'ipo_status',
  'listing_date',
  'listing_date.gt',
  'listing_date.gte',
  'listing_date.lt',
  'listing_date.lte',
]);

/**
 * The IPOs listing of a set of filters is stored whole the first time, as records of the store's own
 * table, and answered from them after, with any limit, sort, order or page. Filters and sorts the
 * local route does not apply as the service does go upstream.
 */
function iposNeeds(c: Context<AppEnv>): Need[] | 'upstream' {
  const req = parseRequest(ipos, c);
  const sort = req.values.get('sort');
  if (typeof sort === 'string' && !IPO_SORT_KEYS.has(sort)) return 'upstream';
  const filters = listingFilters(ipos, req.query);
  for (const name of new URLSearchParams(filters).keys())
    if (!STORED_IPO_FILTERS.has(name)) return 'upstream';
  return [{ ticker: filters, kind: 'ipos', accepts: ['ipos'], range: ALL_DAYS }];
}

/**
 * The v1 IPOs listing of a set of filters is stored the same way, as its own listing: the local route
 * applies every filter and sort the endpoint takes, so no request of it needs to go upstream.
 */
function iposV1Needs(c: Context<AppEnv>): Need[] {
  const filters = listingFilters(iposV1, parseRequest(iposV1, c).query);
  return [{ ticker: filters, kind: 'ipos_v1', accepts: ['ipos_v1'], range: ALL_DAYS }];
}

/**
 * A request as the key of its stored answer, and the request sent for it: its path and its query as
 * asked (the order of its parameters kept, as the service's cursors keep it), without a key. The lists
 * named in `sets` (filters whose order cannot change the answer, see `setLists`) are written as one
 * parameter of sorted items, each once, where the first of them stood, so the same filters in another
 * order share the stored answer; a page's cursor is the service's, and its request is kept as asked.
 */
export function requestKey(url: URL, sets: ReadonlySet<string> = new Set()): string {
  const params = [...url.searchParams].filter(([name]) => name !== 'apiKey');
  const canonical = sets.size === 0 || url.searchParams.has('cursor') ? params : canonicalSets(params, sets);
  const query = new URLSearchParams(canonical);
  return query.size === 0 ? url.pathname : `${url.pathname}?${query}`;
}

/** `params` with each list of `sets` written once, its items sorted, where it first stood. */
function canonicalSets(params: readonly [string, string][], sets: ReadonlySet<string>): [string, string][] {
  const out: [string, string][] = [];
  const written = new Set<string>();
  for (const [name, value] of params) {
    if (!sets.has(name)) out.push([name, value]);
    else if (!written.has(name)) {
      written.add(name);
      const items = setText(params.filter(([n]) => n === name).map(([, v]) => v));
      if (items !== '') out.push([name, items]);
    }
  }
  return out;
}

/**
 * An answer stored as fetched, under its request: the same request is answered as stored until it is
 * older than the age allowed (offline, however old). A page's cursor is the service's: the request is
 * validated without one.
 */
function answerNeeds(c: Context<AppEnv>, op: OperationSpec): Need[] {
  const url = new URL(c.req.url);
  const need: Need = { ticker: requestKey(url), kind: 'answer', accepts: ['answer'], range: ALL_DAYS };
  // A later page's cursor is the service's: what period it describes is not known here.
  if (url.searchParams.has('cursor')) return [need];
  const settlesAt = PAST_ANSWERS.get(op.path)?.(parseRequest(op, c).values);
  return [settlesAt === undefined ? need : { ...need, settlesAt }];
}

/**
 * Routes answered as the service answered them, stored under their request (snapshots, gainers and
 * losers: see `SNAPSHOT_PLANS`): the v1 last forex quote and crypto trade; crypto's grouped
 * daily bars (stamped with each day's last trading minute, which daily bars do not hold); indicators
 * (the local route computes them over every stored bar of the ticker, so stored bars of a range do not
 * give the service's values).
 */
const STORED_ANSWERS: readonly OperationSpec[] = [
  groupedDaily('global/market/crypto'),
  sma(),
  ema(),
  rsi(),
  macd(),
  lastForexQuote,
  lastCryptoTrade,
];

/** Decoded request values by wire name. */
type Values = ReadonlyMap<string, DecodedValue>;

/**
 * Whether bars of `ticker` as asked can still change however long ago they were: adjusted stock bars
 * (tickers without a class prefix), which a later split changes.
 */
const splitsMayChange = (ticker: string, values: Values): boolean =>
  !/^[A-Z]:/.test(ticker) && values.get('adjusted') !== false;

/** The market day of a `dateOrMs` bound, `before` it for an exclusive one. */
function boundDay(v: DecodedValue | undefined, tz: string, before: boolean): number | undefined {
  if (v && typeof v === 'object' && 'date' in v) return dayNumber(v.date) - (before ? 1 : 0);
  if (v && typeof v === 'object' && 'ms' in v) return dayNumber(dayOf(v.ms - (before ? 1 : 0), tz));
  return undefined;
}

/**
 * An indicator's values end with the window holding its upper time bound: its day, or the week, month,
 * quarter or year holding it. Without an upper bound, the values reach up to now.
 */
function indicatorSettles(values: Values): number | undefined {
  const ticker = values.get('ticker') as string;
  if (splitsMayChange(ticker, values)) return undefined;
  const tz = marketTimeZone(ticker);
  const bounds = [
    boundDay(values.get('timestamp'), tz, false),
    boundDay(values.get('timestamp.lte'), tz, false),
    boundDay(values.get('timestamp.lt'), tz, true),
  ].filter((d) => d !== undefined);
  if (bounds.length === 0) return undefined;
  const timespan = values.get('timespan') as BarTimespan;
  let last = Math.min(...bounds);
  if (!isIntraday(timespan) && timespan !== 'day') {
    last = periodStartDay(timespan, periodIndex(timespan, last) + 1) - 1;
  }
  return dayEndMs(ticker, 'answer', dayText(last));
}

/**
 * An answer about one date of a market (`*` stocks, `X:*` crypto): final once the date's session has
 * ended, unless it holds adjusted stock bars.
 */
const dateSettles =
  (market: string) =>
  (values: Values): number | undefined =>
    splitsMayChange(market, values)
      ? undefined
      : dayEndMs(market, 'answer', (values.get('date') as { date: string }).date);

/**
 * Stored answers about a past period, by their operation's path: when each can no longer change (see
 * {@link Need.settlesAt}), or undefined when it still can.
 */
const PAST_ANSWERS: ReadonlyMap<string, (values: Values) => number | undefined> = new Map([
  ...[sma(), ema(), rsi(), macd()].map((op) => [op.path, indicatorSettles] as const),
  [groupedDaily('us/market/stocks').path, dateSettles('*')],
  [groupedDaily('global/market/crypto').path, dateSettles('X:*')],
  [cryptoDailyOpenClose.path, dateSettles('X:*')],
]);

/** The legacy v2 ticks of one day, by the kind they read. */
const LEGACY_TICKS = [
  { kind: 'trades', op: legacyTicks('trades') },
  { kind: 'quotes', op: legacyTicks('nbbo') },
] as const;

const tradesOp = tradesV3({ name: 'listTrades' });
const quotesOp = quotesV3({ name: 'listQuotes' });

/** Every route the caching server answers from the store. */
export const ROUTE_PLANS: readonly RoutePlan[] = [
  { op: aggregatesOp, needs: aggregateNeeds },
  { op: openCloseOp, needs: openCloseNeeds },
  { op: prevOp, needs: previousCloseNeeds },
  ...GROUPED.map((g) => ({ op: g.op, needs: (c: Context<AppEnv>) => groupedNeeds(c, g) })),
  ...LEGACY_TICKS.map(({ kind, op }) => ({
    op,
    needs: (c: Context<AppEnv>): Need[] => {
      const req = parseRequest(op, c);
      const ticker = req.values.get('ticker') as string;
      const { date } = req.values.get('date') as { date: string };
      return [{ ticker, kind, accepts: [kind], range: { first: date, last: date } }];
    },
  })),
  { op: tradesOp, needs: (c) => tickNeeds(c, tradesOp, 'trades') },
  { op: quotesOp, needs: (c) => tickNeeds(c, quotesOp, 'quotes') },
  { op: splits, needs: (c) => recordNeeds(c, splits, 'splits') },
  { op: dividends, needs: (c) => recordNeeds(c, dividends, 'dividends') },
  { op: tickerNews, needs: (c) => recordNeeds(c, tickerNews, 'news') },
  { op: stockFinancials, needs: (c) => recordNeeds(c, stockFinancials, 'financials') },
  { op: tickerDetails, needs: detailsNeeds },
  {
    op: relatedCompanies,
    needs: (c) => tickerRecordNeeds(c, relatedCompanies, 'ticker', 'related_companies'),
  },
  { op: tickerEvents, needs: (c) => tickerRecordNeeds(c, tickerEvents, 'id', 'ticker_events') },
  ...LIVE.map((l) => ({ op: l.op, needs: (c: Context<AppEnv>) => liveNeeds(c, l) })),
  { op: tickers, needs: tickersNeeds },
  { op: optionContracts, needs: contractsNeeds },
  { op: ipos, needs: iposNeeds },
  { op: iposV1, needs: iposV1Needs },
  ...STORED_ANSWERS.map((op) => ({ op, needs: (c: Context<AppEnv>) => answerNeeds(c, op) })),
  ...SNAPSHOT_PLANS,
  ...FUTURES_PLANS,
  // Crypto's open and close of a day, with its first and last trades: an answer, final once the day ends.
  { op: cryptoDailyOpenClose, needs: (c) => answerNeeds(c, cryptoDailyOpenClose) },
];
