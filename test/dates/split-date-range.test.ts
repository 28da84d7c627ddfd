import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvalidParameterError } from '../../src/core/errors.js';
import { splitDateRange } from '../../src/dates/split-date-range.js';
import { hasShared, recordedDir } from '../support/shared.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;

// Wall clock of an instant in a zone, read through Intl formatting (not through the code under test).
function wall(ms: number, timeZone: string): { day: string; clock: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    clock: `${parts.hour}:${parts.minute}:${parts.second}`,
  };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayArb = fc
  .integer({ min: Date.UTC(2000, 0, 1) / DAY, max: Date.UTC(2030, 0, 1) / DAY })
  .map((n) => isoDay(n * DAY));

function assertTiles(chunks: readonly (readonly [number, number])[], start: number, end: number): void {
  assert.ok(chunks.length > 0);
  assert.equal(chunks[0]?.[0], start);
  assert.equal(chunks.at(-1)?.[1], end);
  for (let i = 0; i < chunks.length; i++) {
    const [lo, hi] = chunks[i] as [number, number];
    assert.ok(hi > lo, `chunk ${i} is not empty`);
    if (i > 0) assert.equal(lo, chunks[i - 1]?.[1], `chunk ${i} starts where the previous ends`);
  }
}

describe('splitDateRange', () => {
  test('reproduces the reference chunk boundaries, but at New York midnights and with an exclusive end', () => {
    // Reference: ('2020-01-01', '2020-06-28', 'minute') → (05-15, 06-28 23:59), (03-31, 05-15), (02-15, 03-31), (01-01, 02-15).
    const chunks = splitDateRange('2020-01-01', '2020-06-28', 'minute');
    const days = chunks.map(([lo, hi]) => [
      wall(lo, 'America/New_York').day,
      wall(hi, 'America/New_York').day,
    ]);
    assert.deepEqual(days, [
      ['2020-05-15', '2020-06-29'],
      ['2020-03-31', '2020-05-15'],
      ['2020-02-15', '2020-03-31'],
      ['2020-01-01', '2020-02-15'],
    ]);
    for (const [lo, hi] of chunks) {
      assert.equal(wall(lo, 'America/New_York').clock, '00:00:00');
      assert.equal(wall(hi, 'America/New_York').clock, '00:00:00');
    }
  });

  test('a range shorter than one chunk is one chunk; `min` is `minute`; reverse=false is oldest first', () => {
    assert.equal(splitDateRange('2021-06-05', '2021-12-03', 'year').length, 1);
    const min = splitDateRange('2021-06-01', '2021-12-01', 'min');
    assert.deepEqual(min, splitDateRange('2021-06-01', '2021-12-01', 'minute'));
    assert.equal(min.length, 5); // as the reference client
    const forward = splitDateRange('2021-06-01', '2021-12-01', 'min', { reverse: false });
    assert.deepEqual(forward, [...min].reverse());
    assert.ok((forward[0]?.[0] ?? 0) < (forward[1]?.[0] ?? 0));
  });

  test('chunk lengths per timespan, smaller with highVolatility', () => {
    const lengths: Record<string, [number, number]> = {
      minute: [45, 25],
      hour: [60, 40],
      day: [3500, 2000],
      week: [3500, 2000],
      month: [3500, 2000],
      quarter: [3500, 2000],
      year: [3500, 2000],
    };
    for (const [timespan, [normal, high]] of Object.entries(lengths)) {
      for (const [hv, days] of [
        [false, normal],
        [true, high],
      ] as const) {
        // UTC so that every chunk but the last is exactly `days` long.
        const chunks = splitDateRange('2000-01-01', '2030-12-31', timespan, {
          highVolatility: hv,
          reverse: false,
          timeZone: 'UTC',
        });
        const first = chunks[0] as readonly [number, number];
        assert.equal((first[1] - first[0]) / DAY, days, `${timespan} highVolatility=${hv}`);
      }
    }
  });

  test('second: 1 h chunks, 30 min with highVolatility (never a non-positive chunk)', () => {
    const normal = splitDateRange('2024-01-02', '2024-01-02', 'second', { timeZone: 'UTC', reverse: false });
    assert.equal(normal.length, 24);
    assert.ok(normal.every(([lo, hi]) => hi - lo === HOUR));
    const high = splitDateRange('2024-01-02', '2024-01-02', 'second', {
      timeZone: 'UTC',
      reverse: false,
      highVolatility: true,
    });
    assert.equal(high.length, 48);
    assert.ok(high.every(([lo, hi]) => hi - lo === HOUR / 2));
  });

  test('a DST day in New York has 23 h and 25 h of seconds chunks', () => {
    assert.equal(splitDateRange('2024-03-10', '2024-03-10', 'second').length, 23);
    assert.equal(splitDateRange('2024-11-03', '2024-11-03', 'second').length, 25);
  });

  test('property: chunks tile [midnight of start, next midnight after end) in the time zone', () => {
    const zones = ['America/New_York', 'UTC', 'Europe/London', 'Asia/Kolkata'];
    const spans = ['minute', 'hour', 'day'];
    fc.assert(
      fc.property(
        dayArb,
        fc.integer({ min: 0, max: 400 }),
        fc.constantFrom(...zones),
        fc.constantFrom(...spans),
        fc.boolean(),
        (start, days, timeZone, timespan, highVolatility) => {
          const end = isoDay(Date.parse(start) + days * DAY);
          const chunks = splitDateRange(start, end, timespan, { timeZone, highVolatility, reverse: false });
          const first = chunks[0]?.[0] as number;
          const last = chunks.at(-1)?.[1] as number;
          assert.deepEqual(wall(first, timeZone), { day: start, clock: '00:00:00' });
          assert.deepEqual(wall(last, timeZone), { day: isoDay(Date.parse(end) + DAY), clock: '00:00:00' });
          assertTiles(chunks, first, last);
          for (const [lo] of chunks) assert.equal(wall(lo, timeZone).clock, '00:00:00');
        },
      ),
      { numRuns: 150 },
    );
  });

  test('exact instants: a Date with a time or a ms number is used as is, and an exact end is included', () => {
    const from = Date.parse('2024-01-02T14:30:00Z');
    const to = Date.parse('2024-04-01T20:00:00Z');
    const chunks = splitDateRange(from, new Date(to), 'minute', { reverse: false });
    assertTiles(chunks, from, to + 1);
    assert.equal((chunks[0]?.[1] ?? 0) - from, 45 * DAY);
    // A Date at 00:00 UTC names its calendar day, as every DateInput does.
    const asDay = splitDateRange(new Date(Date.UTC(2024, 0, 2)), '2024-01-02', 'day');
    assert.deepEqual(asDay, splitDateRange('2024-01-02', '2024-01-02', 'day'));
  });

  test('the recorded daily bars fall inside the range it computes for their request', (t) => {
    const file = `${recordedDir}v2/aggs/ticker/AAPL/range/1/day/2005-04-01/2005-04-04.json`;
    if (!hasShared(t, file)) return;
    const body = JSON.parse(readFileSync(file, 'utf8')) as { results: { t: number }[] };
    const [[lo, hi]] = splitDateRange('2005-04-01', '2005-04-04', 'day') as [[number, number]];
    assert.equal(body.results[0]?.t, lo, 'the first daily bar starts at the range start (New York midnight)');
    for (const bar of body.results) assert.ok(bar.t >= lo && bar.t < hi);
  });

  test('rejects unknown timespans, bad bounds, reversed ranges and unknown zones', () => {
    const bad: [() => unknown, string][] = [
      [() => splitDateRange('2024-01-01', '2024-01-02', 'fortnight'), 'timespan'],
      [() => splitDateRange('2024-01-01', '2024-01-02', 'toString'), 'timespan'],
      [() => splitDateRange('2024-02-30', '2024-03-02', 'day'), 'start'],
      [() => splitDateRange('2024-01-01', 'tomorrow', 'day'), 'end'],
      [() => splitDateRange('2024-01-02', '2024-01-01', 'day'), 'end'],
      [() => splitDateRange(new Date(Number.NaN), '2024-01-01', 'day'), 'start'],
      [() => splitDateRange(1.5, '2024-01-01', 'day'), 'start'],
      [() => splitDateRange('2024-01-01', '2024-01-02', 'day', { timeZone: 'Mars/Olympus' }), 'timeZone'],
    ];
    for (const [call, parameter] of bad) {
      assert.throws(call, (e: unknown) => e instanceof InvalidParameterError && e.parameter === parameter);
    }
  });
});
