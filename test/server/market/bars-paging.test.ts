/**
 * Paging aggregate bars: a page reads only the days its limit can reach (queryBars' span), yet the
 * pages of any query, followed to the end, join up to its unpaged answer, each page holding at most
 * `limit` base aggregates, and all but the last holding as many as the limit allows.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { type Bar, type BarQuery, queryBars } from '../../../src/server/market/bars.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { writeSyntheticMinuteBars } from '../../reliability/synthetic-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { fixtureStorePath } from '../app-fixture.js';
import { assertSameBars } from './same-bars.js';

const DAY = 86_400_000;
const MONDAY = Date.parse('2013-10-07T04:00:00Z');
const UNPAGED = 1_000_000_000;

/** Every page of `q`, following `nextFromMs` (ascending) or `nextToMs` (descending) to the end. */
async function walk(store: DuckDbStore, q: BarQuery): Promise<{ bars: Bar[]; counts: number[] }> {
  const bars: Bar[] = [];
  const counts: number[] = [];
  let page = q;
  for (let i = 0; ; i++) {
    assert.ok(i < 10_000, 'the pages end');
    const p = await queryBars(store, page);
    bars.push(...p.bars);
    counts.push(p.queryCount);
    if (p.nextFromMs !== undefined) page = { ...page, fromMs: p.nextFromMs };
    else if (p.nextToMs !== undefined) page = { ...page, toMs: p.nextToMs };
    else return { bars, counts };
  }
}

/**
 * The pages of `q` join up to its unpaged answer; each holds at most `limit` base aggregates and, but
 * for the last, more than `limit` less the most one window can hold (else the next window would fit).
 */
async function assertPagesJoin(store: DuckDbStore, q: BarQuery, perWindow: number): Promise<number> {
  const whole = await queryBars(store, { ...q, limit: UNPAGED });
  const paged = await walk(store, q);
  assertSameBars(paged.bars, whole.bars);
  paged.counts.forEach((count, i) => {
    assert.ok(count <= q.limit, `page ${i} holds ${count} > ${q.limit} base aggregates`);
    if (i < paged.counts.length - 1)
      assert.ok(count > q.limit - perWindow, `page ${i} holds only ${count} of ${q.limit}`);
  });
  return paged.counts.length;
}

/**
 * `unpaged` paged at the limit that splits its answer into `pages` pages, checked as above. Skipped when
 * one window holds as many base aggregates as that limit (`perWindow` of them at most): such a window is
 * scanned whole, and the pages around it are not full.
 */
async function assertPagesJoinInto(store: DuckDbStore, unpaged: BarQuery, pages: number, perWindow: number) {
  const { queryCount } = await queryBars(store, unpaged);
  const limit = Math.max(1, Math.ceil(queryCount / pages));
  if (perWindow >= limit) return;
  await assertPagesJoin(store, { ...unpaged, limit }, perWindow);
}

/** Base aggregates in one window of one timespan: seconds, minutes, or days at most. */
const WINDOW_BASES: Record<string, number> = {
  second: 1,
  minute: 1,
  hour: 60,
  day: 1,
  week: 7,
  month: 31,
  quarter: 92,
  year: 366,
};

describe('paged aggregate bars of the real data join up to the unpaged answer', () => {
  let store: DuckDbStore | undefined;
  before(async () => {
    if (existsSync(leanDir)) store = await DuckDbStore.open(await fixtureStorePath(), { readOnly: true });
  });
  after(() => store?.close());

  // The real data: SPY and IBM ticks and minute bars around 2013-10-07 (days with ticks, days with bars,
  // weekends with neither), bitcoin's second and minute bars, the S&P 500's hour and minute bars.
  for (const [label, tickers, startMs] of [
    ['stocks with ticks and bars', ['SPY', 'IBM'], MONDAY - 4 * DAY],
    ['second and minute bars', ['X:BTCUSD'], Date.parse('2016-10-05T00:00:00Z')],
    ['hour and minute bars', ['I:SPX'], Date.parse('2021-01-02T05:00:00Z')],
  ] as const) {
    test(`any query, any limit: ${label}`, async (t) => {
      if (!hasShared(t, leanDir) || !store) return;
      const query = fc.record({
        ticker: fc.constantFrom(...tickers),
        multiplier: fc.constantFrom(1, 5, 30),
        timespan: fc.constantFrom('second', 'minute', 'hour'),
        fromMs: fc.integer({ min: 0, max: 3 * 24 * 60 }).map((m) => startMs + m * 60_000),
        spanMinutes: fc.integer({ min: 1, max: 8 * 24 * 60 }),
        adjusted: fc.boolean(),
        sort: fc.constantFrom('asc', 'desc'),
        // A share of the unpaged answer's base aggregates: a few pages to a few dozen.
        pages: fc.integer({ min: 2, max: 30 }),
      });
      await fc.assert(
        fc.asyncProperty(query, async ({ spanMinutes, pages, ...rest }) => {
          const unpaged = { ...rest, toMs: rest.fromMs + spanMinutes * 60_000, limit: UNPAGED } as BarQuery;
          const perWindow = (WINDOW_BASES[unpaged.timespan] as number) * unpaged.multiplier;
          await assertPagesJoinInto(store as DuckDbStore, unpaged, pages, perWindow);
        }),
        { numRuns: 40 },
      );
    });
  }

  // SPY's and AAPL's daily bars (years of them) and the days with minute bars or ticks among them.
  test('any query, any limit: day, week, month, quarter and year windows', async (t) => {
    if (!hasShared(t, leanDir) || !store) return;
    const query = fc.record({
      ticker: fc.constantFrom('SPY', 'AAPL'),
      multiplier: fc.constantFrom(1, 2, 3),
      timespan: fc.constantFrom('day', 'week', 'month', 'quarter', 'year'),
      fromMs: fc.integer({ min: 0, max: 600 }).map((d) => Date.parse('2012-06-01T04:00:00Z') + d * DAY),
      spanDays: fc.integer({ min: 1, max: 4000 }),
      adjusted: fc.boolean(),
      sort: fc.constantFrom('asc', 'desc'),
      pages: fc.integer({ min: 2, max: 30 }),
    });
    await fc.assert(
      fc.asyncProperty(query, async ({ spanDays, pages, ...rest }) => {
        const unpaged = { ...rest, toMs: rest.fromMs + spanDays * DAY, limit: UNPAGED } as BarQuery;
        const perWindow = (WINDOW_BASES[unpaged.timespan] as number) * unpaged.multiplier;
        await assertPagesJoinInto(store as DuckDbStore, unpaged, pages, perWindow);
      }),
      { numRuns: 40 },
    );
  });
});

describe('paging a year of minute bars', () => {
  let store: DuckDbStore;
  let written = 0;
  before(async () => {
    store = await DuckDbStore.open(':memory:');
    written = await writeSyntheticMinuteBars(store, '2023-01-02', '2023-12-29');
  });
  after(() => store.close());

  test('every limit and both orders give the whole year, page after full page', async () => {
    const fromMs = Date.parse('2023-01-01T05:00:00Z');
    const toMs = Date.parse('2024-01-01T04:59:59.999Z');
    for (const limit of [5000, 50_000]) {
      for (const sort of ['asc', 'desc'] as const) {
        const q: BarQuery = {
          ticker: 'SYNTH',
          multiplier: 1,
          timespan: 'minute',
          fromMs,
          toMs,
          adjusted: true,
          sort,
          limit,
        };
        const pages = await assertPagesJoin(store, q, 1);
        assert.equal(written, 260 * 960); // 260 weekdays of 960 minutes
        assert.equal(pages, Math.ceil(written / limit));
      }
    }
  });
});

describe('paging across DST changes', () => {
  let store: DuckDbStore;
  // Every minute around the clock over the days of New York's changes of 2023 (March 12, November 5).
  const days = [Date.parse('2023-03-11T05:00:00Z'), Date.parse('2023-11-04T04:00:00Z')];
  before(async () => {
    store = await DuckDbStore.open(':memory:');
    for (const start of days) {
      await store.run(
        `INSERT INTO bars (ticker, resolution, t, o, h, l, c, v, vw, n) SELECT 'DST', 'minute', $1 + m * 60000, 100 + m % 7, 101 + m % 7, 99, 100, 10, NULL, 1
           FROM range(3 * 1440) r(m) ORDER BY m`,
        [BigInt(start)],
      );
    }
  });
  after(() => store.close());

  test('pages of local-clock and UTC-clock windows join up, in both orders', async () => {
    for (const start of days) {
      for (const [multiplier, timespan] of [
        [1, 'minute'],
        [90, 'minute'],
        [2, 'hour'],
      ] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          for (const limit of [500, 2000]) {
            const q: BarQuery = {
              ticker: 'DST',
              multiplier,
              timespan,
              fromMs: start,
              toMs: start + 3 * DAY - 1,
              adjusted: true,
              sort,
              limit,
            };
            await assertPagesJoin(store, q, (WINDOW_BASES[timespan] as number) * multiplier);
          }
        }
      }
    }
  });
});
