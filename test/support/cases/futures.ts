import type { OperationCase } from '../client-cases.js';

/**
 * Every futures operation: the contract ticker is checked and upper-cased, only the options given are
 * sent (the service's defaults apply otherwise), in declaration order. Bodies are the examples
 * openapi.json documents for each path.
 */
export const futuresCases = (version: 'v1' | 'vX'): OperationCase[] => {
  const base = `/futures/${version}`;
  const openapi = (path: string) => `${base}${path}`;
  return [
    {
      method: 'getAggregates',
      args: ['gcj5'],
      path: `${base}/aggs/GCJ5`,
      query: [],
      openapi: openapi('/aggs/{ticker}'),
    },
    {
      method: 'getAggregates',
      args: [
        'ESZ23',
        {
          resolution: '5min',
          windowStartGte: '2023-12-01',
          windowStartLt: 1701475200000000001n,
          limit: 50000,
          sort: 'asc',
        },
      ],
      path: `${base}/aggs/ESZ23`,
      query: [
        ['resolution', '5min'],
        ['window_start.gte', '2023-12-01'],
        ['window_start.lt', '1701475200000000001'],
        ['limit', '50000'],
        ['sort', 'window_start.asc'],
      ],
    },
    {
      method: 'getAggregates',
      args: ['ESZ3', { resolution: '1session', windowStart: '2023-12-01', sort: 'window_start.desc' }],
      path: `${base}/aggs/ESZ3`,
      query: [
        ['resolution', '1session'],
        ['window_start', '2023-12-01'],
        ['sort', 'window_start.desc'],
      ],
    },
    {
      method: 'getContracts',
      args: [],
      path: `${base}/contracts`,
      query: [],
      openapi: openapi('/contracts'),
    },
    {
      method: 'getContracts',
      args: [
        {
          sort: 'last_trade_date.desc,ticker',
          limit: 1001,
          firstTradeDateGte: '2023-01-01',
          lastTradeDateLt: new Date('2024-06-30T00:00:00Z'),
          typeAnyOf: 'single,combo',
          active: true,
          productCode: 'ES',
          date: '2023-06-01',
        },
      ],
      path: `${base}/contracts`,
      query: [
        ['date', '2023-06-01'],
        ['product_code', 'ES'],
        ['active', 'true'],
        ['type.any_of', 'single,combo'],
        ['first_trade_date.gte', '2023-01-01'],
        ['last_trade_date.lt', '2024-06-30'],
        ['limit', '1001'],
        ['sort', 'last_trade_date.desc,ticker'],
      ],
    },
    {
      method: 'getProducts',
      args: [
        {
          nameAnyOf: 'E-mini S&P 500,Gold',
          productCodeAnyOf: ['es', 'gc'],
          date: '2025-02-26',
          tradingVenue: 'XCME',
          sector: 'us_index',
          assetClassAnyOf: 'commodity,financials',
          type: 'single',
          sort: 'product_code.asc',
        },
      ],
      path: `${base}/products`,
      query: [
        ['name.any_of', 'E-mini S&P 500,Gold'],
        ['product_code.any_of', 'ES,GC'],
        ['date', '2025-02-26'],
        ['trading_venue', 'XCME'],
        ['sector', 'us_index'],
        ['asset_class.any_of', 'commodity,financials'],
        ['type', 'single'],
        ['sort', 'product_code.asc'],
      ],
      openapi: openapi('/products'),
    },
    {
      method: 'getSchedules',
      args: [
        {
          productCode: 'GC',
          sessionEndDateGte: '2025-02-01',
          sessionEndDateLte: '2025-02-07',
          tradingVenueAnyOf: 'xcec',
          limit: 100,
          sort: 'session_end_date.asc',
        },
      ],
      path: `${base}/schedules`,
      query: [
        ['product_code', 'GC'],
        ['session_end_date.gte', '2025-02-01'],
        ['session_end_date.lte', '2025-02-07'],
        ['trading_venue.any_of', 'XCEC'],
        ['limit', '100'],
        ['sort', 'session_end_date.asc'],
      ],
      openapi: openapi('/schedules'),
    },
    {
      method: 'getMarketStatus',
      args: [{ productCodeAnyOf: 'ES, GC', limit: 100 }],
      path: `${base}/market-status`,
      query: [
        ['product_code.any_of', 'ES,GC'],
        ['limit', '100'],
      ],
      openapi: openapi('/market-status'),
    },
    {
      method: 'getExchanges',
      args: [{ limit: 1000 }],
      path: `${base}/exchanges`,
      query: [['limit', '1000']],
      openapi: openapi('/exchanges'),
    },
    {
      method: 'getSnapshot',
      args: [{ productCode: 'ES', tickerAnyOf: ['ESZ5', 'esh6'], tickerGte: 'ES', sort: 'ticker.desc' }],
      path: `${base}/snapshot`,
      query: [
        ['product_code', 'ES'],
        ['ticker.any_of', 'ESZ5,ESH6'],
        ['ticker.gte', 'ES'],
        ['sort', 'ticker.desc'],
      ],
      openapi: openapi('/snapshot'),
    },
    {
      method: 'getTrades',
      args: [
        'ESZ4',
        {
          timestampGte: '2024-12-17T21:59:00Z',
          timestampLt: 1734472800000000001n,
          sessionEndDate: '2024-12-17',
          limit: 50000,
          sort: 'timestamp.asc,sequence_number.asc',
        },
      ],
      path: `${base}/trades/ESZ4`,
      query: [
        ['timestamp.gte', '1734472740000000000'],
        ['timestamp.lt', '1734472800000000001'],
        ['session_end_date', '2024-12-17'],
        ['limit', '50000'],
        ['sort', 'timestamp.asc,sequence_number.asc'],
      ],
      openapi: openapi('/trades/{ticker}'),
    },
    {
      method: 'getQuotes',
      args: ['GCJ5', { timestamp: '2024-12-17' }],
      path: `${base}/quotes/GCJ5`,
      query: [['timestamp', '2024-12-17']],
      openapi: openapi('/quotes/{ticker}'),
    },
  ];
};
