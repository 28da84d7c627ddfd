import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BAR_COLUMN_FIELDS, type BarColumns, InvalidParameterError, StocksClient } from '../../src/index.js';
import { startServerThread } from '../../src/server/index.js';
import { fixtureServer, fixtureStorePath } from '../server/app-fixture.js';
import { startFaultServer } from '../support/fault-server.js';
import { hasShared, leanDir } from '../support/shared.js';

type Bar = { t: number };

/** Columns and bar objects agree field by field (a field a bar lacks is NaN), in the same order. */
function assertSameBars(columns: BarColumns, bars: readonly Bar[]): void {
  assert.equal(columns.length, bars.length);
  for (const field of BAR_COLUMN_FIELDS) {
    assert.ok(columns[field] instanceof Float64Array, `${field} is a Float64Array`);
    assert.equal(columns[field].length, bars.length, `${field} has one element per bar`);
  }
  for (let i = 0; i < bars.length; i++) {
    const bar = bars[i] as unknown as Record<string, unknown>;
    for (const field of BAR_COLUMN_FIELDS) {
      const want = typeof bar[field] === 'number' ? bar[field] : Number.NaN;
      if (!Object.is(columns[field][i], want)) {
        assert.fail(
          `bar ${i} (t ${bar.t}): ${field} is ${columns[field][i]} in columns, ${bar[field]} as an object`,
        );
      }
    }
  }
}

/** Each `t` once, in `sort` order: no duplicate, nothing out of order. */
function assertStrictOrder(t: Float64Array, sort: 'asc' | 'desc'): void {
  for (let i = 1; i < t.length; i++) {
    const ok =
      sort === 'asc' ? (t[i] as number) > (t[i - 1] as number) : (t[i] as number) < (t[i - 1] as number);
    if (!ok) assert.fail(`t[${i}] = ${t[i]} after t[${i - 1}] = ${t[i - 1]} (${sort})`);
  }
}

// Real bars of the stored Lean data: second bars of a day of SPY ticks (one-hour chunks), minute bars of
// two days, and weekly bars of AAPL over 16 years (weeks straddle the 3500-day chunks' boundaries).
const CASES = [
  {
    name: 'SPY second bars of a day of ticks',
    symbol: 'SPY',
    from: '2013-10-07',
    to: '2013-10-07',
    timespan: 'second',
  },
  { name: 'SPY minute bars', symbol: 'SPY', from: '2013-10-04', to: '2013-10-07', timespan: 'minute' },
  {
    name: 'AAPL weekly bars over 16 years',
    symbol: 'AAPL',
    from: '1998-01-02',
    to: '2013-12-31',
    timespan: 'week',
  },
] as const;

describe('columnar full range over the stored data', () => {
  for (const c of CASES) {
    for (const sort of ['asc', 'desc'] as const) {
      test(`${c.name}, ${sort}: columns equal the bar objects, each t once`, async (t) => {
        const server = await fixtureServer(t);
        if (!server) return;
        const client = StocksClient('any-key', { useAsync: true, baseUrl: server.url });
        t.after(() => client.close());
        const options = { timespan: c.timespan, sort, info: false, maxConcurrentWorkers: 4 } as const;
        const bars = await client.getFullRangeAggregateBars(c.symbol, c.from, c.to, options);
        const progress: number[] = [];
        const columns = await client.getFullRangeAggregateBars(c.symbol, c.from, c.to, {
          ...options,
          columnar: true,
          onProgress: (p) => progress.push(p.bars),
        });
        assert.ok(bars.length > 20, `the store holds ${c.name} (${bars.length} bars)`);
        assertSameBars(columns, bars);
        assertStrictOrder(columns.t, sort);
        assert.equal(progress.at(-1), columns.length);
      });
    }
  }

  test('getAggregateBars with fullRange and columnar; the sync client moves the columns across threads', async (t) => {
    if (!hasShared(t, leanDir)) return;
    // The sync client blocks this thread: the server runs in a thread of its own.
    const server = await startServerThread({ db: await fixtureStorePath(), port: 0, log: () => {} });
    t.after(() => server.close());
    const args = ['SPY', '2013-10-07', '2013-10-07'] as const;
    const options = { timespan: 'second', fullRange: true, info: false } as const;
    const client = StocksClient('any-key', { useAsync: true, baseUrl: server.url });
    t.after(() => client.close());
    const bars = await client.getAggregateBars(...args, options);
    const asyncColumns = await client.getAggregateBars(...args, { ...options, columnar: true });
    assertSameBars(asyncColumns, bars);

    const sync = StocksClient('any-key', { baseUrl: server.url });
    t.after(() => sync.close());
    const syncColumns = sync.getAggregateBars(...args, { ...options, columnar: true, sort: 'desc' });
    assertSameBars(syncColumns, [...bars].reverse());
    const viaFullRange = sync.getFullRangeAggregateBars(...args, {
      timespan: 'second',
      info: false,
      columnar: true,
    });
    assertSameBars(viaFullRange, bars);
  });

  test('columnar without fullRange is refused before any request, naming the option', () => {
    const client = StocksClient('any-key', { useAsync: true, baseUrl: 'http://127.0.0.1:9' });
    assert.throws(
      () => client.getAggregateBars('SPY', '2013-10-07', '2013-10-07', { columnar: true }),
      (error: unknown) =>
        error instanceof InvalidParameterError &&
        /columnar/.test(error.message) &&
        /fullRange/.test(error.message),
    );
    assert.throws(
      () =>
        client.getAggregateBars('SPY', '2013-10-07', '2013-10-07', {
          fullRange: true,
          columnar: 'yes' as never,
        }),
      (error: unknown) => error instanceof InvalidParameterError && /columnar/.test(error.message),
    );
  });

  test('a page cut mid-body, of another shape, or not JSON is fetched again; the columns are exact', async (t) => {
    const start = Date.parse('2024-01-03T15:00:00Z');
    const bars = Array.from({ length: 500 }, (_, k) => ({
      v: 100 + k,
      vw: 10.125 + k / 1000,
      o: -1.5e-3 * k,
      c: 10 + k,
      h: 11 + k,
      l: 9 + k,
      t: start + k * 60_000,
      n: k,
    }));
    const body = { ticker: 'AAPL', queryCount: bars.length, results: bars, status: 'OK', request_id: 'r' };
    const withOtc = { ...body, results: bars.map((bar) => ({ ...bar, otc: true })) };
    const server = await startFaultServer([
      { kind: 'drop-mid-body', body },
      { body: withOtc }, // the decoder gives up: fetched again for parseJson
      { body: '{"results": [' }, // not JSON: fetched again, within maxRetries
      { body: withOtc },
    ]);
    t.after(() => server.close());
    const client = StocksClient('any-key', { useAsync: true, baseUrl: server.url, logger: () => {} });
    t.after(() => client.close());
    const columns = await client.getFullRangeAggregateBars('AAPL', '2024-01-03', '2024-01-03', {
      info: false,
      columnar: true,
    });
    // The bars as the wire has them (-0 is written 0).
    assertSameBars(columns, JSON.parse(JSON.stringify(bars)));
    assert.equal(server.requests.length, 4);
  });
});
