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

/**
 * Every Indices operation (SPEC 4.5): `I:` optional. The aggregates take `adjusted` and never send it;
 * the snapshot sends `limit` 250 (the API's maximum) and `order` asc unless told otherwise.
 */
export const indicesCases: OperationCase[] = [
  {
    method: 'getPreviousClose',
    args: ['spx'],
    path: '/v2/aggs/ticker/I:SPX/prev',
    query: [],
    example: 'GetPreviousIndicesAggregates',
  },
  {
    method: 'getDailyOpenClose',
    args: ['I:NDX', '2023-03-10'],
    path: '/v1/open-close/I:NDX/2023-03-10',
    query: [],
    example: 'GetIndicesOpenClose',
  },
  {
    method: 'getAggregateBars',
    args: ['SPX', '2023-03-10', '2023-03-13'],
    path: '/v2/aggs/ticker/I:SPX/range/1/day/2023-03-10/2023-03-13',
    query: [
      ['sort', 'asc'],
      ['limit', '5000'],
    ],
    example: 'GetIndicesAggregates',
  },
  {
    method: 'getAggregateBars',
    args: [
      'I:SPX',
      '2023-03-10',
      '2023-03-10',
      { adjusted: true, timespan: 'hour', multiplier: 2, sort: 'desc' },
    ],
    path: '/v2/aggs/ticker/I:SPX/range/2/hour/2023-03-10/2023-03-10',
    query: [
      ['sort', 'desc'],
      ['limit', '5000'],
    ],
  },
  {
    method: 'getSnapshot',
    args: [{ symbols: ['SPX', 'APx', 'APy'] }],
    path: '/v3/snapshot/indices',
    query: [
      ['ticker.any_of', 'I:SPX,I:APX,I:APY'],
      ['order', 'asc'],
      ['limit', '250'],
      ['sort', 'ticker'],
    ],
    recorded: 'v3/snapshot/indices&ticker.any_of=SPX%2CAPx%2CAPy.json',
  },
  {
    method: 'getSnapshot',
    args: [{ symbols: 'i:spx, NDX', order: 'desc', limit: 10, tickerGt: 'I:A', tickerLte: 'I:Z' }],
    path: '/v3/snapshot/indices',
    query: [
      ['ticker.any_of', 'I:SPX,I:NDX'],
      ['order', 'desc'],
      ['limit', '10'],
      ['sort', 'ticker'],
      ['ticker.lte', 'I:Z'],
      ['ticker.gt', 'I:A'],
    ],
    example: 'GetIndicesSnapshot',
  },
  {
    method: 'getSnapshot',
    args: [{ symbols: Array.from({ length: 250 }, (_, i) => `IX${i}`) }],
    path: '/v3/snapshot/indices',
    query: [
      ['ticker.any_of', Array.from({ length: 250 }, (_, i) => `I:IX${i}`).join(',')],
      ['order', 'asc'],
      ['limit', '250'],
      ['sort', 'ticker'],
    ],
  },
  {
    method: 'getSma',
    args: ['SPX'],
    path: '/v1/indicators/sma/I:SPX',
    query: indicatorQuery([['window', '50']]),
    example: 'GetStocksSMA',
  },
  {
    method: 'getEma',
    args: ['I:SPX', { timespan: 'week', windowSize: 20 }],
    path: '/v1/indicators/ema/I:SPX',
    query: [
      ['timespan', 'week'],
      ['adjusted', 'true'],
      ['series_type', 'close'],
      ['expand_underlying', 'false'],
      ['order', 'desc'],
      ['limit', '5000'],
      ['window', '20'],
    ],
    example: 'GetStocksEMA',
  },
  {
    method: 'getRsi',
    args: ['ndx', { timestamp: 1678406400000 }],
    path: '/v1/indicators/rsi/I:NDX',
    query: [['timestamp', '1678406400000'], ...indicatorQuery([['window', '14']])],
    example: 'GetStocksRSI',
  },
  {
    method: 'getMacd',
    args: ['I:NDX'],
    path: '/v1/indicators/macd/I:NDX',
    query: indicatorQuery([]),
    example: 'GetStocksMACD',
  },
];
