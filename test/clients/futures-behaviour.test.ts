import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FuturesClient, InvalidParameterError, isMdqError } from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';

const KEY = 'futures-behaviour-key-3';

/** A malformed futures call and the parameter its error must name. */
const bad = (method: string, parameter: string, ...args: unknown[]) => ({ method, parameter, args });

const cases = [
  // Contract tickers: product code + month code + 1- or 2-digit year, nothing else.
  ...['getAggregates', 'getTrades', 'getQuotes'].flatMap((m) => [
    bad(m, 'ticker', 'ESA3'),
    bad(m, 'ticker', 'ES'),
    bad(m, 'ticker', 'ESZ123'),
    bad(m, 'ticker', 'ES/Z3'),
    bad(m, 'ticker', ''),
    bad(m, 'ticker', 42),
  ]),
  // Resolutions: a multiplier and a unit, within the unit's maximum.
  ...['1minute', '60min', '0min', '5m', '1day', '24hour', '12month', '4quarter', 'min', ' 1min', '1MIN'].map(
    (resolution) => bad('getAggregates', 'resolution', 'ESZ3', { resolution }),
  ),
  bad('getAggregates', 'windowStartGte', 'ESZ3', { windowStartGte: '2024-02-30' }),
  bad('getAggregates', 'sort', 'ESZ3', { sort: 'timestamp.asc' }),
  bad('getAggregates', 'limit', 'ESZ3', { limit: 50001 }),
  bad('getTrades', 'timestampLt', 'ESZ3', { timestampLt: 1.5 }),
  bad('getTrades', 'sessionEndDate', 'ESZ3', { sessionEndDate: '2024-12-32' }),
  bad('getTrades', 'sort', 'ESZ3', { sort: 'price.asc' }),
  bad('getQuotes', 'limit', 'ESZ3', { limit: 0 }),
  bad('getContracts', 'typeAnyOf', { typeAnyOf: 'single,outright' }),
  bad('getContracts', 'type', { type: 'outright' }),
  bad('getContracts', 'active', { active: 'yes' }),
  bad('getContracts', 'lastTradeDateGte', { lastTradeDateGte: '2024-13-01' }),
  bad('getContracts', 'limit', { limit: 1002 }),
  bad('getContracts', 'sort', { sort: 'ticker.up' }),
  bad('getProducts', 'sector', { sector: 'equities' }),
  bad('getProducts', 'assetSubClassAnyOf', { assetSubClassAnyOf: 'metals,,energy' }),
  bad('getSchedules', 'sessionEndDateGt', { sessionEndDateGt: 'tomorrow' }),
  bad('getMarketStatus', 'limit', { limit: 101 }),
  bad('getExchanges', 'cursor', { cursor: 'x' }),
  bad('getSnapshot', 'allPages', { allPages: 'yes' }),
];

async function errorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

type Client = Record<string, (...a: unknown[]) => any> & { close(): unknown };
type Defined = { async: Client; sync: Client };
const call = (client: Client, method: string, ...args: unknown[]) =>
  (client[method] as (...a: unknown[]) => unknown)(...args);

describe('futures: bad input is an InvalidParameterError naming the parameter, before any request', () => {
  const server = new RecordingServer();
  const clients: { async?: Client; sync?: Client } = {};
  before(async () => {
    await server.start();
    await server.respond('{"status":"OK","request_id":"x","results":[]}');
    clients.async = FuturesClient(KEY, { useAsync: true, baseUrl: server.url }) as unknown as Client;
    clients.sync = FuturesClient(KEY, { baseUrl: server.url }) as unknown as Client;
  });
  after(async () => {
    await clients.async?.close();
    clients.sync?.close();
    await server.stop();
  });

  for (const variant of ['async', 'sync'] as const) {
    test(`${variant}: ${cases.length} malformed calls`, async () => {
      for (const c of cases) {
        const what = `${c.method}(${JSON.stringify(c.args)})`;
        const error = await errorOf(() => clients[variant]?.[c.method]?.(...c.args));
        assert.ok(isMdqError(error), `${what} fails with an MdqError, got ${String(error)}`);
        assert.equal((error as { name: string }).name, 'InvalidParameterError', what);
        assert.equal((error as unknown as { parameter: string }).parameter, c.parameter, what);
        assert.ok((error as Error).message.includes(c.parameter), `${what}: ${(error as Error).message}`);
      }
      assert.deepEqual(await server.take(), [], 'no request was sent');
    });
  }

  test('the resolution error says what is allowed', async () => {
    const error = await errorOf(() =>
      call((clients as Defined).async, 'getAggregates', 'ESZ3', { resolution: '60min' }),
    );
    assert.match((error as Error).message, /Invalid resolution: "60min"; expected .*1-59min.*1session/);
    const ticker = await errorOf(() => call((clients as Defined).async, 'getTrades', 'ESA3'));
    assert.match((ticker as Error).message, /Invalid ticker: "ESA3"; expected a futures contract ticker/);
  });

  test('every resolution the rule allows is sent as given', async () => {
    const resolutions = [
      '1sec',
      '59sec',
      '1min',
      '5min',
      '59min',
      '1hour',
      '23hour',
      '1session',
      '2week',
      '11month',
      '3quarter',
      '1year',
    ];
    for (const resolution of resolutions) {
      await call((clients as Defined).async, 'getAggregates', 'ESZ3', { resolution });
    }
    const seen = await server.take();
    assert.deepEqual(
      seen.map((r) => r.query),
      resolutions.map((r) => [['resolution', r]]),
    );
  });

  test('a bad version option is refused when the client is created, sync or async', () => {
    for (const useAsync of [true, false]) {
      assert.throws(
        () => FuturesClient(KEY, { useAsync, baseUrl: server.url, version: 'v2' as never } as never),
        (e: unknown) =>
          e instanceof InvalidParameterError && e.parameter === 'version' && /v1, vX/.test(e.message),
      );
    }
  });
});

describe('futures: pagination by next_url and exact nanoseconds', () => {
  const server = new RecordingServer();
  before(async () => {
    await server.start();
  });
  beforeEach(async () => {
    await server.take();
  });
  after(async () => {
    await server.stop();
  });

  test('allPages merges every page; maxPages stops; for await walks every trade', async () => {
    await server.use('paginated');
    const client = FuturesClient(KEY, { useAsync: true, baseUrl: server.url });
    try {
      const merged = await client.getTrades('ESZ4', { limit: 3, allPages: true });
      const ids = (r: unknown[]) => r.map((x) => (x as { id: string }).id);
      assert.deepEqual(ids(merged.results), ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
      const seen = await server.take();
      assert.equal(seen.length, 3);
      assert.equal(seen[0]?.path, '/futures/v1/trades/ESZ4');
      assert.deepEqual(seen[0]?.query, [['limit', '3']]);
      const two = await client.getContracts({ allPages: true, maxPages: 2 });
      assert.equal(two.results.length, 6);
      assert.ok(two.next_url, 'the link to the third page is kept');
      await server.take();
      const walked: string[] = [];
      for await (const item of client.getAggregates('GCJ5', { resolution: '1min' })) {
        walked.push((item as unknown as { id: string }).id);
      }
      assert.deepEqual(walked, ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
      const pages = await client.getSchedules({ allPages: true, mergeAllPages: false });
      assert.deepEqual(
        pages.map((p) => p.request_id),
        ['req-1', 'req-2', 'req-3'],
      );
    } finally {
      await client.close();
    }
  });

  test('the synchronous client pages the same way', async () => {
    await server.use('paginated');
    const client = FuturesClient(KEY, { baseUrl: server.url });
    try {
      const merged = client.getQuotes('GCJ5', { allPages: true, maxPages: 2 });
      assert.equal(merged.results.length, 6);
    } finally {
      client.close();
    }
  });

  test('nanosecond timestamps come back exact, sync and async', async () => {
    const body =
      '{"status":"OK","request_id":"r","results":[{"ticker":"ESZ4","timestamp":1734472799000509261,"sequence_number":27317882,"report_sequence":12033289,"channel":1,"price":6052,"size":3}]}';
    for (const useAsync of [true, false]) {
      await server.respond(body);
      const client = FuturesClient(KEY, { useAsync: useAsync as true, baseUrl: server.url });
      try {
        const page = await client.getTrades('ESZ4', { limit: 1 });
        assert.equal(page.results[0]?.timestamp, 1734472799000509261n);
      } finally {
        await client.close();
      }
    }
  });
});

describe('futures: full-range aggregates', () => {
  const server = new RecordingServer();
  const dataStart = Date.parse('2023-06-01T00:00:00Z');
  const dataEnd = Date.parse('2023-12-31T00:00:00Z');
  before(async () => {
    await server.start();
    await server.use('futuresMinuteBars', { stepMinutes: 60, dataStart, dataEnd, cap: 700 });
  });
  after(async () => {
    await server.stop();
  });

  // From midnight New York on the first day to the end of the last day (EDT then EST).
  const from = Date.parse('2023-07-01T04:00:00Z');
  const to = Date.parse('2023-11-16T05:00:00Z');
  const expected: bigint[] = [];
  for (let t = from; t < to; t += 3_600_000) expected.push(BigInt(t) * 1_000_000n);

  for (const useAsync of [true, false]) {
    test(`${useAsync ? 'async' : 'sync'}: chunks by window_start merged with no gap and no duplicate`, async () => {
      await server.take();
      const client = FuturesClient(KEY, { useAsync: useAsync as true, baseUrl: server.url });
      try {
        const bars = await client.getFullRangeAggregates('ESZ3', '2023-07-01', '2023-11-15', {
          maxConcurrentWorkers: 2,
        });
        assert.equal(bars.length, expected.length);
        assert.deepEqual(
          bars.map((b) => b.window_start),
          expected,
        );
        assert.ok(!bars.some((b) => 't' in b), 'no helper field is left on the candles');
        const seen = await server.take();
        const firsts = seen.filter((r) => !r.query.some(([k]) => k === 'cursor'));
        assert.ok(firsts.length >= 3, `several chunks (${firsts.length})`);
        assert.ok(seen.length > firsts.length, 'a chunk beyond one page follows next_url');
        for (const r of firsts) {
          assert.equal(r.path, '/futures/v1/aggs/ESZ3');
          assert.deepEqual(
            r.query.map(([k]) => k),
            ['resolution', 'window_start.gte', 'window_start.lte', 'limit', 'sort'],
          );
        }
        const desc = await client.getFullRangeAggregates('ESZ3', '2023-07-01', '2023-07-02', {
          sort: 'desc',
        });
        assert.deepEqual(
          desc.map((b) => b.window_start),
          expected.slice(0, 48).reverse(),
        );
      } finally {
        await client.close();
      }
    });
  }

  test('only second, minute and hour candles, and bad bounds, are refused before any request', async () => {
    await server.take();
    const client = FuturesClient(KEY, { useAsync: true, baseUrl: server.url });
    try {
      for (const [options, parameter] of [
        [{ resolution: '1session' }, 'resolution'],
        [{ resolution: '60min' }, 'resolution'],
        [{ runParallel: 'yes' }, 'runParallel'],
        [{ maxConcurrentWorkers: 0 }, 'maxConcurrentWorkers'],
      ] as const) {
        await assert.rejects(
          client.getFullRangeAggregates('ESZ3', '2023-07-01', '2023-07-02', options as never),
          (e: unknown) => e instanceof InvalidParameterError && e.parameter === parameter,
          JSON.stringify(options),
        );
      }
      await assert.rejects(
        client.getFullRangeAggregates('ESZ3', '2023-07-03', '2023-07-02'),
        (e: unknown) => e instanceof InvalidParameterError,
      );
      await assert.rejects(
        client.getFullRangeAggregates('ESQ', '2023-07-01', '2023-07-02'),
        (e: unknown) => e instanceof InvalidParameterError && e.parameter === 'ticker',
      );
      assert.deepEqual(await server.take(), []);
    } finally {
      await client.close();
    }
  });
});
