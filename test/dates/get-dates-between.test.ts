import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvalidParameterError } from '../../src/core/errors.js';
import { getDatesBetween } from '../../src/dates/get-dates-between.js';

const DAY = 86_400_000;

describe('getDatesBetween', () => {
  test('reference vector: 4 days, 3 without the end date', () => {
    assert.deepEqual(getDatesBetween('2022-07-08', '2022-07-11'), [
      '2022-07-08',
      '2022-07-09',
      '2022-07-10',
      '2022-07-11',
    ]);
    assert.deepEqual(getDatesBetween('2022-07-08', '2022-07-11', { includeToDate: false }), [
      '2022-07-08',
      '2022-07-09',
      '2022-07-10',
    ]);
  });

  test('crosses leap days, month and year ends; accepts Dates (their UTC day)', () => {
    assert.deepEqual(getDatesBetween('2024-02-28', '2024-03-01'), ['2024-02-28', '2024-02-29', '2024-03-01']);
    assert.deepEqual(getDatesBetween('2023-12-31', new Date('2024-01-01T23:00:00Z')), [
      '2023-12-31',
      '2024-01-01',
    ]);
    assert.deepEqual(getDatesBetween('2024-01-01', '2024-01-01'), ['2024-01-01']);
    assert.deepEqual(getDatesBetween('2024-01-01', '2024-01-01', { includeToDate: false }), []);
  });

  test('property: consecutive ISO days, count from the UTC day difference', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: 0, max: 800 }), (a, span) => {
        const iso = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);
        const days = getDatesBetween(iso(a), iso(a + span));
        assert.equal(days.length, span + 1);
        for (const [i, d] of days.entries()) assert.equal(d, iso(a + i));
      }),
      { numRuns: 100 },
    );
  });

  test('from after to, and invalid dates, are InvalidParameterError', () => {
    assert.throws(
      () => getDatesBetween('2022-07-11', '2022-07-08'),
      (e: unknown) => e instanceof InvalidParameterError && /fromDate/.test(e.message),
    );
    assert.throws(
      () => getDatesBetween('2022-02-29', '2022-03-08'),
      (e: unknown) => e instanceof InvalidParameterError && e.parameter === 'fromDate',
    );
  });
});
