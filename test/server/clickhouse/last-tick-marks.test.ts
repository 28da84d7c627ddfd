/**
 * The latest trade of one ticker reads only the granules around its latest instant on ClickHouse, not
 * every row of the ticker: ClickHouse's own count of the index marks its queries selected
 * (`SelectedMarks` in `system.events`) measures what each look-up read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastTrades } from '../../../src/server/market/last.js';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { startClickHouse } from '../../support/clickhouse.js';

/** 2013-10-07 13:30 UTC, in ns: the first trade. */
const FIRST_NS = 1_381_152_600_000_000_000n;
/** One trade every 50 ms, in ns. */
const STEP_NS = 50_000_000n;
/** Trades of AAA: 50 granules of 8192 rows. */
const TRADES = 409_600;

test('the latest trade of one ticker reads the marks at its latest instant, not every mark of the ticker', {
  timeout: 120_000,
}, async (t) => {
  const servers = await startClickHouse(t);
  if (!servers) return;
  const store = await ClickHouseStore.open(servers.urls[0] as string);
  t.after(() => store.close());
  await store.createSchema();
  for (const ticker of ['AAA', 'BBB'])
    await store.run(
      `INSERT INTO trades (ticker, sip_timestamp, sequence_number, price, size)
       SELECT '${ticker}', toInt64(${FIRST_NS}) + toInt64(number) * ${STEP_NS}, toInt64(number), 100 + number % 7, 100
         FROM system.numbers LIMIT ${TRADES}`,
    );
  const selectedMarks = async () =>
    Number(
      (
        await store.all<{ v: bigint }>("SELECT value AS v FROM system.events WHERE event = 'SelectedMarks'")
      )[0]?.v ?? 0n,
    );
  const marksOf = async <T>(read: () => Promise<T>): Promise<[T, number]> => {
    const before = await selectedMarks();
    const result = await read();
    return [result, (await selectedMarks()) - before];
  };
  const lastNs = FIRST_NS + BigInt(TRADES - 1) * STEP_NS;
  const lastMs = Number(lastNs / 1_000_000n);

  // What every mark of AAA is: a scan of its trades selects them all.
  const [, all] = await marksOf(() => store.all("SELECT count() FROM trades WHERE ticker = 'AAA'"));
  assert.ok(all >= 50, `AAA's trades span ${all} marks`);

  // Its latest trade, with a bound a minute back (as a snapshot asks from the session before).
  const [found, marks] = await marksOf(() => lastTrades(store, ['AAA'], lastMs + 1000, lastMs - 60_000));
  assert.equal(found.get('AAA')?.sequence_number, BigInt(TRADES - 1));
  assert.equal(found.get('AAA')?.sip_timestamp, lastNs);
  assert.ok(marks <= 4, `${marks} of ${all} marks read for the latest trade`);

  // None since the bound: nothing found, nearly nothing read.
  const [none, noMarks] = await marksOf(() => lastTrades(store, ['AAA'], lastMs + 3_600_000, lastMs + 1000));
  assert.equal(none.size, 0);
  assert.ok(noMarks <= 4, `${noMarks} of ${all} marks read for no trade`);

  // A list of two still finds each ticker's latest trade.
  const both = await lastTrades(store, ['AAA', 'BBB'], lastMs + 1000, lastMs - 60_000);
  assert.deepEqual([...both.values()].map((r) => [r.ticker, r.sequence_number]).sort(), [
    ['AAA', BigInt(TRADES - 1)],
    ['BBB', BigInt(TRADES - 1)],
  ]);
});
