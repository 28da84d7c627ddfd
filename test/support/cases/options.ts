import type { OperationCase } from '../client-cases.js';

const CONTRACT = 'O:SPY251219C00650000';
const indicatorQuery = (window: [string, string][]): [string, string][] => [
  ['timespan', 'day'],
  ['adjusted', 'true'],
  ['series_type', 'close'],
  ['expand_underlying', 'false'],
  ['order', 'desc'],
  ['limit', '5000'],
  ...window,
];

/** Every Options operation (SPEC 4.4): `O:` is added when missing, the symbol upper-cased. */
export const optionsCases: OperationCase[] = [
  {
    method: 'getTrades',
    args: [
      'tsla210903c00700000',
      { timestampGte: '2021-09-01', timestampLt: 1630713600000000000n, limit: 10 },
    ],
    path: '/v3/trades/O:TSLA210903C00700000',
    query: [
      ['timestamp.lt', '1630713600000000000'],
      ['timestamp.gte', '2021-09-01'],
      ['order', 'asc'],
      ['sort', 'timestamp'],
      ['limit', '10'],
    ],
    example: 'GetOptionsTrades',
  },
  {
    method: 'getTrades',
    args: [CONTRACT, { timestamp: '2024-01-02', order: 'desc' }],
    path: `/v3/trades/${CONTRACT}`,
    query: [
      ['timestamp', '2024-01-02'],
      ['order', 'desc'],
      ['sort', 'timestamp'],
      ['limit', '5000'],
    ],
  },
  {
    method: 'getQuotes',
    args: ['o:spy251219c00650000', { timestampLte: new Date(Date.UTC(2024, 0, 2, 15, 30)) }],
    path: `/v3/quotes/${CONTRACT}`,
    query: [
      ['timestamp.lte', '1704209400000000000'],
      ['order', 'asc'],
      ['sort', 'timestamp'],
      ['limit', '5000'],
    ],
    example: 'GetOptionsQuotes',
  },
  {
    method: 'getLastTrade',
    args: ['TSLA210903C00700000'],
    path: '/v2/last/trade/O:TSLA210903C00700000',
    query: [],
    example: 'GetLastOptionsTrade',
  },
  {
    method: 'getDailyOpenClose',
    args: ['SPY251219C00650000', '2023-01-09'],
    path: `/v1/open-close/${CONTRACT}/2023-01-09`,
    query: [['adjusted', 'true']],
    example: 'GetOptionsOpenClose',
  },
  {
    method: 'getAggregateBars',
    args: [CONTRACT, '2023-01-09', '2023-02-10'],
    path: `/v2/aggs/ticker/${CONTRACT}/range/1/day/2023-01-09/2023-02-10`,
    query: [
      ['adjusted', 'true'],
      ['sort', 'asc'],
      ['limit', '5000'],
    ],
    example: 'GetOptionsAggregates',
  },
  {
    method: 'getAggregateBars',
    args: [
      'spy251219c00650000',
      1673274600000,
      1673298000000,
      { multiplier: 15, timespan: 'min', adjusted: false, sort: 'desc', limit: 120 },
    ],
    path: `/v2/aggs/ticker/${CONTRACT}/range/15/minute/1673274600000/1673298000000`,
    query: [
      ['adjusted', 'false'],
      ['sort', 'desc'],
      ['limit', '120'],
    ],
  },
  {
    method: 'getSnapshot',
    args: ['aapl', 'AAPL230616C00150000'],
    path: '/v3/snapshot/options/AAPL/O:AAPL230616C00150000',
    query: [],
    recorded: 'v3/snapshot/options/AAPL/O;AAPL230616C00150000.json',
  },
  {
    method: 'getSnapshot',
    args: ['AAPL', 'O:AAPL230616C00150000', { allPages: true, maxPages: null, verbose: false }],
    path: '/v3/snapshot/options/AAPL/O:AAPL230616C00150000',
    query: [],
    recorded: 'v3/snapshot/options/AAPL/O;AAPL230616C00150000.json',
  },
  {
    method: 'getSnapshotChain',
    args: ['AAPL'],
    path: '/v3/snapshot/options/AAPL',
    query: [['limit', '250']],
    recorded: 'v3/snapshot/options/AAPL.json',
  },
  {
    method: 'getSnapshotChain',
    args: [
      'AAPL',
      { strikePriceGte: 150, expirationDate: '2023-06-16', contractType: 'call', sort: 'strike_price' },
    ],
    path: '/v3/snapshot/options/AAPL',
    query: [
      ['strike_price.gte', '150'],
      ['expiration_date', '2023-06-16'],
      ['contract_type', 'call'],
      ['limit', '250'],
      ['sort', 'strike_price'],
    ],
    example: 'GetOptionsChain',
  },
  {
    method: 'getPreviousClose',
    args: [CONTRACT, { adjusted: false }],
    path: `/v2/aggs/ticker/${CONTRACT}/prev`,
    query: [['adjusted', 'false']],
    example: 'GetPreviousOptionsAggregates',
  },
  {
    method: 'getSma',
    args: ['SPY251219C00650000', { windowSize: 10 }],
    path: `/v1/indicators/sma/${CONTRACT}`,
    query: indicatorQuery([['window', '10']]),
    example: 'GetStocksSMA',
  },
  {
    method: 'getEma',
    args: [CONTRACT],
    path: `/v1/indicators/ema/${CONTRACT}`,
    query: indicatorQuery([['window', '50']]),
    example: 'GetStocksEMA',
  },
  {
    method: 'getRsi',
    args: [CONTRACT, { timestampGte: '2023-01-01' }],
    path: `/v1/indicators/rsi/${CONTRACT}`,
    query: [['timestamp.gte', '2023-01-01'], ...indicatorQuery([['window', '14']])],
    example: 'GetStocksRSI',
  },
  {
    method: 'getMacd',
    args: [CONTRACT, { shortWindowSize: 12, longWindowSize: 26, signalWindowSize: 9 }],
    path: `/v1/indicators/macd/${CONTRACT}`,
    query: indicatorQuery([
      ['short_window', '12'],
      ['long_window', '26'],
      ['signal_window', '9'],
    ]),
    example: 'GetStocksMACD',
  },
];
