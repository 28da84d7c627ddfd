/**
 * A deterministic synthetic ticker for tests and benchmarks that need more minute bars than the real
 * data holds: every weekday of a range, one bar per minute from 04:00 to 20:00 New York time (the
 * service's extended session), written through the `Store` class into the schema's `bars` table.
 */
import { NEW_YORK, startOfDay } from '../../src/dates/time-zone.js';
import type { Store } from '../../src/server/store/store.js';

/** Ticker of the synthetic bars. */
export const SYNTHETIC_TICKER = 'SYNTH';

/** Minutes per synthetic trading day: 04:00 to 20:00 New York. */
export const MINUTES_PER_DAY = 16 * 60;

/** Weekdays (`YYYY-MM-DD`) from `from` to `to`, both included. */
export function weekdays(from: string, to: string): string[] {
  const days: string[] = [];
  for (
    let d = new Date(`${from}T00:00:00Z`);
    d <= new Date(`${to}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1)
  ) {
    const dow = d.getUTCDay();
    if (dow !== 0 && dow !== 6) days.push(d.toISOString().slice(0, 10));
  }
  return days;
}

/** Unix ms of the first synthetic bar (04:00 New York) of each weekday in the range. */
export function sessionStarts(from: string, to: string): number[] {
  return weekdays(from, to).map((day) => startOfDay(day, NEW_YORK) + 4 * 3_600_000);
}

/**
 * Writes the synthetic minute bars of [from, to] for `ticker` into `store` and returns how many.
 * Prices follow a deterministic function of the bar index, so two stores built alike are identical.
 * Rows are stored in time order, as an ingest of day files appends them, so that the table's per-row-
 * group ranges of `t` let a query skip the row groups outside its range.
 */
export async function writeSyntheticMinuteBars(
  store: Store,
  from: string,
  to: string,
  ticker: string = SYNTHETIC_TICKER,
): Promise<number> {
  const starts = sessionStarts(from, to);
  await store.run('CREATE TEMP TABLE synth_days (d INTEGER, t0 BIGINT)');
  await store.run(`INSERT INTO synth_days VALUES ${starts.map((t0, d) => `(${d}, ${t0})`).join(', ')}`);
  await store.run(
    `INSERT INTO bars (ticker, resolution, t, o, h, l, c, v, vw, n)
     SELECT $1, 'minute', t0 + m * 60000 AS t,
            round(p, 2), round(p + 0.05 + (k % 7) / 100, 2), round(p - 0.05 - (k % 5) / 100, 2),
            round(p + ((k % 11) - 5) / 100, 2), 100 + (k * 7919) % 5000,
            round(p + ((k % 3) - 1) / 200, 4), 1 + (k * 104729) % 90
     FROM (SELECT t0, m, d * ${MINUTES_PER_DAY} + m AS k,
                  100 + 10 * sin((d * ${MINUTES_PER_DAY} + m) / 5000.0) + ((d * ${MINUTES_PER_DAY} + m) * 31 % 97) / 100.0 AS p
           FROM synth_days, range(${MINUTES_PER_DAY}) r(m))
     ORDER BY t`,
    [ticker],
  );
  await store.run('DROP TABLE synth_days');
  return starts.length * MINUTES_PER_DAY;
}
