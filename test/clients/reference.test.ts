import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CryptoClient,
  ForexClient,
  IndexClient,
  OptionsClient,
  ReferenceClient,
  StocksClient,
} from '../../src/index.js';
import { describeOperations, type OperationCase } from '../support/client-cases.js';
import { RecordingServer } from '../support/recording-server.js';

const KEY = 'test-key-reference-1';

/** Every reference-data operation (the reference library's list, on the API's paths). */
const cases: OperationCase[] = [
  {
    method: 'getOptionContracts',
    args: [],
    path: '/v3/reference/options/contracts',
    query: [
      ['expired', 'false'],
      ['order', 'asc'],
      ['sort', 'expiration_date'],
      ['limit', '1000'],
    ],
    recorded: 'v3/reference/options/contracts.json',
  },
  {
    method: 'getOptionContracts',
    args: [
      {
        underlyingTicker: 'aapl',
        contractType: 'call',
        expirationDateGte: '2024-01-01',
        expirationDateLte: new Date(Date.UTC(2024, 2, 31)),
        expired: true,
        asOf: '2023-12-01',
        limit: 10,
      },
    ],
    path: '/v3/reference/options/contracts',
    query: [
      ['underlying_ticker', 'AAPL'],
      ['contract_type', 'call'],
      ['expiration_date.lte', '2024-03-31'],
      ['expiration_date.gte', '2024-01-01'],
      ['as_of', '2023-12-01'],
      ['expired', 'true'],
      ['order', 'asc'],
      ['sort', 'expiration_date'],
      ['limit', '10'],
    ],
    example: 'ListOptionsContracts',
  },
  {
    method: 'getOptionContract',
    args: ['evri240119c00002500'],
    path: '/v3/reference/options/contracts/O:EVRI240119C00002500',
    query: [],
    recorded: 'v3/reference/options/contracts/OEVRI240119C00002500.json',
  },
  {
    method: 'getOptionContract',
    args: ['O:AAPL230616C00150000', { asOf: '2023-06-01' }],
    path: '/v3/reference/options/contracts/O:AAPL230616C00150000',
    query: [['as_of', '2023-06-01']],
    example: 'GetOptionsContract',
  },
  {
    method: 'getTickers',
    args: [],
    path: '/v3/reference/tickers',
    query: [
      ['active', 'true'],
      ['sort', 'ticker'],
      ['order', 'asc'],
      ['limit', '1000'],
    ],
    recorded: 'v3/reference/tickers.json',
  },
  {
    method: 'getTickers',
    args: [{ search: 'apple', market: 'stocks', symbolType: 'CS', date: '2022-04-27', active: false }],
    path: '/v3/reference/tickers',
    query: [
      ['type', 'CS'],
      ['market', 'stocks'],
      ['date', '2022-04-27'],
      ['search', 'apple'],
      ['active', 'false'],
      ['sort', 'ticker'],
      ['order', 'asc'],
      ['limit', '1000'],
    ],
    example: 'ListTickers',
  },
  {
    method: 'getTickerDetails',
    args: ['aapl'],
    path: '/v3/reference/tickers/AAPL',
    query: [],
    recorded: 'v3/reference/tickers/AAPL.json',
  },
  {
    method: 'getTickerDetails',
    args: ['AAPL', { date: '2020-10-01' }],
    path: '/v3/reference/tickers/AAPL',
    query: [['date', '2020-10-01']],
    recorded: 'v3/reference/tickers/AAPL&date=2020-10-01.json',
  },
  {
    method: 'getTickerTypes',
    args: [{ assetClass: 'stocks' }],
    path: '/v3/reference/tickers/types',
    query: [['asset_class', 'stocks']],
    recorded: 'v3/reference/tickers/types.json',
  },
  {
    method: 'getTickerNews',
    args: [{ symbol: 'nflx' }],
    path: '/v2/reference/news',
    query: [
      ['ticker', 'NFLX'],
      ['order', 'desc'],
      ['sort', 'published_utc'],
      ['limit', '1000'],
    ],
    recorded: 'v2/reference/news&ticker=NFLX.json',
  },
  {
    method: 'getStockDividends',
    args: [],
    path: '/v3/reference/dividends',
    query: [
      ['sort', 'pay_date'],
      ['order', 'asc'],
      ['limit', '1000'],
    ],
    recorded: 'v3/reference/dividends.json',
  },
  {
    method: 'getStockDividends',
    args: [{ ticker: 'msft', exDividendDateGte: '2023-01-01', cashAmountGt: 0.5, frequency: 4 }],
    path: '/v3/reference/dividends',
    query: [
      ['ticker', 'MSFT'],
      ['ex_dividend_date.gte', '2023-01-01'],
      ['frequency', '4'],
      ['cash_amount.gt', '0.5'],
      ['sort', 'pay_date'],
      ['order', 'asc'],
      ['limit', '1000'],
    ],
  },
  {
    method: 'getStockSplits',
    args: [],
    path: '/v3/reference/splits',
    query: [
      ['order', 'asc'],
      ['sort', 'execution_date'],
      ['limit', '1000'],
    ],
    recorded: 'v3/reference/splits.json',
  },
  {
    method: 'getStockSplits',
    args: [{ ticker: 'AAPL', reverseSplit: false, executionDateLt: '2021-01-01' }],
    path: '/v3/reference/splits',
    query: [
      ['ticker', 'AAPL'],
      ['execution_date.lt', '2021-01-01'],
      ['reverse_split', 'false'],
      ['order', 'asc'],
      ['sort', 'execution_date'],
      ['limit', '1000'],
    ],
  },
  {
    method: 'getMarketStatus',
    args: [],
    path: '/v1/marketstatus/now',
    query: [],
    recorded: 'v1/marketstatus/now.json',
  },
  {
    method: 'getMarketHolidays',
    args: [],
    path: '/v1/marketstatus/upcoming',
    query: [],
    recorded: 'v1/marketstatus/upcoming.json',
  },
  {
    method: 'getConditions',
    args: [{ assetClass: 'stocks' }],
    path: '/v3/reference/conditions',
    query: [
      ['asset_class', 'stocks'],
      ['sort', 'name'],
      ['limit', '50'],
    ],
    recorded: 'v3/reference/conditions&asset_class=stocks.json',
  },
  {
    method: 'getStockFinancialsVx',
    args: [],
    path: '/vX/reference/financials',
    query: [
      ['include_sources', 'false'],
      ['order', 'asc'],
      ['limit', '50'],
      ['sort', 'filing_date'],
    ],
    recorded: 'vX/reference/financials.json',
  },
  {
    method: 'getStockFinancialsVx',
    args: [
      { ticker: 'aapl', timeFrame: 'annual', filingDateGte: '2020-01-01', includeSources: true, limit: 100 },
    ],
    path: '/vX/reference/financials',
    query: [
      ['ticker', 'AAPL'],
      ['filing_date.gte', '2020-01-01'],
      ['timeframe', 'annual'],
      ['include_sources', 'true'],
      ['order', 'asc'],
      ['limit', '100'],
      ['sort', 'filing_date'],
    ],
  },
  {
    method: 'getExchanges',
    args: [],
    path: '/v3/reference/exchanges',
    query: [],
    recorded: 'v3/reference/exchanges.json',
  },
];

describeOperations(
  'Reference client: every operation over loopback HTTP',
  ReferenceClient as never,
  KEY,
  cases,
);

/** A paged operation of each client, whose pages the `paginated` handler serves. */
const paged = [
  ['StocksClient', StocksClient, 'getTradesV3', ['AAPL']],
  ['OptionsClient', OptionsClient, 'getTrades', ['SPY251219C00650000']],
  ['IndexClient', IndexClient, 'getSnapshot', []],
  ['ForexClient', ForexClient, 'getQuotes', ['EURUSD']],
  ['CryptoClient', CryptoClient, 'getTrades', ['BTCUSD']],
  ['ReferenceClient', ReferenceClient, 'getTickers', []],
] as const;

describe('pagination helpers on every client, sync and async', () => {
  const server = new RecordingServer();
  before(async () => {
    await server.start();
    await server.use('paginated');
  });
  after(() => server.stop());
  const ids = (page: { results: { id: string }[] }) => page.results.map((r) => r.id);
  const ALL = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

  for (const [name, factory, method, args] of paged) {
    test(`${name}.${method}: allPages, getNextPage, getPreviousPage, getAllPages, for await`, async () => {
      const a = (factory as any)(KEY, { useAsync: true, baseUrl: server.url });
      const merged = await a[method](...args, { allPages: true });
      assert.deepEqual(ids(merged), ALL);
      const first = await a[method](...args);
      const second = await a.getNextPage(first);
      assert.equal(second.request_id, 'req-2');
      assert.equal((await a.getPreviousPage(second)).request_id, 'req-1');
      assert.deepEqual(
        (await a.getAllPages(first)).map((p: { request_id: string }) => p.request_id),
        ['req-1', 'req-2', 'req-3'],
      );
      const walked: string[] = [];
      for await (const item of a[method](...args, { maxItems: 5 })) walked.push(item.id);
      assert.deepEqual(walked, ALL.slice(0, 5));
      assert.equal((await a.getPageByUrl(first.next_url)).request_id, 'req-2');
      await a.close();

      const s = (factory as any)(KEY, { baseUrl: server.url });
      assert.deepEqual(ids(s[method](...args, { allPages: true, maxPages: 2 })), ALL.slice(0, 6));
      const syncFirst = s[method](...args);
      assert.equal(s.getNextPage(syncFirst).request_id, 'req-2');
      assert.equal(s.getPreviousPage(syncFirst), false);
      assert.equal(s.getAllPages(syncFirst, { maxPages: 2 }).length, 2);
      s.close();
      await server.take();
    });
  }
});

describe('getBulkTickerDetails: one getTickerDetails per date, in date order', () => {
  const server = new RecordingServer();
  before(() => server.start());
  after(() => server.stop());
  const details = (day: string) => ({
    status: 'OK',
    request_id: day,
    results: {
      ticker: 'AAPL',
      name: 'Apple',
      market: 'stocks',
      locale: 'us',
      active: true,
      currency_name: 'usd',
    },
  });

  for (const variant of ['async', 'sync'] as const) {
    test(`${variant}: the range and the custom dates, each once, sorted`, async () => {
      await server.use('echoDate');
      const options = {
        fromDate: '2022-06-27',
        toDate: new Date(Date.UTC(2022, 5, 28)),
        customDates: ['2022-06-20', '2022-06-28'],
        sort: 'desc',
        maxConcurrentWorkers: 2,
      } as const;
      let result: Record<string, { request_id?: string }>;
      if (variant === 'async') {
        const client = ReferenceClient(KEY, { useAsync: true, baseUrl: server.url });
        result = await client.getBulkTickerDetails('aapl', options);
        await client.close();
      } else {
        const client = ReferenceClient(KEY, { baseUrl: server.url });
        result = client.getBulkTickerDetails('aapl', options);
        client.close();
      }
      assert.deepEqual(Object.keys(result), ['2022-06-28', '2022-06-27', '2022-06-20']);
      for (const [day, body] of Object.entries(result)) assert.deepEqual(body, details(day));
      const seen = await server.take();
      assert.deepEqual(
        seen.map((r) => [r.path, r.query]).sort(),
        ['2022-06-20', '2022-06-27', '2022-06-28'].map((d) => ['/v3/reference/tickers/AAPL', [['date', d]]]),
      );
    });
  }

  test('no dates, or a failing date, is an error', async () => {
    const client = ReferenceClient(KEY, { useAsync: true, baseUrl: server.url });
    await assert.rejects(
      client.getBulkTickerDetails('AAPL', { fromDate: '2022-06-27' }),
      (e: Error) => (e as { parameter?: string }).parameter === 'toDate',
    );
    await assert.rejects(
      client.getBulkTickerDetails('AAPL', { customDates: ['2022-02-30'] }),
      (e: Error) => (e as { parameter?: string }).parameter === 'customDates',
    );
    assert.deepEqual(await server.take(), []);
    await server.respond('{"status":"NOT_FOUND","request_id":"x","message":"Ticker not found."}', 404);
    await assert.rejects(
      client.getBulkTickerDetails('ZZZZ', {
        fromDate: '2022-06-01',
        toDate: '2022-06-03',
        runParallel: false,
      }),
      (e: Error) => e.name === 'NotFoundError',
    );
    assert.equal((await server.take()).length, 1, 'a failure stops the scheduling of the other dates');
    await client.close();
  });
});
