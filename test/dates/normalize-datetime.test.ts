import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvalidParameterError } from '../../src/core/errors.js';
import { normalizeDatetime } from '../../src/dates/normalize-datetime.js';

const DAY = 86_400_000;
const isInvalid = (parameter: string) => (e: unknown) =>
  e instanceof InvalidParameterError && e.parameter === parameter;

describe('normalizeDatetime', () => {
  test('reference vectors (UTC)', () => {
    assert.equal(normalizeDatetime('2021-06-28'), 1624838400000);
    assert.equal(normalizeDatetime(new Date(Date.UTC(2021, 5, 28, 13, 27, 34))), 1624886854000);
    assert.equal(
      normalizeDatetime(new Date(Date.UTC(2021, 5, 28, 13, 27, 34)), { unit: 'ns' }),
      1624886854000000000n,
    );
    // The same wall time in Asia/Kolkata (+05:30) is 5.5 h earlier.
    assert.equal(
      normalizeDatetime('2021-06-28 13:27:34', { format: '%Y-%m-%d %H:%M:%S', tz: 'Asia/Kolkata' }),
      1624867054000,
    );
    const expected = new Date('2022-02-02T15:41:12Z');
    assert.deepEqual(normalizeDatetime(1643816472, { outputType: 'datetime', unit: 's' }), expected);
    assert.deepEqual(normalizeDatetime(1643816472000, { outputType: 'datetime' }), expected);
    assert.deepEqual(
      normalizeDatetime(1643816472000000000n, { outputType: 'datetime', unit: 'ns' }),
      expected,
    );
  });

  test('nanoseconds are exact (the reference gives 1656378123456788992)', () => {
    const ns = normalizeDatetime('2022-06-28T01:02:03.456789Z', { unit: 'ns' });
    assert.equal(ns, BigInt(Date.parse('2022-06-28T01:02:03.456Z')) * 1_000_000n + 789_000n);
    assert.equal(
      normalizeDatetime('2022-06-28T01:02:03.000000001+02:00', { unit: 'ns' }),
      BigInt(Date.parse('2022-06-27T23:02:03Z')) * 1_000_000n + 1n,
    );
    assert.equal(normalizeDatetime(1656378123456789123n, { unit: 'ns' }), 1656378123456789123n);
  });

  test("dir 'end' is the last instant of the day in the unit: the next day's start minus one unit", () => {
    assert.equal(normalizeDatetime('2021-06-28', { dir: 'end' }), Date.parse('2021-06-29T00:00:00Z') - 1);
    assert.equal(
      normalizeDatetime('2021-06-28', { dir: 'end', unit: 's' }),
      Date.parse('2021-06-29T00:00:00Z') / 1000 - 1,
    );
    assert.equal(
      normalizeDatetime('2021-06-28', { dir: 'end', unit: 'ns' }),
      BigInt(Date.parse('2021-06-29T00:00:00Z')) * 1_000_000n - 1n,
    );
    // New York's spring-forward day has 23 hours.
    const ny = { tz: 'America/New_York' };
    const start = normalizeDatetime('2024-03-10', ny);
    const end = normalizeDatetime('2024-03-10', { ...ny, dir: 'end' });
    assert.equal(start, Date.parse('2024-03-10T00:00:00-05:00'));
    assert.equal(end + 1 - start, 23 * 3_600_000);
    assert.equal(end + 1, normalizeDatetime('2024-03-11', ny));
    assert.deepEqual(
      normalizeDatetime('2024-03-10', { ...ny, dir: 'end', outputType: 'datetime' }),
      new Date(end),
    );
    assert.equal(
      normalizeDatetime('2024-03-10', { dir: 'end', outputType: 'str', format: '%H:%M:%S' }),
      '23:59:59',
    );
  });

  test('property: RFC 3339 text and Date give the same instant; tz converts output, never relabels', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), (ms) => {
        const d = new Date(ms);
        assert.equal(normalizeDatetime(d.toISOString()), ms);
        assert.equal(normalizeDatetime(d), ms);
        assert.equal(normalizeDatetime(ms, { tz: 'Asia/Tokyo' }), ms);
        // Tokyo has no DST: +09:00 always.
        const tokyo = new Date(ms + 9 * 3_600_000).toISOString();
        assert.equal(
          normalizeDatetime(ms, { outputType: 'str', format: '%Y-%m-%dT%H:%M:%S', tz: 'Asia/Tokyo' }),
          tokyo.slice(0, 19),
        );
        assert.equal(normalizeDatetime(d, { outputType: 'date', tz: 'Asia/Tokyo' }), tokyo.slice(0, 10));
        assert.equal(normalizeDatetime(ms, { unit: 'ms', outputType: 'ts' }), ms);
      }),
      { numRuns: 300 },
    );
  });

  test('property: a calendar day starts at its UTC midnight and spans one day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), (n) => {
        const day = new Date(n * DAY).toISOString().slice(0, 10);
        assert.equal(normalizeDatetime(day), n * DAY);
        assert.equal(normalizeDatetime(day, { dir: 'end' }), (n + 1) * DAY - 1);
        assert.equal(normalizeDatetime(day, { unit: 'us' }), n * DAY * 1000);
      }),
    );
  });

  test('output types: nts keeps days as strings; str/date/datetime', () => {
    assert.equal(normalizeDatetime('2024-01-02', { outputType: 'nts' }), '2024-01-02');
    assert.equal(normalizeDatetime('2024-01-02', { outputType: 'nts', format: '%d/%m/%Y' }), '02/01/2024');
    assert.equal(
      normalizeDatetime(new Date('2024-01-02T10:00:00Z'), { outputType: 'nts' }),
      Date.parse('2024-01-02T10:00:00Z'),
    );
    assert.equal(normalizeDatetime('2024-01-02', { outputType: 'date' }), '2024-01-02');
    assert.equal(
      normalizeDatetime('2024-01-02T03:00:00Z', { outputType: 'date', tz: 'America/New_York' }),
      '2024-01-01',
    );
    assert.equal(
      normalizeDatetime('2024-07-04T13:30:05Z', {
        outputType: 'str',
        format: '%Y%m%d %H%M%S 100%%',
        tz: 'America/New_York',
      }),
      '20240704 093005 100%',
    );
    assert.deepEqual(
      normalizeDatetime('2024-01-02', { outputType: 'datetime', tz: 'America/New_York' }),
      new Date('2024-01-02T05:00:00Z'),
    );
    // A string in a custom format without a time is a calendar day.
    assert.equal(normalizeDatetime('02/01/2024', { format: '%d/%m/%Y' }), Date.UTC(2024, 0, 2));
  });

  test('rejects what it cannot read, naming the option', () => {
    assert.throws(() => normalizeDatetime('2024-01-02', { unit: 'minutes' as never }), isInvalid('unit'));
    assert.throws(
      () => normalizeDatetime('2024-01-02', { outputType: 'epoch' as never }),
      isInvalid('outputType'),
    );
    assert.throws(() => normalizeDatetime('2024-01-02', { dir: 'middle' as never }), isInvalid('dir'));
    assert.throws(() => normalizeDatetime('2024-01-02', { tz: 'Nowhere/City' }), isInvalid('tz'));
    assert.throws(
      () => normalizeDatetime('2024-01-02', { outputType: 'str', format: '%B %d' }),
      isInvalid('format'),
    );
    for (const bad of [
      '2024-02-30',
      '2024-1-2',
      'yesterday',
      '2024-01-02T10:00:00',
      '2024-01-02T25:00:00Z',
      '',
    ]) {
      assert.throws(() => normalizeDatetime(bad), isInvalid('dt'), bad);
    }
    for (const bad of [new Date(Number.NaN), 1.5, Number.NaN, null, undefined, {}]) {
      assert.throws(() => normalizeDatetime(bad as never), isInvalid('dt'));
    }
  });
});
