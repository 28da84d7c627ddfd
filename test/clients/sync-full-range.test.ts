import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StocksClient } from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';
import type { MinuteBarsConfig } from '../support/server-handlers.js';

// The synchronous client's full range crosses threads as columns and is rebuilt as objects on the
// calling thread: whatever the bars look like on the wire, the objects must be those the async client
// decodes, key for key and in the same key order.

const KEY = 'sync-full-range-key';
const DAY = 86_400_000;
const FROM = '2024-01-02';
const TO = '2024-04-30';
const START = Date.parse('2024-01-02T00:00:00-05:00');
const END = Date.parse('2024-05-01T00:00:00-04:00');

const SHAPES = [undefined, 'sparse', 'numbers', 'otc', 'pageOrder'] as const;

describe('sync full range: the same bar objects as the async client', () => {
  const server = new RecordingServer();
  before(() => server.start());
  after(() => server.stop());

  for (const barShape of SHAPES) {
    for (const sort of ['asc', 'desc'] as const) {
      test(`bars ${barShape ?? 'as the service writes them'}, ${sort}`, async () => {
        const config: MinuteBarsConfig = {
          stepMinutes: 11,
          dataStart: START - 3 * DAY,
          dataEnd: END + 3 * DAY,
          // Pages of a chunk follow next_url; the first page of a window spills outside it.
          cap: 1500,
          spillMs: 3 * 3_600_000,
          gaps: [[Date.parse('2024-02-10T00:00:00Z'), Date.parse('2024-02-12T00:00:00Z')]],
          ...(barShape ? { barShape } : {}),
        };
        await server.use('minuteBars', config);
        const options = { sort, maxConcurrentWorkers: 3, info: false } as const;
        const asyncClient = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
        const asyncProgress: number[] = [];
        const want = await asyncClient.getFullRangeAggregateBars('AAPL', FROM, TO, {
          ...options,
          onProgress: (p) => asyncProgress.push(p.chunksDone),
        });
        await asyncClient.close();

        const syncClient = StocksClient(KEY, { baseUrl: server.url });
        const progress: { chunksDone: number; bars: number }[] = [];
        const got = syncClient.getFullRangeAggregateBars('AAPL', FROM, TO, {
          ...options,
          onProgress: (p) => progress.push(p),
        });
        const viaAggregates = syncClient.getAggregateBars('AAPL', FROM, TO, {
          ...options,
          timespan: 'minute',
          fullRange: true,
        });
        syncClient.close();

        assert.ok(want.length > 5000, `the range holds bars (${want.length})`);
        assert.deepEqual(got, want);
        // Key order too: the objects write the same JSON.
        assert.equal(JSON.stringify(got), JSON.stringify(want));
        assert.equal(JSON.stringify(viaAggregates), JSON.stringify(want));
        assert.ok(Array.isArray(got) && got.every((bar) => Object.getPrototypeOf(bar) === Object.prototype));
        // Progress is reported once per chunk, as the async client does, even when the bars had to be
        // fetched again as objects.
        assert.deepEqual(
          progress.map((p) => p.chunksDone),
          asyncProgress,
        );
        assert.equal(progress.at(-1)?.bars, got.length);
        await server.take();
      });
    }
  }

  test('the log lines of every call reach the logger: after a failed call, and call after call', async () => {
    await server.use('minuteBars', {
      stepMinutes: 30,
      dataStart: START,
      dataEnd: END,
      // A chunk without bars: each call logs that it had no data.
      gaps: [[Date.parse('2024-01-20T00:00:00Z'), Date.parse('2024-04-10T00:00:00Z')]],
    } satisfies MinuteBarsConfig);
    const lines: string[] = [];
    const client = StocksClient(KEY, { baseUrl: server.url, logger: (line) => lines.push(line) });
    try {
      assert.throws(
        () => client.getFullRangeAggregateBars('AAPL', FROM, TO, { timespan: 'fortnight' as never }),
        {
          name: 'InvalidParameterError',
        },
      );
      for (let call = 1; call <= 3; call++) {
        client.getFullRangeAggregateBars('AAPL', FROM, TO);
        assert.equal(lines.filter((line) => /^No data/.test(line)).length, call, JSON.stringify(lines));
      }
    } finally {
      client.close();
    }
    await server.take();
  });
});
