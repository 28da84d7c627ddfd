import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { dayOf, wallTime, zonedToUtc, zoneOffset } from '../../src/dates/time-zone.js';

/** The wall time straight from `Intl`, one formatter per call: the reference the memo must match. */
function reference(ms: number, tz: string): Record<string, number> {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(ms)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  out.millisecond = ((ms % 1000) + 1000) % 1000;
  return out;
}

// Zones with DST changes on the hour, half-hour offsets, a half-hour DST change (Lord Howe), and New
// York before 1883, when its local mean time was -4:56:02.
const ZONES = ['America/New_York', 'Europe/London', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Asia/Kolkata'];

test('wallTime agrees with Intl at random instants from 1850 to 2100, repeated calls included', () => {
  const from = Date.UTC(1850, 0, 1);
  const to = Date.UTC(2100, 0, 1);
  fc.assert(
    fc.property(fc.integer({ min: from, max: to }), fc.constantFrom(...ZONES), (ms, tz) => {
      const expected = reference(ms, tz);
      assert.deepEqual({ ...wallTime(ms, tz) }, expected);
      assert.deepEqual({ ...wallTime(ms, tz) }, expected);
    }),
    { numRuns: 3000 },
  );
});

test('wallTime agrees with Intl minute by minute around DST changes, including a half-hour one', () => {
  const changes: [string, number][] = [
    ['America/New_York', Date.UTC(2023, 2, 12, 7)],
    ['America/New_York', Date.UTC(2023, 10, 5, 6)],
    ['Australia/Lord_Howe', Date.UTC(2023, 3, 1, 15)],
    ['Australia/Lord_Howe', Date.UTC(2023, 8, 30, 15, 30)],
  ];
  for (const [tz, at] of changes) {
    for (let ms = at - 2 * 3_600_000; ms <= at + 2 * 3_600_000; ms += 60_000 - 1) {
      assert.deepEqual({ ...wallTime(ms, tz) }, reference(ms, tz), `${tz} at ${new Date(ms).toISOString()}`);
    }
  }
});

test('zoneOffset, dayOf and zonedToUtc keep their meaning across the spring and autumn changes', () => {
  const ny = 'America/New_York';
  assert.equal(zoneOffset(Date.UTC(2023, 0, 15, 12), ny), -5 * 3_600_000);
  assert.equal(zoneOffset(Date.UTC(2023, 6, 15, 12), ny), -4 * 3_600_000);
  assert.equal(dayOf(Date.UTC(2023, 2, 12, 4, 59), ny), '2023-03-11');
  assert.equal(dayOf(Date.UTC(2023, 2, 12, 5), ny), '2023-03-12');
  // 01:30 occurs twice on 2023-11-05: the earlier instant (EDT) is returned.
  assert.equal(zonedToUtc(ny, 2023, 11, 5, 1, 30), Date.UTC(2023, 10, 5, 5, 30));
  // 02:30 does not occur on 2023-03-12: an instant one hour away.
  const skipped = zonedToUtc(ny, 2023, 3, 12, 2, 30);
  assert.ok(skipped === Date.UTC(2023, 2, 12, 6, 30) || skipped === Date.UTC(2023, 2, 12, 7, 30));
});
