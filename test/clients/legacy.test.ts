import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  cryptoOperations,
  forexOperations,
  indicesOperations,
  optionsOperations,
  referenceOperations,
  stocksOperations,
} from '../../src/index.js';
import {
  CryptoClient,
  ForexClient,
  IndexClient,
  OptionsClient,
  ReferenceClient,
  StocksClient,
} from '../../src/legacy.js';
import { RecordingServer } from '../support/recording-server.js';

const KEY = 'legacy-key-99';
const EMPTY = '{"status":"OK","request_id":"x","results":[]}';
const classes = [
  [StocksClient, stocksOperations],
  [OptionsClient, optionsOperations],
  [IndexClient, indicesOperations],
  [ForexClient, forexOperations],
  [CryptoClient, cryptoOperations],
  [ReferenceClient, referenceOperations],
] as const;
const NEWER = ['getSma', 'getEma', 'getRsi', 'getMacd', 'getFullRangeAggregateBars'];
const asyncName = (name: string) => `async${name[0]?.toUpperCase()}${name.slice(1)}`;

describe('mdq/legacy: the older client shape', () => {
  test('each class has every operation of its declarations, sync and async-prefixed, and not the newer ones', () => {
    for (const [Class, operations] of classes) {
      const expected = Object.keys(operations).filter((n) => !NEWER.includes(n));
      assert.deepEqual([...Class.operations].sort(), expected.sort(), Class.name);
      for (const name of expected) {
        assert.equal(typeof (Class.prototype as any)[name], 'function', `${Class.name}.${name}`);
        assert.equal(
          typeof (Class.prototype as any)[asyncName(name)],
          'function',
          `${Class.name}.${asyncName(name)}`,
        );
      }
      for (const name of NEWER)
        assert.equal((Class.prototype as any)[name], undefined, `${Class.name}.${name}`);
      for (const name of ['getNextPageByUrl', 'asyncGetNextPageByUrl', 'close', 'asyncClose']) {
        assert.equal(typeof (Class.prototype as any)[name], 'function', `${Class.name}.${name}`);
      }
    }
  });

  describe('over loopback HTTP', () => {
    const server = new RecordingServer();
    let syncStocks: StocksClient;
    let asyncStocks: StocksClient;
    before(async () => {
      await server.start();
      syncStocks = new StocksClient(KEY, false, { baseUrl: server.url });
      asyncStocks = new StocksClient(KEY, true, { baseUrl: server.url });
    });
    beforeEach(async () => {
      await server.respond(EMPTY);
      await server.take();
    });
    after(async () => {
      syncStocks.close();
      await asyncStocks.asyncClose();
      await server.stop();
    });

    test('operations send the same requests as the current clients, sync and async', async () => {
      const body = { status: 'OK', request_id: 'r', results: [{ o: 1, h: 2, l: 0.5, c: 1.5, v: 10, t: 1 }] };
      await server.respond(JSON.stringify(body));
      assert.deepEqual(syncStocks.getAggregateBars('aapl', '2024-01-02', '2024-01-05', { limit: 10 }), body);
      assert.deepEqual(
        await asyncStocks.asyncGetAggregateBars('AAPL', '2024-01-02', '2024-01-05', { limit: 10 }),
        body,
      );
      const options = new OptionsClient(KEY, true, { baseUrl: server.url });
      await options.asyncGetLastTrade('spy251219c00650000');
      await options.asyncClose();
      const forex = new ForexClient(KEY, false, { baseUrl: server.url });
      forex.getPreviousClose('usdcad');
      forex.close();
      const seen = await server.take();
      assert.deepEqual(
        seen.map((r) => [r.path, r.query]),
        [
          [
            '/v2/aggs/ticker/AAPL/range/1/day/2024-01-02/2024-01-05',
            [
              ['adjusted', 'true'],
              ['sort', 'asc'],
              ['limit', '10'],
            ],
          ],
          [
            '/v2/aggs/ticker/AAPL/range/1/day/2024-01-02/2024-01-05',
            [
              ['adjusted', 'true'],
              ['sort', 'asc'],
              ['limit', '10'],
            ],
          ],
          ['/v2/last/trade/O:SPY251219C00650000', []],
          ['/v2/aggs/ticker/C:USDCAD/prev', [['adjusted', 'true']]],
        ],
      );
      assert.ok(seen.every((r) => r.headers.authorization === `Bearer ${KEY}`));
    });

    test('getSnapshotAll requires symbols, given first', async () => {
      assert.throws(
        () => (syncStocks.getSnapshotAll as (...a: unknown[]) => unknown)(),
        (e: Error) => e.name === 'InvalidParameterError' && (e as any).parameter === 'symbols',
      );
      await assert.rejects(
        (asyncStocks.asyncGetSnapshotAll as (...a: unknown[]) => Promise<unknown>)(),
        (e: Error) => e.name === 'InvalidParameterError' && (e as any).parameter === 'symbols',
      );
      syncStocks.getSnapshotAll(['AAPL', 'msft'], { includeOtc: true });
      const crypto = new CryptoClient(KEY, true, { baseUrl: server.url });
      await crypto.asyncGetSnapshotAll('btcusd,ETHUSD');
      await crypto.asyncClose();
      const seen = await server.take();
      assert.deepEqual(
        seen.map((r) => [r.path, r.query]),
        [
          [
            '/v2/snapshot/locale/us/markets/stocks/tickers',
            [
              ['tickers', 'AAPL,MSFT'],
              ['include_otc', 'true'],
            ],
          ],
          ['/v2/snapshot/locale/global/markets/crypto/tickers', [['tickers', 'X:BTCUSD,X:ETHUSD']]],
        ],
      );
    });

    test('aggregates take no full-range options', async () => {
      for (const option of [{ fullRange: true }, { runParallel: false }, { highVolatility: true }]) {
        const key = Object.keys(option)[0];
        assert.throws(
          () => syncStocks.getAggregateBars('AAPL', '2024-01-02', '2024-03-01', option as never),
          (e: Error) => e.name === 'InvalidParameterError' && (e as any).parameter === key,
        );
        await assert.rejects(
          asyncStocks.asyncGetAggregateBars('AAPL', '2024-01-02', '2024-03-01', option as never),
          (e: Error) => e.name === 'InvalidParameterError' && (e as any).parameter === key,
        );
      }
      assert.deepEqual(await server.take(), []);
    });

    test('getNextPageByUrl and asyncGetNextPageByUrl follow next_url', async () => {
      await server.use('paginated');
      const first = await asyncStocks.asyncGetTradesV3('AAPL', { limit: 3 });
      const second = await asyncStocks.asyncGetNextPageByUrl(first.next_url as string);
      assert.equal(second.request_id, 'req-2');
      const third = syncStocks.getNextPageByUrl(second.next_url);
      assert.equal(third.request_id, 'req-3');
      const seen = await server.take();
      assert.deepEqual(
        seen.map((r) => r.query),
        [[['limit', '3']], [['cursor', 'p2']], [['cursor', 'p3']]],
      );
    });

    test('an operation of the other kind is a clear error; a closed client refuses calls', async () => {
      assert.throws(() => asyncStocks.getLastTrade('AAPL'), /useAsync false/);
      await assert.rejects(syncStocks.asyncGetLastTrade('AAPL'), /useAsync true/);
      const closing = new IndexClient(KEY, true, { baseUrl: server.url });
      await closing.asyncClose();
      await assert.rejects(closing.asyncGetPreviousClose('SPX'), /closed/);
      assert.throws(() => new ReferenceClient(KEY, 'yes' as never), /useAsync/);
      assert.deepEqual(await server.take(), []);
    });
  });

  test('types: operations keep their declared options and results', () => {
    const check = (c: StocksClient, o: OptionsClient) => {
      const bars = c.getAggregateBars('AAPL', '2024-01-02', '2024-01-05');
      const vw: number | undefined = bars.results?.[0]?.vw;
      // @ts-expect-error full-range options are not part of the older shape
      c.getAggregateBars('AAPL', '2024-01-02', '2024-01-05', { fullRange: true });
      // @ts-expect-error getSnapshotAll requires symbols
      c.getSnapshotAll();
      // @ts-expect-error the indicators came with the newer shape
      c.getSma('AAPL');
      // @ts-expect-error getFullRangeAggregateBars came with the newer shape
      c.getFullRangeAggregateBars('AAPL', '2024-01-02', '2024-01-05');
      const trades: Promise<{ results: { sip_timestamp: bigint }[] }> =
        o.asyncGetTrades('SPY251219C00650000');
      return [vw, trades];
    };
    assert.equal(typeof check, 'function');
  });
});
