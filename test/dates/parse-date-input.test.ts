import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvalidParameterError } from '../../src/core/errors.js';
import { parseDateInput } from '../../src/dates/parse-date-input.js';

describe('parseDateInput', () => {
  test('accepts YYYY-MM-DD naming a real day, and Dates by their UTC calendar day', () => {
    assert.equal(parseDateInput('2024-02-29', 'date'), '2024-02-29');
    assert.equal(parseDateInput('2000-02-29', 'date'), '2000-02-29');
    assert.equal(parseDateInput(new Date('2024-03-01T23:59:59.999Z'), 'date'), '2024-03-01');
    assert.equal(parseDateInput(new Date('2024-03-01T23:30:00-05:00'), 'date'), '2024-03-02');
  });

  test('property: agrees with Date.toISOString on every day', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString().slice(0, 10);
          assert.equal(parseDateInput(d, 'date'), iso);
          assert.equal(parseDateInput(iso, 'date'), iso);
        },
      ),
    );
  });

  test('refuses impossible days and non-dates, naming parameter, value and what is allowed', () => {
    for (const bad of [
      '2024-02-30',
      '2023-02-29',
      '1900-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-1-2',
      '20240102',
      '2024-01-02T00:00:00Z',
      ' 2024-01-02',
      '',
    ]) {
      assert.throws(
        () => parseDateInput(bad, 'fromDate'),
        (e: unknown) =>
          e instanceof InvalidParameterError &&
          e.parameter === 'fromDate' &&
          e.message.includes(JSON.stringify(bad)) &&
          e.message.includes('YYYY-MM-DD'),
        bad,
      );
    }
    for (const bad of [new Date(Number.NaN), 1704153600000, null, undefined, {}, ['2024-01-02']]) {
      assert.throws(() => parseDateInput(bad, 'date'), InvalidParameterError);
    }
  });
});
