import type { OperationCase } from '../client-cases.js';

const indicatorQuery = (window: [string, string][]): [string, string][] => [
  ['timespan', 'day'],
  ['adjusted', 'true'],
  ['series_type', 'close'],
  ['expand_underlying', 'false'],
  ['order', 'desc'],
  ['limit', '5000'],
  ...window,
];

/** Every Forex operation (SPEC 4.6): `C:` optional wherever a combined symbol is taken. */
export const forexCases: OperationCase[] = [
  {
    method: 'realTimeCurrencyConversion',
    args: ['aud', 'USD', 100],
    path: '/v1/conversion/AUD/USD',
    query: [
      ['amount', '100'],
      ['precision', '2'],
    ],
    recorded: 'v1/conversion/AUD/USD&amount=100&precision=2.json',
  },
  {
    method: 'realTimeCurrencyConversion',
    args: ['USD', 'EUR', 12.5, { precision: 4 }],
    path: '/v1/conversion/USD/EUR',
    query: [
      ['amount', '12.5'],
      ['precision', '4'],
    ],
    example: 'GetCurrencyConversion',
  },
  {
    method: 'getHistoricForexTicks',
    args: ['EUR', 'usd', '2020-10-14'],
    path: '/v1/historic/forex/EUR/USD/2020-10-14',
    query: [['limit', '500']],
    example: 'DeprecatedGetHistoricForexQuotes',
  },
  {
    method: 'getHistoricForexTicks',
    args: ['EUR', 'USD', new Date(Date.UTC(2020, 9, 14)), { offset: 1602633600123, limit: 10000 }],
    path: '/v1/historic/forex/EUR/USD/2020-10-14',
    query: [
      ['offset', '1602633600123'],
      ['limit', '10000'],
    ],
  },
  {
    method: 'getHistoricForexTicks',
    args: ['EUR', 'USD', '2020-10-14', { offset: '1602633600123' }],
    path: '/v1/historic/forex/EUR/USD/2020-10-14',
    query: [
      ['offset', '1602633600123'],
      ['limit', '500'],
    ],
  },
  {
    method: 'getQuotes',
    args: ['eurusd'],
    path: '/v3/quotes/C:EURUSD',
    query: [['limit', '5000']],
    example: 'GetForexQuotes',
  },
  {
    method: 'getQuotes',
    args: ['C:EURUSD', { timestampGt: 1602633600000000000n, order: 'asc', sort: 'timestamp', limit: 50000 }],
    path: '/v3/quotes/C:EURUSD',
    query: [
      ['timestamp.gt', '1602633600000000000'],
      ['order', 'asc'],
      ['sort', 'timestamp'],
      ['limit', '50000'],
    ],
  },
  {
    method: 'getLastQuote',
    args: ['AUD', 'USD'],
    path: '/v1/last_quote/currencies/AUD/USD',
    query: [],
    recorded: 'v1/last_quote/currencies/AUD/USD.json',
  },
  {
    method: 'getAggregateBars',
    args: ['EURUSD', '2023-01-09', '2023-01-09', { multiplier: 1, timespan: 'hour' }],
    path: '/v2/aggs/ticker/C:EURUSD/range/1/hour/2023-01-09/2023-01-09',
    query: [
      ['adjusted', 'true'],
      ['sort', 'asc'],
      ['limit', '5000'],
    ],
    example: 'GetForexAggregates',
  },
  {
    method: 'getGroupedDailyBars',
    args: ['2023-01-09', { adjusted: false }],
    path: '/v2/aggs/grouped/locale/global/market/fx/2023-01-09',
    query: [['adjusted', 'false']],
    example: 'GetGroupedForexAggregates',
  },
  {
    method: 'getPreviousClose',
    args: ['usdcad'],
    path: '/v2/aggs/ticker/C:USDCAD/prev',
    query: [['adjusted', 'true']],
    example: 'GetPreviousForexAggregates',
  },
  {
    method: 'getSnapshot',
    args: ['EURUSD'],
    path: '/v2/snapshot/locale/global/markets/forex/tickers/C:EURUSD',
    query: [],
    example: 'GetForexSnapshotTicker',
  },
  {
    method: 'getSnapshotAll',
    args: [{ symbols: ['eurusd', 'C:GBPUSD'] }],
    path: '/v2/snapshot/locale/global/markets/forex/tickers',
    query: [['tickers', 'C:EURUSD,C:GBPUSD']],
    example: 'GetForexSnapshotTickers',
  },
  {
    method: 'getSnapshotAll',
    args: [],
    path: '/v2/snapshot/locale/global/markets/forex/tickers',
    query: [],
  },
  {
    method: 'getGainersAndLosers',
    args: [],
    path: '/v2/snapshot/locale/global/markets/forex/gainers',
    query: [],
    example: 'GetForexSnapshotDirection',
  },
  {
    method: 'getGainersAndLosers',
    args: [{ direction: 'losers' }],
    path: '/v2/snapshot/locale/global/markets/forex/losers',
    query: [],
  },
  {
    method: 'getSma',
    args: ['EURUSD'],
    path: '/v1/indicators/sma/C:EURUSD',
    query: indicatorQuery([['window', '50']]),
    example: 'GetStocksSMA',
  },
  {
    method: 'getEma',
    args: ['C:EURUSD', { seriesType: 'high', includeUnderlying: true }],
    path: '/v1/indicators/ema/C:EURUSD',
    query: [
      ['timespan', 'day'],
      ['adjusted', 'true'],
      ['series_type', 'high'],
      ['expand_underlying', 'true'],
      ['order', 'desc'],
      ['limit', '5000'],
      ['window', '50'],
    ],
    example: 'GetStocksEMA',
  },
  {
    method: 'getRsi',
    args: ['gbpusd'],
    path: '/v1/indicators/rsi/C:GBPUSD',
    query: indicatorQuery([['window', '14']]),
    example: 'GetStocksRSI',
  },
  {
    method: 'getMacd',
    args: ['EURUSD', { signalWindowSize: 5 }],
    path: '/v1/indicators/macd/C:EURUSD',
    query: indicatorQuery([['signal_window', '5']]),
    example: 'GetStocksMACD',
  },
];
