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
import { referenceCases } from '../support/cases/reference.js';
import { describeOperations } from '../support/client-cases.js';
import { RecordingServer } from '../support/recording-server.js';

const KEY = 'test-key-reference-1';

describeOperations(
  'Reference client: every operation over loopback HTTP',
  ReferenceClient as never,
  KEY,
  referenceCases,
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
