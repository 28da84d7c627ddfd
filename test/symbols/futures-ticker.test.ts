import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import * as root from '../../src/index.js';
import {
  buildFuturesTicker,
  FUTURES_MONTH_CODES,
  futuresExpiryOf,
  futuresMonthCode,
  futuresMonthOfCode,
  futuresTickerFromExpiry,
  isFuturesTicker,
  parseFuturesTicker,
} from '../../src/symbols/index.js';

const RUNS = { numRuns: 300 };
const product = fc.stringMatching(/^[0-9]{0,2}[A-Z][A-Z0-9]{0,3}$/);
const month = fc.integer({ min: 1, max: 12 });
const year = fc.integer({ min: 2000, max: 2099 });

const invalid = (parameter: string) => (e: unknown) =>
  e instanceof root.InvalidParameterError && e.parameter === parameter && e.message.includes(parameter);

describe('futures contract tickers', () => {
  test('the helpers are exported from the package root', () => {
    for (const name of [
      'buildFuturesTicker',
      'parseFuturesTicker',
      'isFuturesTicker',
      'futuresTickerFromExpiry',
      'futuresExpiryOf',
      'futuresMonthCode',
      'futuresMonthOfCode',
      'FUTURES_MONTH_CODES',
    ]) {
      assert.ok(name in root, name);
    }
  });

  test('month codes run F to Z, January to December', () => {
    assert.equal(FUTURES_MONTH_CODES.join(''), 'FGHJKMNQUVXZ');
    assert.equal(futuresMonthCode(12), 'Z');
    assert.equal(futuresMonthCode(4), 'J');
    assert.equal(futuresMonthOfCode('h'), 3);
    assert.throws(() => futuresMonthCode(13), invalid('month'));
    assert.throws(() => futuresMonthCode(0), invalid('month'));
    assert.throws(() => futuresMonthOfCode('A'), invalid('monthCode'));
  });

  test('ESZ3 and ESZ23 are December 2023 E-mini; GCJ5 is April 2025 gold', () => {
    assert.deepEqual(parseFuturesTicker('ESZ3', { referenceDate: '2023-06-01' }), {
      ticker: 'ESZ3',
      productCode: 'ES',
      monthCode: 'Z',
      month: 12,
      year: 2023,
      yearDigits: 1,
      expiry: '202312',
    });
    assert.equal(parseFuturesTicker('esz23').expiry, '202312');
    assert.equal(parseFuturesTicker('esz23').yearDigits, 2);
    assert.equal(futuresExpiryOf('GCJ5', { referenceDate: new Date('2025-02-04T00:00:00Z') }), '202504');
    assert.equal(buildFuturesTicker({ productCode: 'ES', month: 12, year: 2023 }), 'ESZ3');
    assert.equal(
      buildFuturesTicker({ productCode: 'es', month: 'z', year: 2023 }, { yearDigits: 2 }),
      'ESZ23',
    );
    assert.equal(futuresTickerFromExpiry('GC', '202504'), 'GCJ5');
    assert.equal(futuresTickerFromExpiry('6E', 202603, { yearDigits: 2 }), '6EH26');
    // A product code may end in a digit: the month letter still splits it from the year.
    assert.equal(parseFuturesTicker('SR3Z24').productCode, 'SR3');
  });

  test('a one-digit year is the nearest year ending in that digit, ties forward', () => {
    const at = (ticker: string, referenceDate: number) => parseFuturesTicker(ticker, { referenceDate }).year;
    assert.equal(at('ESZ3', 2026), 2023);
    assert.equal(at('ESZ1', 2026), 2031);
    assert.equal(at('ESZ2', 2026), 2022); // four years back
    assert.equal(at('ESZ1', 2026), 2031); // five years ahead wins the tie with 2021
    assert.equal(at('ESZ6', 2026), 2026);
    assert.throws(() => parseFuturesTicker('ESZ3', { referenceDate: 'yesterday' }), invalid('referenceDate'));
  });

  test('bad tickers, parts and expiries are refused with the parameter, the value and what is allowed', () => {
    for (const bad of [
      '',
      'ES',
      'ESA3',
      'ESZ',
      'ESZ123',
      'Z3',
      '12Z3',
      'ES Z3',
      'O:SPY',
      'TOOLONGZ3',
      'ESZ3/',
    ]) {
      assert.equal(isFuturesTicker(bad), false, bad);
      assert.throws(
        () => parseFuturesTicker(bad),
        (e: unknown) =>
          invalid('ticker')(e) &&
          (e as Error).message.includes(JSON.stringify(bad)) &&
          (e as Error).message.includes('F G H J K M N Q U V X Z'),
        bad,
      );
    }
    assert.equal(isFuturesTicker(42), false);
    assert.throws(
      () => buildFuturesTicker({ productCode: '', month: 1, year: 2024 }),
      invalid('productCode'),
    );
    assert.throws(() => buildFuturesTicker({ productCode: 'ES', month: 1, year: 1999 }), invalid('year'));
    assert.throws(() => buildFuturesTicker({ productCode: 'ES', month: 1, year: 2024.5 }), invalid('year'));
    assert.throws(
      () => buildFuturesTicker({ productCode: 'ES', month: 1, year: 2024 }, { yearDigits: 3 as never }),
      invalid('yearDigits'),
    );
    for (const bad of ['2023-12', '202313', '202300', 20231, '']) {
      assert.throws(() => futuresTickerFromExpiry('ES', bad), invalid('expiry'), String(bad));
    }
  });

  test('build then parse gives back every part (two-digit years)', () => {
    fc.assert(
      fc.property(product, month, year, (p, m, y) => {
        const ticker = buildFuturesTicker({ productCode: p, month: m, year: y }, { yearDigits: 2 });
        assert.ok(isFuturesTicker(ticker));
        const parsed = parseFuturesTicker(ticker);
        assert.deepEqual([parsed.productCode, parsed.month, parsed.year, parsed.yearDigits], [p, m, y, 2]);
      }),
      RUNS,
    );
  });

  test('a one-digit year comes back as long as the reference is within four years after, five before', () => {
    fc.assert(
      fc.property(product, month, year, fc.integer({ min: -5, max: 4 }), (p, m, y, shift) => {
        const ticker = buildFuturesTicker({ productCode: p, month: m, year: y });
        const parsed = parseFuturesTicker(ticker, { referenceDate: y + shift });
        assert.equal(parsed.year, y);
        assert.equal(parsed.month, m);
      }),
      RUNS,
    );
  });

  test('expiry YYYYMM to ticker and back is the identity', () => {
    fc.assert(
      fc.property(product, month, year, fc.constantFrom(1 as const, 2 as const), (p, m, y, yearDigits) => {
        const expiry = `${y}${String(m).padStart(2, '0')}`;
        const ticker = futuresTickerFromExpiry(p, expiry, { yearDigits });
        assert.equal(futuresExpiryOf(ticker, { referenceDate: y }), expiry);
      }),
      RUNS,
    );
  });
});
