import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
import { cryptoCases } from '../support/cases/crypto.js';
import { forexCases } from '../support/cases/forex.js';
import { indicesCases } from '../support/cases/indices.js';
import { optionsCases } from '../support/cases/options.js';
import { referenceCases } from '../support/cases/reference.js';
import { answerFile, asParsed, type OperationCase } from '../support/client-cases.js';
import { RecordingServer } from '../support/recording-server.js';
import { hasShared } from '../support/shared.js';

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

/**
 * The older shape's arguments for a case of the current client: `getSnapshotAll` takes `symbols` first
 * (cases without symbols do not exist in the older shape).
 */
function legacyArgs(c: OperationCase): unknown[] | undefined {
  if (c.method !== 'getSnapshotAll') return c.args;
  const { symbols, ...rest } = (c.args[0] ?? {}) as { symbols?: unknown };
  return symbols === undefined ? undefined : [symbols, rest];
}

describe("mdq/legacy: every operation of the current clients' cases, sync and async, sends the same request", () => {
  const server = new RecordingServer();
  const tables = [
    [OptionsClient, optionsCases],
    [IndexClient, indicesCases],
    [ForexClient, forexCases],
    [CryptoClient, cryptoCases],
    [ReferenceClient, referenceCases],
  ] as const;
  const clients = new Map<unknown, { sync: any; async: any }>();
  before(async () => {
    await server.start();
    for (const [Class] of tables) {
      clients.set(Class, {
        sync: new (Class as any)(KEY, false, { baseUrl: server.url }),
        async: new (Class as any)(KEY, true, { baseUrl: server.url }),
      });
    }
  });
  after(async () => {
    for (const { sync, async } of clients.values()) {
      sync.close();
      await async.asyncClose();
    }
    await server.stop();
  });

  for (const [Class, cases] of tables) {
    for (const c of cases) {
      const args = legacyArgs(c);
      if (!Class.operations.includes(c.method) || !args) continue;
      for (const variant of ['sync', 'async'] as const) {
        const method = variant === 'sync' ? c.method : asyncName(c.method);
        test(`${Class.name}.${method} → ${c.path}`, async (t) => {
          const file = answerFile(c);
          if (file && !hasShared(t, file)) return;
          const raw = file ? readFileSync(file, 'utf8') : EMPTY;
          await server.respond(raw);
          const client = clients.get(Class)![variant];
          const result = await client[method](...args);
          const seen = await server.take();
          assert.equal(seen.length, 1);
          assert.equal(seen[0]?.path, c.path);
          assert.deepEqual(seen[0]?.query, c.query);
          assert.deepEqual(asParsed(result), JSON.parse(raw));
        });
      }
    }
  }
});
