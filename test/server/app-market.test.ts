/**
 * The server's query layer on a small real DuckDB store: time-zone windows across daylight-saving
 * changes, split adjustment and limit paging, with expectations written from the calendar by hand.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dailyBar, previousSessionBar, queryBars } from '../../src/server/market/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';

let store: DuckDbStore;

/** One trade of ACME (price, size) at a UTC instant, with a per-day increasing sequence number. */
let seq = 0n;
async function trade(ticker: string, ms: number, price: number, size: number): Promise<void> {
  seq++;
  await store.run(
    'INSERT INTO trades (ticker, sip_timestamp, sequence_number, price, size) VALUES ($1, $2, $3, $4, $5)',
    [ticker, BigInt(ms) * 1_000_000n, seq, price, size],
  );
}

before(async () => {
  store = await DuckDbStore.open(':memory:');
  // New York leaves DST on Sunday 2013-11-03 at 02:00 EDT (06:00 UTC): midnight is 04:00 UTC on the
  // 3rd and 05:00 UTC on the 4th.
  await trade('ACME', Date.UTC(2013, 10, 3, 3, 30), 10, 100); // 23:30 EDT on Nov 2
  await trade('ACME', Date.UTC(2013, 10, 3, 4, 30), 11, 100); // 00:30 EDT on Nov 3
  await trade('ACME', Date.UTC(2013, 10, 3, 5, 30), 12, 300); // 01:30 EDT
  await trade('ACME', Date.UTC(2013, 10, 3, 6, 30), 13, 100); // 01:30 EST (the hour repeats)
  await trade('ACME', Date.UTC(2013, 10, 4, 4, 30), 14, 100); // 23:30 EST on Nov 3
  await trade('ACME', Date.UTC(2013, 10, 4, 5, 30), 15, 100); // 00:30 EST on Nov 4
  // Crypto days are UTC days whatever New York does.
  await trade('X:ABCUSD', Date.UTC(2013, 10, 3, 0, 30), 1, 1);
  await trade('X:ABCUSD', Date.UTC(2013, 10, 3, 23, 30), 2, 1);
  // Daily bars of a ticker that splits 3-for-1 on 2020-06-03 (bars stamped at New York midnight, EDT).
  for (const [d, c] of [
    [1, 300],
    [2, 306],
    [3, 103],
    [4, 104],
  ] as const) {
    await store.run(
      'INSERT INTO bars (ticker, resolution, t, o, h, l, c, v, vw, n) VALUES ($1, $2, $3, $4, $4, $4, $4, 1000, NULL, NULL)',
      ['SPLT', 'day', BigInt(Date.UTC(2020, 5, d, 4)), c],
    );
  }
  await store.run("INSERT INTO splits VALUES ('SPLT', DATE '2020-06-03', 1, 3)");
});
after(() => store.close());

const q = {
  ticker: 'ACME',
  multiplier: 1,
  adjusted: true,
  sort: 'asc',
  limit: 50_000,
} as const;

describe('query layer: windows in the market time zone', () => {
  test('daily windows start at New York midnight on both sides of the DST change', async () => {
    const page = await queryBars(store, {
      ...q,
      timespan: 'day',
      fromMs: Date.UTC(2013, 10, 2, 4),
      toMs: Date.UTC(2013, 10, 5, 5),
    });
    assert.deepEqual(
      page.bars.map((b) => [b.t, b.o, b.c, b.v, b.n]),
      [
        [Date.UTC(2013, 10, 2, 4), 10, 10, 100, 1],
        [Date.UTC(2013, 10, 3, 4), 11, 14, 600, 4],
        [Date.UTC(2013, 10, 4, 5), 15, 15, 100, 1],
      ],
    );
    const vw = page.bars[1]?.vw as number;
    assert.ok(Math.abs(vw - (11 * 100 + 12 * 300 + 13 * 100 + 14 * 100) / 600) < 1e-12);
  });

  test('hour windows follow the clock through the repeated hour', async () => {
    const page = await queryBars(store, {
      ...q,
      timespan: 'hour',
      fromMs: Date.UTC(2013, 10, 3, 4),
      toMs: Date.UTC(2013, 10, 3, 8),
    });
    assert.deepEqual(
      page.bars.map((b) => [b.t, b.o]),
      [
        [Date.UTC(2013, 10, 3, 4), 11],
        [Date.UTC(2013, 10, 3, 5), 12],
        [Date.UTC(2013, 10, 3, 6), 13],
      ],
    );
  });

  test('weeks start on Sunday midnight New York; crypto days are UTC days', async () => {
    const week = await queryBars(store, {
      ...q,
      timespan: 'week',
      fromMs: Date.UTC(2013, 10, 1),
      toMs: Date.UTC(2013, 10, 8),
    });
    assert.deepEqual(
      week.bars.map((b) => [b.t, b.o, b.c]),
      [
        [Date.UTC(2013, 9, 27, 4), 10, 10], // Sunday Oct 27, EDT
        [Date.UTC(2013, 10, 3, 4), 11, 15], // Sunday Nov 3 starts at EDT midnight
      ],
    );
    const crypto = await queryBars(store, {
      ...q,
      ticker: 'X:ABCUSD',
      timespan: 'day',
      fromMs: Date.UTC(2013, 10, 3),
      toMs: Date.UTC(2013, 10, 3, 23, 59),
    });
    assert.deepEqual(
      crypto.bars.map((b) => [b.t, b.o, b.c]),
      [[Date.UTC(2013, 10, 3), 1, 2]],
    );
  });

  test('limit counts base aggregates and drops a window it cuts', async () => {
    const page = await queryBars(store, {
      ...q,
      timespan: 'day',
      multiplier: 2,
      fromMs: Date.UTC(2013, 10, 2, 4),
      toMs: Date.UTC(2013, 10, 5, 5),
      limit: 2,
    });
    // Days Nov 2 + Nov 3 form the first 2-day window; Nov 4 starts the next page.
    assert.deepEqual(
      page.bars.map((b) => b.t),
      [Date.UTC(2013, 10, 2, 4)],
    );
    assert.equal(page.queryCount, 2);
    assert.equal(page.nextFromMs, Date.UTC(2013, 10, 4, 5));
  });
});

describe('query layer: splits and sessions', () => {
  test('bars before a 3-for-1 split are divided by 3, volume multiplied; unadjusted stays raw', async () => {
    const adjusted = await queryBars(store, {
      ...q,
      ticker: 'SPLT',
      timespan: 'day',
      fromMs: Date.UTC(2020, 5, 1, 4),
      toMs: Date.UTC(2020, 5, 4, 4),
    });
    assert.deepEqual(
      adjusted.bars.map((b) => [b.c, b.v]),
      [
        [100, 3000],
        [102, 3000],
        [103, 1000],
        [104, 1000],
      ],
    );
    const raw = await dailyBar(store, 'SPLT', '2020-06-02', { adjusted: false });
    assert.equal(raw?.c, 306);
  });

  test('the previous session is the last day with data before the day of the instant', async () => {
    const prev = await previousSessionBar(store, 'SPLT', Date.UTC(2020, 5, 4, 15));
    assert.equal(prev?.date, '2020-06-03');
    assert.equal(prev?.bar.c, 103);
    assert.equal(await previousSessionBar(store, 'SPLT', Date.UTC(2020, 5, 1, 15)), undefined);
  });
});
