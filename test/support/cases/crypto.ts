import type { OperationCase } from '../client-cases.js';

/** Crypto indicators send no `adjusted` (the API has none for crypto); they accept it (SPEC 4.1 I). */
const indicatorQuery = (window: [string, string][]): [string, string][] => [
  ['timespan', 'day'],
  ['series_type', 'close'],
  ['expand_underlying', 'false'],
  ['order', 'desc'],
  ['limit', '5000'],
  ...window,
];

/** Every Crypto operation (the reference library's list; SPEC 4.7): `X:` optional. */
export const cryptoCases: OperationCase[] = [
  {
    method: 'getHistoricTrades',
    args: ['btc', 'usd', '2020-10-14', { limit: 100 }],
    path: '/v1/historic/crypto/BTC/USD/2020-10-14',
    query: [['limit', '100']],
    example: 'DeprecatedGetHistoricCryptoTrades',
  },
  {
    method: 'getHistoricTrades',
    args: ['BTC', 'USD', '2022-06-28', { offset: 1656374400000 }],
    path: '/v1/historic/crypto/BTC/USD/2022-06-28',
    query: [
      ['offset', '1656374400000'],
      ['limit', '500'],
    ],
  },
  {
    method: 'getTrades',
    args: ['btcusd', { timestampLt: 1656430200000000000n }],
    path: '/v3/trades/X:BTCUSD',
    query: [
      ['timestamp.lt', '1656430200000000000'],
      ['limit', '5000'],
    ],
    example: 'GetCryptoTrades',
  },
  {
    method: 'getLastTrade',
    args: ['BTC', 'USD'],
    path: '/v1/last/crypto/BTC/USD',
    query: [],
    recorded: 'v1/last/crypto/BTC/USD.json',
  },
  {
    method: 'getDailyOpenClose',
    args: ['btc', 'usd', '2023-01-09'],
    path: '/v1/open-close/crypto/BTC/USD/2023-01-09',
    query: [['adjusted', 'true']],
    example: 'GetCryptoOpenClose',
  },
  {
    method: 'getAggregateBars',
    args: ['X:BTCUSD', '2023-01-09', '2023-01-10', { timespan: 'minute', multiplier: 5 }],
    path: '/v2/aggs/ticker/X:BTCUSD/range/5/minute/2023-01-09/2023-01-10',
    query: [
      ['adjusted', 'true'],
      ['sort', 'asc'],
      ['limit', '5000'],
    ],
    example: 'GetCryptoAggregates',
  },
  {
    method: 'getGroupedDailyBars',
    args: ['2023-01-09'],
    path: '/v2/aggs/grouped/locale/global/market/crypto/2023-01-09',
    query: [['adjusted', 'true']],
    example: 'GetGroupedCryptoAggregates',
  },
  {
    method: 'getPreviousClose',
    args: ['btcusd'],
    path: '/v2/aggs/ticker/X:BTCUSD/prev',
    query: [['adjusted', 'true']],
    example: 'GetPreviousCryptoAggregates',
  },
  {
    method: 'getSnapshot',
    args: ['BTCUSD'],
    path: '/v2/snapshot/locale/global/markets/crypto/tickers/X:BTCUSD',
    query: [],
    example: 'GetCryptoSnapshotTicker',
  },
  {
    method: 'getSnapshotAll',
    args: [{ symbols: 'btcusd, X:ETHUSD' }],
    path: '/v2/snapshot/locale/global/markets/crypto/tickers',
    query: [['tickers', 'X:BTCUSD,X:ETHUSD']],
    example: 'GetCryptoSnapshotTickers',
  },
  {
    method: 'getGainersAndLosers',
    args: [{ direction: 'gainers' }],
    path: '/v2/snapshot/locale/global/markets/crypto/gainers',
    query: [],
    example: 'GetCryptoSnapshotDirection',
  },
  {
    method: 'getLevel2Book',
    args: ['btcusd'],
    path: '/v2/snapshot/locale/global/markets/crypto/tickers/X:BTCUSD/book',
    query: [],
    recorded: 'v2/snapshot/locale/global/markets/crypto/tickers/X;BTCUSD/book.json',
  },
  {
    method: 'getSma',
    args: ['BTCUSD'],
    path: '/v1/indicators/sma/X:BTCUSD',
    query: indicatorQuery([['window', '50']]),
    example: 'GetStocksSMA',
  },
  {
    method: 'getEma',
    args: ['X:BTCUSD', { windowSize: 10, timestampLt: '2023-01-09' }],
    path: '/v1/indicators/ema/X:BTCUSD',
    query: [['timestamp.lt', '2023-01-09'], ...indicatorQuery([['window', '10']])],
    example: 'GetStocksEMA',
  },
  {
    method: 'getSma',
    args: ['BTCUSD', { adjusted: false }],
    path: '/v1/indicators/sma/X:BTCUSD',
    query: indicatorQuery([['window', '50']]),
  },
  {
    method: 'getEma',
    args: ['btcusd', { adjusted: true, windowSize: 20 }],
    path: '/v1/indicators/ema/X:BTCUSD',
    query: indicatorQuery([['window', '20']]),
  },
  {
    method: 'getRsi',
    args: ['ethusd'],
    path: '/v1/indicators/rsi/X:ETHUSD',
    query: indicatorQuery([['window', '14']]),
    example: 'GetStocksRSI',
  },
  {
    method: 'getMacd',
    args: ['X:ETHUSD', { longWindowSize: 30 }],
    path: '/v1/indicators/macd/X:ETHUSD',
    query: indicatorQuery([['long_window', '30']]),
    example: 'GetStocksMACD',
  },
];
