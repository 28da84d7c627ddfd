import { defineOperation, t } from '../core/operation.js';
import { enumFilters, sortBy } from './common.js';

/**
 * The futures operations, in either path generation: `v1` (current) or `vX` (the older one, same
 * parameters and answers). Only what the caller gives is sent: the service's defaults apply otherwise.
 */

/** Path generations of the futures endpoints. */
export const FUTURES_VERSIONS = ['v1', 'vX'] as const;
/** `v1` (current) or `vX` (the older generation). */
export type FuturesVersion = (typeof FUTURES_VERSIONS)[number];

export const CONTRACT_TYPES = ['single', 'combo'] as const;
export const FUTURES_SECTORS = [
  'asia',
  'base',
  'biofuels',
  'coal',
  'cross_rates',
  'crude_oil',
  'custom_index',
  'dairy',
  'dj_ubs_ci',
  'electricity',
  'emissions',
  'europe',
  'fertilizer',
  'forestry',
  'grains_and_oilseeds',
  'intl_index',
  'liq_nat_gas_lng',
  'livestock',
  'long_term_gov',
  'long_term_non_gov',
  'majors',
  'minors',
  'nat_gas',
  'nat_gas_liq_petro',
  'precious',
  'refined_products',
  's_and_p_gsci',
  'sel_sector_index',
  'short_term_gov',
  'short_term_non_gov',
  'softs',
  'us',
  'us_index',
  'wet_bulk',
] as const;
export const FUTURES_SUB_SECTORS = [
  'asian',
  'canadian',
  'cat',
  'cooling_degree_days',
  'ercot',
  'european',
  'gulf',
  'heating_degree_days',
  'iso_ne',
  'large_cap_index',
  'mid_cap_index',
  'miso',
  'north_american',
  'nyiso',
  'pjm',
  'small_cap_index',
  'west',
  'western_power',
] as const;
export const FUTURES_ASSET_CLASSES = ['alt_investment', 'commodity', 'financials'] as const;
export const FUTURES_ASSET_SUB_CLASSES = [
  'agricultural',
  'commodity_index',
  'energy',
  'equity',
  'foreign_exchange',
  'freight',
  'housing',
  'interest_rate',
  'metals',
  'weather',
] as const;

/**
 * Candle sizes of futures aggregates: a multiplier and a unit. Minutes and seconds go up to 59, hours
 * to 23, months to 11 and quarters to 3 (the next unit takes over from there); sessions, weeks and years
 * take a multiplier up to 9999.
 */
export const FUTURES_RESOLUTION =
  /^(?:(?:[1-9]|[1-5]\d)(?:sec|min)|(?:[1-9]|1\d|2[0-3])hour|(?:[1-9]|1[01])month|[1-3]quarter|[1-9]\d{0,3}(?:session|week|year))$/;
const RESOLUTION_ALLOWED =
  'a multiplier and a unit: 1-59sec, 1-59min, 1-23hour, 1-9999session, 1-9999week, 1-11month, 1-3quarter or 1-9999year, e.g. 1min, 5min, 1hour, 1session, 1week';

/** The resolution unit of each timespan of aggregate bars: a day bar of a contract is one session. */
export const FUTURES_RESOLUTION_UNITS = {
  second: 'sec',
  minute: 'min',
  hour: 'hour',
  day: 'session',
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
} as const;

/**
 * The futures resolution of bars of `multiplier` × `timespan` (a timespan of aggregate bars): `1sec`,
 * `5min`, `1session`…; undefined for a timespan futures have no unit for.
 */
export function futuresResolution(multiplier: number, timespan: string): string | undefined {
  const unit = (FUTURES_RESOLUTION_UNITS as Readonly<Record<string, string>>)[timespan];
  return unit === undefined ? undefined : `${multiplier}${unit}`;
}

type RangeType = ReturnType<typeof t.string> | ReturnType<typeof t.date> | ReturnType<typeof t.nsTimestamp>;

/** `<wire>.gt/.gte/.lt/.lte` of a field, named `<name>Gt` and so on. */
function ranges<const N extends string, const W extends string, const T extends RangeType>(
  name: N,
  wire: W,
  type: T,
) {
  return [
    { name: `${name}Gt`, wire: `${wire}.gt`, in: 'query', type, doc: `${wire} strictly greater than.` },
    { name: `${name}Gte`, wire: `${wire}.gte`, in: 'query', type, doc: `${wire} greater than or equal.` },
    { name: `${name}Lt`, wire: `${wire}.lt`, in: 'query', type, doc: `${wire} strictly less than.` },
    { name: `${name}Lte`, wire: `${wire}.lte`, in: 'query', type, doc: `${wire} less than or equal.` },
  ] as const;
}

/** A text field: the exact value, `.any_of` (comma-separated, upper-cased) and the range bounds. */
function codeFilters<const N extends string, const W extends string>(name: N, wire: W, doc: string) {
  return [
    { name, wire, in: 'query', type: t.string(), doc },
    {
      name: `${name}AnyOf`,
      wire: `${wire}.any_of`,
      in: 'query',
      type: t.list(),
      doc: `Any of these ${wire}s.`,
    },
    ...ranges(name, wire, t.string()),
  ] as const;
}

/** A date field: the exact `YYYY-MM-DD` and its range bounds. */
function dateFilters<const N extends string, const W extends string>(name: N, wire: W, doc: string) {
  return [{ name, wire, in: 'query', type: t.date(), doc }, ...ranges(name, wire, t.date())] as const;
}

const limit = (max: number, serviceDefault: number) =>
  ({
    name: 'limit',
    wire: 'limit',
    in: 'query',
    type: t.int(1, max),
    doc: `Results per page, 1 to ${max} (service default ${serviceDefault}).`,
  }) as const;

const contractTicker = {
  name: 'ticker',
  wire: 'ticker',
  in: 'path',
  type: t.ticker(),
  required: true,
  doc: 'Contract ticker: product code, month code, year (`ESZ3`, `GCJ5`).',
} as const;

const sessionEndDate = {
  name: 'sessionEndDate',
  wire: 'session_end_date',
  in: 'query',
  type: t.date(),
  doc: 'Trading date: the day the trading session ends (`YYYY-MM-DD`).',
} as const;

const timestampFilters = [
  {
    name: 'timestamp',
    wire: 'timestamp',
    in: 'query',
    type: t.nsTimestamp(),
    doc: 'Exact day (`YYYY-MM-DD`), RFC 3339 time or nanosecond timestamp.',
  },
  ...ranges('timestamp', 'timestamp', t.nsTimestamp()),
] as const;

const TICK_COLUMNS = ['timestamp', 'sequence_number', 'report_sequence', 'session_end_date'] as const;

/** Every futures operation of one path generation. */
export function futuresOperationsOf(version: FuturesVersion) {
  const base = `/futures/${version}`;
  return {
    getAggregates: defineOperation({
      name: 'getAggregates',
      path: `${base}/aggs/{ticker}`,
      paging: 'next_url',
      doc: 'Aggregate bars (OHLCV candles) of a contract at a resolution (1min, 1hour, 1session…).',
      params: [
        contractTicker,
        {
          name: 'resolution',
          wire: 'resolution',
          in: 'query',
          type: t.string(FUTURES_RESOLUTION, RESOLUTION_ALLOWED),
          doc: 'Candle size: 1min, 5min, 1hour, 1session, 1week… (service default 1session).',
        },
        {
          name: 'windowStart',
          wire: 'window_start',
          in: 'query',
          type: t.nsTimestamp(),
          doc: 'Candle start: a `YYYY-MM-DD` date or nanosecond timestamp (snapped to the candle).',
        },
        ...ranges('windowStart', 'window_start', t.nsTimestamp()),
        limit(50000, 1000),
        {
          name: 'sort',
          wire: 'sort',
          in: 'query',
          type: t.enum(['window_start.asc', 'window_start.desc'], {
            asc: 'window_start.asc',
            desc: 'window_start.desc',
          }),
          doc: 'Order by window_start (service default window_start.desc).',
        },
      ],
    }),
    getContracts: defineOperation({
      name: 'getContracts',
      path: `${base}/contracts`,
      paging: 'next_url',
      doc: 'Futures contracts as of a date: trade dates, tick sizes, venue.',
      params: [
        ...dateFilters('date', 'date', 'Point-in-time date of the contract facts (`YYYY-MM-DD`).'),
        ...codeFilters('productCode', 'product_code', 'Product code, e.g. `ES`.'),
        ...codeFilters('ticker', 'ticker', 'Contract ticker, e.g. `ESZ3`.'),
        {
          name: 'active',
          wire: 'active',
          in: 'query',
          type: t.boolean(),
          doc: 'Only contracts still trading.',
        },
        ...enumFilters('type', 'type', CONTRACT_TYPES),
        ...dateFilters('firstTradeDate', 'first_trade_date', 'First trade date (`YYYY-MM-DD`).'),
        ...dateFilters('lastTradeDate', 'last_trade_date', 'Last trade date (`YYYY-MM-DD`).'),
        limit(1001, 100),
        sortBy(
          [
            'product_code',
            'ticker',
            'date',
            'first_trade_date',
            'last_trade_date',
            'settlement_date',
            'days_to_maturity',
            'name',
            'trading_venue',
            'type',
            'active',
          ],
          'product_code.asc',
        ),
      ],
    }),
    getProducts: defineOperation({
      name: 'getProducts',
      path: `${base}/products`,
      paging: 'next_url',
      doc: 'Futures products: name, venue, sector, asset class, settlement.',
      params: [
        { name: 'name', wire: 'name', in: 'query', type: t.string(), doc: 'Product name.' },
        {
          name: 'nameAnyOf',
          wire: 'name.any_of',
          in: 'query',
          type: t.string(),
          doc: 'Any of these product names, comma separated (sent as given).',
        },
        ...ranges('name', 'name', t.string()),
        ...codeFilters('productCode', 'product_code', 'Product code, e.g. `ES`.'),
        ...dateFilters('date', 'date', 'Point-in-time date of the product facts (`YYYY-MM-DD`).'),
        ...codeFilters('tradingVenue', 'trading_venue', 'Trading venue (MIC), e.g. `XCME`.'),
        ...enumFilters('sector', 'sector', FUTURES_SECTORS),
        ...enumFilters('subSector', 'sub_sector', FUTURES_SUB_SECTORS),
        ...enumFilters('assetClass', 'asset_class', FUTURES_ASSET_CLASSES),
        ...enumFilters('assetSubClass', 'asset_sub_class', FUTURES_ASSET_SUB_CLASSES),
        ...enumFilters('type', 'type', CONTRACT_TYPES),
        limit(50001, 100),
        sortBy(
          [
            'date',
            'product_code',
            'name',
            'trading_venue',
            'sector',
            'sub_sector',
            'asset_class',
            'asset_sub_class',
            'type',
            'last_updated',
          ],
          'date.asc',
        ),
      ],
    }),
    getSchedules: defineOperation({
      name: 'getSchedules',
      path: `${base}/schedules`,
      paging: 'next_url',
      doc: 'Trading session events (open, close…) of futures products by trading date.',
      params: [
        ...codeFilters('productCode', 'product_code', 'Product code, e.g. `ES`.'),
        ...dateFilters('sessionEndDate', 'session_end_date', sessionEndDate.doc),
        ...codeFilters('tradingVenue', 'trading_venue', 'Trading venue (MIC), e.g. `XCME`.'),
        limit(1001, 10),
        sortBy(
          ['product_code', 'session_end_date', 'trading_venue', 'timestamp', 'event', 'product_name'],
          'product_code.asc',
        ),
      ],
    }),
    getMarketStatus: defineOperation({
      name: 'getMarketStatus',
      path: `${base}/market-status`,
      paging: 'next_url',
      doc: 'Current market state (open, closed…) of futures products.',
      params: [...codeFilters('productCode', 'product_code', 'Product code, e.g. `ES`.'), limit(100, 10)],
    }),
    getExchanges: defineOperation({
      name: 'getExchanges',
      path: `${base}/exchanges`,
      paging: 'next_url',
      doc: 'The exchanges futures trade on.',
      params: [limit(1000, 100)],
    }),
    getSnapshot: defineOperation({
      name: 'getSnapshot',
      path: `${base}/snapshot`,
      paging: 'next_url',
      doc: 'Latest trade, quote, minute bar and session of futures contracts.',
      params: [
        ...codeFilters('productCode', 'product_code', 'Product code, e.g. `ES`.'),
        ...codeFilters('ticker', 'ticker', 'Contract ticker, e.g. `ESZ3`.'),
        limit(50001, 100),
        sortBy(['ticker', 'product_code'], 'ticker.asc'),
      ],
    }),
    getTrades: defineOperation({
      name: 'getTrades',
      path: `${base}/trades/{ticker}`,
      paging: 'next_url',
      doc: 'Trades of a contract, with nanosecond timestamps.',
      params: [
        contractTicker,
        ...timestampFilters,
        sessionEndDate,
        limit(50000, 10),
        sortBy(TICK_COLUMNS, 'timestamp.desc'),
      ],
    }),
    getQuotes: defineOperation({
      name: 'getQuotes',
      path: `${base}/quotes/{ticker}`,
      paging: 'next_url',
      doc: 'Top-of-book quotes of a contract, with nanosecond timestamps.',
      params: [
        contractTicker,
        ...timestampFilters,
        sessionEndDate,
        limit(50000, 100),
        sortBy(TICK_COLUMNS, 'timestamp.desc'),
      ],
    }),
  } as const;
}

/** The futures operations of the current generation (`/futures/v1/...`). */
export const futuresOperations = futuresOperationsOf('v1');
/** The futures operations of the older generation (`/futures/vX/...`). */
export const futuresOperationsVX = futuresOperationsOf('vX');
