/**
 * The enumerations the operations take. Each is a frozen object of its values (`Timespan.Minute` is
 * `'minute'`) and a type of the same name; plain strings are accepted wherever an enumeration is.
 */

export const Timespan = {
  Second: 'second',
  Minute: 'minute',
  /** Alias of `minute`, the default of the full-range operations. */
  Min: 'min',
  Hour: 'hour',
  Day: 'day',
  Week: 'week',
  Month: 'month',
  Quarter: 'quarter',
  Year: 'year',
} as const;
export type Timespan = (typeof Timespan)[keyof typeof Timespan];

/** The bar timespans the service takes on the wire. */
export const TIMESPANS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
/** Indicators are computed on these timespans only. */
export const INDICATOR_TIMESPANS = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;

export const SortOrder = { Asc: 'asc', Desc: 'desc' } as const;
export type SortOrder = (typeof SortOrder)[keyof typeof SortOrder];
export const SORT_ORDERS = ['asc', 'desc'] as const;

export const SeriesType = { Open: 'open', High: 'high', Low: 'low', Close: 'close' } as const;
export type SeriesType = (typeof SeriesType)[keyof typeof SeriesType];
export const SERIES_TYPES = ['open', 'high', 'low', 'close'] as const;

export const PaginationDirection = { Next: 'next', Previous: 'previous' } as const;
export type PaginationDirection = (typeof PaginationDirection)[keyof typeof PaginationDirection];

export const SnapshotDirection = { Gainers: 'gainers', Losers: 'losers' } as const;
export type SnapshotDirection = (typeof SnapshotDirection)[keyof typeof SnapshotDirection];
export const SNAPSHOT_DIRECTIONS = ['gainers', 'losers'] as const;

/** Sort keys of trades and quotes: the service sorts them by timestamp only. */
export const StocksTradesSort = { Timestamp: 'timestamp' } as const;
export type StocksTradesSort = (typeof StocksTradesSort)[keyof typeof StocksTradesSort];
export const StocksQuotesSort = StocksTradesSort;
export type StocksQuotesSort = StocksTradesSort;
export const OptionTradesSort = StocksTradesSort;
export type OptionTradesSort = StocksTradesSort;
export const OptionQuotesSort = StocksTradesSort;
export type OptionQuotesSort = StocksTradesSort;
export const ForexQuotesSort = StocksTradesSort;
export type ForexQuotesSort = StocksTradesSort;
export const CryptoTradesSort = StocksTradesSort;
export type CryptoTradesSort = StocksTradesSort;
export const TIMESTAMP_SORT = ['timestamp'] as const;

export const IndexSnapshotSortKey = { Ticker: 'ticker' } as const;
export type IndexSnapshotSortKey = (typeof IndexSnapshotSortKey)[keyof typeof IndexSnapshotSortKey];

export const OptionsContractType = { Call: 'call', Put: 'put' } as const;
export type OptionsContractType = (typeof OptionsContractType)[keyof typeof OptionsContractType];

export const OptionsContractsSortType = {
  Ticker: 'ticker',
  UnderlyingTicker: 'underlying_ticker',
  ExpirationDate: 'expiration_date',
  StrikePrice: 'strike_price',
} as const;
export type OptionsContractsSortType =
  (typeof OptionsContractsSortType)[keyof typeof OptionsContractsSortType];

export const TickerMarketType = {
  Stocks: 'stocks',
  Crypto: 'crypto',
  Forex: 'fx',
  Otc: 'otc',
  Indices: 'indices',
} as const;
export type TickerMarketType = (typeof TickerMarketType)[keyof typeof TickerMarketType];

export const AssetClass = {
  Stocks: 'stocks',
  Options: 'options',
  Forex: 'fx',
  Crypto: 'crypto',
  Indices: 'indices',
} as const;
export type AssetClass = (typeof AssetClass)[keyof typeof AssetClass];

export const Locale = { Us: 'us', Global: 'global' } as const;
export type Locale = (typeof Locale)[keyof typeof Locale];
