/**
 * The synchronous client keeps the async client's promises: progress callbacks, every log line (retries
 * included, and those of a call that fails), item walks with `for ... of` and `maxItems`, loggers in the
 * usual shapes, and a harmless second `close()`.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { isNotFoundError, StocksClient } from '../../src/index.js';
import { type FaultServerThread, startFaultServerThread } from '../support/fault-server.js';
import { RecordingServer } from '../support/recording-server.js';

const KEY = 'sync-client-key-77';
const TRADE = JSON.stringify({
  status: 'OK',
  request_id: 'last',
  results: { T: 'AAPL', p: 191.5, s: 100, t: 1704205800000000000 },
});
const busy = { status: 503, headers: { 'retry-after': '0' }, body: { status: 'ERROR', error: 'busy' } };

describe('sync client: callbacks and log lines', () => {
  let server: FaultServerThread | undefined;
  after(() => server?.close());

  test('the logger receives retry lines, also when the call fails in the end', async () => {
    server = await startFaultServerThread([
      busy,
      { body: TRADE },
      busy,
      busy,
      { status: 404, body: { status: 'NOT_FOUND', request_id: 'r404', error: 'no such ticker' } },
    ]);
    const lines: string[] = [];
    const client = StocksClient(KEY, { baseUrl: server.url, logger: (line) => lines.push(line) });
    try {
      assert.equal(client.getLastTrade('AAPL').results.p, 191.5);
      assert.equal(lines.length, 1, `one retry line: ${JSON.stringify(lines)}`);
      assert.match(lines[0] ?? '', /retry 1 of 3/);
      lines.length = 0;
      assert.throws(() => client.getLastTrade('AAPL'), isNotFoundError);
      assert.deepEqual(
        lines.map((l) => /retry (\d) of 3/.exec(l)?.[1]),
        ['1', '2'],
        `the lines of the failed call: ${JSON.stringify(lines)}`,
      );
    } finally {
      client.close();
    }
  });

  test('a logger may be an object with log/info/warn/debug methods (console), or a function', async () => {
    server ??= await startFaultServerThread([{ body: TRADE }]);
    await server.close();
    server = await startFaultServerThread([busy, { body: TRADE }]);
    const seen: [string, string][] = [];
    const logger = {
      info: (line: string) => seen.push(['info', line]),
      warn: (line: string) => seen.push(['warn', line]),
      log: (line: string) => seen.push(['log', line]),
      debug: (line: string) => seen.push(['debug', line]),
    };
    const sync = StocksClient(KEY, { baseUrl: server.url, logger });
    try {
      sync.getLastTrade('AAPL');
    } finally {
      sync.close();
    }
    assert.deepEqual(
      seen.map(([level]) => level),
      ['warn'],
      `a retry is a warning: ${JSON.stringify(seen)}`,
    );
    const onlyLog: string[] = [];
    const async = StocksClient(KEY, {
      useAsync: true,
      baseUrl: server.url,
      logger: { log: (line: string) => onlyLog.push(line) },
    });
    await async.getLastTrade('AAPL');
    await async.close();
    for (const make of [
      () => StocksClient(KEY, { logger: console }),
      () => StocksClient(KEY, { logger: console, useAsync: true }),
    ]) {
      const client = make();
      assert.equal(typeof client.close, 'function');
      await client.close();
    }
    assert.throws(
      () => StocksClient(KEY, { logger: {} as never }),
      (e: unknown) =>
        e instanceof Error && /logger/.test(e.message) && /log, info, warn or debug/.test(e.message),
    );
  });

  test('closing twice is harmless, sync and async', async () => {
    const sync = StocksClient(KEY, { baseUrl: 'http://127.0.0.1:9' });
    sync.close();
    sync.close();
    const async = StocksClient(KEY, { useAsync: true, baseUrl: 'http://127.0.0.1:9' });
    await async.close();
    await async.close();
  });
});

describe('sync client: pages and full range', () => {
  const server = new RecordingServer();
  before(async () => {
    await server.start();
  });
  beforeEach(async () => {
    await server.use('paginated');
    await server.take();
  });
  after(() => server.stop());

  const ids = (items: Iterable<{ id: string }>) => [...items].map((r) => r.id);

  test('a paged result is iterable with for ... of: every item, following next_url lazily', async () => {
    const client = StocksClient(KEY, { baseUrl: server.url });
    try {
      const first = client.getTradesV3('AAPL');
      assert.equal((await server.take()).length, 1, 'the call fetches the first page only');
      const walked: string[] = [];
      for (const trade of first) walked.push(trade.id);
      assert.deepEqual(walked, ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
      assert.equal((await server.take()).length, 2, 'the walk fetched the two other pages');
      assert.deepEqual(ids(first.results), ['1', '2', '3'], 'the page itself is unchanged');
      const merged = client.getTradesV3('AAPL', { allPages: true });
      await server.take();
      assert.deepEqual(ids(merged), ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
      assert.equal((await server.take()).length, 0, 'a merged result walks what it holds');
    } finally {
      client.close();
    }
  });

  test('maxItems caps the walk and stops fetching; maxPages caps the pages walked', async () => {
    const client = StocksClient(KEY, { baseUrl: server.url });
    try {
      const some: string[] = [];
      for (const trade of client.getTradesV3('AAPL', { maxItems: 4 })) some.push(trade.id);
      assert.deepEqual(some, ['1', '2', '3', '4']);
      assert.equal((await server.take()).length, 2, 'the third page is never fetched');
      assert.deepEqual(ids(client.getTradesV3('AAPL', { maxPages: 2 })), ['1', '2', '3', '4', '5', '6']);
      const lines: string[] = [];
      const verbose = StocksClient(KEY, { baseUrl: server.url, logger: (line) => lines.push(line) });
      assert.equal(ids(verbose.getTradesV3('AAPL', { verbose: true })).length, 9);
      verbose.close();
      assert.deepEqual(lines, ['Fetched page 2', 'Fetched page 3'], 'verbose reports the pages walked');
      assert.deepEqual(ids(client.getTradesV3('AAPL', { allPages: true, maxItems: 5 })), [
        '1',
        '2',
        '3',
        '4',
        '5',
      ]);
    } finally {
      client.close();
    }
  });

  test('onProgress is called on the sync client', async () => {
    await server.use('minuteBars', {
      stepMinutes: 60,
      dataStart: Date.parse('2024-01-01T00:00:00Z'),
      dataEnd: Date.parse('2024-07-01T00:00:00Z'),
    });
    const client = StocksClient(KEY, { baseUrl: server.url, logger: () => {} });
    const progress: { chunksDone: number; chunksTotal: number; bars: number }[] = [];
    try {
      const bars = client.getFullRangeAggregateBars('AAPL', '2024-01-02', '2024-05-31', {
        onProgress: (p) => progress.push({ ...p }),
      });
      assert.ok(bars.length > 0);
      assert.ok(progress.length > 1, `one report per chunk: ${JSON.stringify(progress)}`);
      const last = progress.at(-1);
      assert.equal(last?.chunksDone, last?.chunksTotal);
      assert.equal(last?.bars, bars.length);
    } finally {
      client.close();
    }
  });
});
