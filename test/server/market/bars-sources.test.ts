import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { type BarQuery, barsOfTickers, queryBars, tickCoverage } from '../../../src/server/market/bars.js';
import { offsetSegments } from '../../../src/server/market/time-zone.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { withStoreFile } from '../../support/store.js';
import { fixtureStorePath } from '../app-fixture.js';
import { assertSameBars } from './same-bars.js';

const NEW_YORK = 'America/New_York';
const HOUR = 3_600_000;
// 2013-10-07 (SPY and IBM ticks, SPY minute bars) and the days around it, in New York.
const MONDAY = Date.parse('2013-10-07T04:00:00Z');

/** The same store, as if it could change: it answers every query from all sources. */
function writable(store: DuckDbStore): DuckDbStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'readOnly') return false;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('queryBars on a read-only store skips sources it knows cannot answer', () => {
  let store: DuckDbStore | undefined;
  before(async () => {
    if (existsSync(leanDir)) store = await DuckDbStore.open(await fixtureStorePath(), { readOnly: true });
  });
  after(() => store?.close());

  test('tickCoverage tells ticks, bars and both apart', async (t) => {
    if (!hasShared(t, leanDir) || !store) return;
    assert.equal(store.readOnly, true);
    const cover = (ticker: string, from: number, to: number) =>
      tickCoverage(
        store as DuckDbStore,
        ticker,
        offsetSegments(NEW_YORK, from - 86_400_000, to + 86_400_000),
        from,
        to,
      );
    // The whole day of SPY ticks.
    assert.equal(await cover('SPY', MONDAY, MONDAY + 24 * HOUR), 'ticks');
    // The Friday before has SPY minute bars but no ticks.
    assert.equal(await cover('SPY', MONDAY - 3 * 24 * HOUR, MONDAY - 2 * 24 * HOUR), 'bars');
    // Friday and Monday together: Friday has no ticks.
    assert.equal(await cover('SPY', MONDAY - 3 * 24 * HOUR, MONDAY + 24 * HOUR), 'both');
    // A range with ticks but no whole hour of them inside it.
    assert.equal(
      await cover('SPY', MONDAY + 14 * HOUR + 10 * 60_000, MONDAY + 14 * HOUR + 20 * 60_000),
      'both',
    );
    assert.equal(
      await tickCoverage(
        writable(store),
        'SPY',
        offsetSegments(NEW_YORK, MONDAY - 86_400_000, MONDAY + 2 * 86_400_000),
        MONDAY,
        MONDAY + 24 * HOUR,
      ),
      'both',
    );
  });

  // Each ticker from two days before its first day of interest, by minute over five days: the SPY and
  // IBM ticks and minute bars of 2013-10-07, bitcoin's second and minute bars of 2016-10-07 to -09
  // (a day holds both), the S&P 500's hour and minute bars of January 2021.
  for (const [label, tickers, startMs] of [
    ['stocks with ticks and bars', ['SPY', 'IBM', 'AAPL', 'NOPE'], MONDAY - 3 * 24 * HOUR],
    ['second and minute bars', ['X:BTCUSD'], Date.parse('2016-10-05T00:00:00Z')],
    ['hour and minute bars', ['I:SPX'], Date.parse('2021-01-02T05:00:00Z')],
  ] as const) {
    test(`every intraday query gives the same page as with every source read: ${label}`, async (t) => {
      if (!hasShared(t, leanDir) || !store) return;
      const all = writable(store);
      const query = fc.record({
        ticker: fc.constantFrom(...tickers),
        multiplier: fc.constantFrom(1, 5, 30, 90),
        timespan: fc.constantFrom('second', 'minute', 'hour'),
        fromMs: fc.integer({ min: 0, max: 5 * 24 * 60 }).map((m) => startMs + m * 60_000),
        spanMinutes: fc.integer({ min: 1, max: 3 * 24 * 60 }),
        adjusted: fc.boolean(),
        sort: fc.constantFrom('asc', 'desc'),
        limit: fc.constantFrom(50, 1000, 50_000),
      });
      await fc.assert(
        fc.asyncProperty(query, async ({ spanMinutes, ...rest }) => {
          const q = { ...rest, toMs: rest.fromMs + spanMinutes * 60_000 } as BarQuery;
          const kept = await queryBars(store as DuckDbStore, q);
          const every = await queryBars(all, q);
          assert.deepEqual({ ...kept, bars: [] }, { ...every, bars: [] });
          assertSameBars(kept.bars, every.bars);
        }),
        { numRuns: label.startsWith('stocks') ? 120 : 60 },
      );
    });
  }
});

describe('barsOfTickers asks for a list of one as queryBars asks for its ticker', () => {
  let store: DuckDbStore | undefined;
  before(async () => {
    if (existsSync(leanDir)) store = await DuckDbStore.open(await fixtureStorePath(), { readOnly: true });
  });
  after(() => store?.close());

  /** The store, with the text of every bar query (the one selecting `bkey`) asked of it in `sql`. */
  function recording(inner: DuckDbStore, sql: string[]): DuckDbStore {
    return new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'columns' && prop !== 'all')
          return typeof value === 'function' ? value.bind(target) : value;
        return (text: string, params?: unknown[]) => {
          if (text.includes('AS bkey')) sql.push(text);
          return value.call(target, text, params);
        };
      },
    });
  }

  // SPY on 2013-10-07 has ticks (and minute bars, which lose to them), on Friday 2013-10-04 minute bars
  // only; each day's minutes and the days around them, as a snapshot's session and previous day ask.
  for (const [label, timespan, fromMs, toMs] of [
    ['minutes of a day of ticks', 'minute', MONDAY, MONDAY + 24 * HOUR - 1],
    ['minutes of a day of minute bars', 'minute', MONDAY - 3 * 24 * HOUR, MONDAY - 2 * 24 * HOUR - 1],
    ['days around both', 'day', MONDAY - 7 * 24 * HOUR, MONDAY + 2 * 24 * HOUR],
  ] as const) {
    test(`one ticker is asked for as ticker = $1, and gets the bars a list gives it: ${label}`, async (t) => {
      if (!hasShared(t, leanDir) || !store) return;
      const sql: string[] = [];
      const q = { timespan, fromMs, toMs, adjusted: true };
      const alone = (await barsOfTickers(recording(store, sql), ['SPY'], q)).get('SPY') ?? [];
      const listed = (await barsOfTickers(recording(store, []), ['IBM', 'SPY'], q)).get('SPY') ?? [];
      assert.ok(alone.length > 0, 'SPY has bars');
      assertSameBars(alone, listed);
      assert.equal(sql.length, 1);
      assert.match(sql[0] as string, /FROM trades WHERE ticker = \$1 /);
      assert.match(sql[0] as string, /FROM bars WHERE ticker = \$1 /);
    });
  }
});

describe('queryBars passes bars stored at the base resolution through only when each is on its start', () => {
  test('a minute bar off the start of its minute is combined with the others of that minute', async () => {
    await withStoreFile(async (path) => {
      const writer = await DuckDbStore.open(path);
      const at = (hhmmss: string) => Date.parse(`2024-03-04T${hhmmss}Z`);
      // EVEN: one bar per minute, each on its start. ODD: the same, plus a bar at 15:00:30.
      for (const [ticker, times] of [
        ['EVEN', ['15:00:00', '15:01:00', '15:02:00']],
        ['ODD', ['15:00:00', '15:00:30', '15:01:00', '15:02:00']],
      ] as const) {
        for (const [i, time] of times.entries()) {
          await writer.run(
            `INSERT INTO bars (ticker, resolution, t, o, h, l, c, v, vw, n) VALUES ($1, 'minute', $2, $3, $3 + 1, $3 - 1, $3 + 0.5, 100, NULL, 10)`,
            [ticker, BigInt(at(time)), 10 + i],
          );
        }
      }
      writer.close();
      const store = await DuckDbStore.open(path, { readOnly: true });
      try {
        const query = (ticker: string): BarQuery => ({
          ticker,
          multiplier: 1,
          timespan: 'minute',
          fromMs: at('14:00:00'),
          toMs: at('16:00:00'),
          adjusted: true,
          sort: 'asc',
          limit: 50_000,
        });
        for (const ticker of ['EVEN', 'ODD']) {
          assert.deepEqual(
            await queryBars(store, query(ticker)),
            await queryBars(writable(store), query(ticker)),
          );
        }
        const odd = await queryBars(store, query('ODD'));
        assert.deepEqual(
          odd.bars.map((b) => [b.t, b.o, b.c, b.v, b.n]),
          [
            [at('15:00:00'), 10, 11.5, 200, 20],
            [at('15:01:00'), 12, 12.5, 100, 10],
            [at('15:02:00'), 13, 13.5, 100, 10],
          ],
        );
        assert.equal(odd.queryCount, 3);
      } finally {
        store.close();
      }
    });
  });

  test('windows on the local clock keep the repeated hour of a DST change as the grouped query does', async () => {
    await withStoreFile(async (path) => {
      const writer = await DuckDbStore.open(path);
      // Every minute from 04:00 to 08:00 UTC on 2023-11-05: New York's 01:00 to 02:00 happens twice.
      const start = Date.parse('2023-11-05T04:00:00Z');
      await writer.run(
        `INSERT INTO bars (ticker, resolution, t, o, h, l, c, v, vw, n) SELECT 'FALL', 'minute', $1 + m * 60000, 100 + m, 101 + m, 99 + m, 100.5 + m, 10, NULL, 1
           FROM range(240) r(m)`,
        [BigInt(start)],
      );
      writer.close();
      const store = await DuckDbStore.open(path, { readOnly: true });
      try {
        for (const [multiplier, timespan] of [
          [2, 'hour'],
          [90, 'minute'],
          [1, 'minute'],
        ] as const) {
          const q: BarQuery = {
            ticker: 'FALL',
            multiplier,
            timespan,
            fromMs: start - 3_600_000,
            toMs: start + 5 * 3_600_000,
            adjusted: true,
            sort: 'asc',
            limit: 50_000,
          };
          assert.deepEqual(
            await queryBars(store, q),
            await queryBars(writable(store), q),
            `${multiplier} ${timespan}`,
          );
        }
      } finally {
        store.close();
      }
    });
  });
});
