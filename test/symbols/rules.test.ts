// Hand-written cases for each input rule: strikes, expiries, option types, underlyings, formats, and the
// errors that name the parameter, the bad value and what is allowed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidParameterError, isInvalidParameterError } from '../../src/core/errors.js';
import {
  buildOptionSymbol,
  buildPolygonOptionSymbol,
  convertOptionSymbolFormats,
  OptionSymbolFormat,
  parseOptionSymbol,
  parsePolygonOptionSymbol,
  resolveOptionSymbolFormat,
} from '../../src/symbols/index.js';

/** The error a call throws, checked to be an InvalidParameterError. */
function errorOf(fn: () => unknown): InvalidParameterError {
  try {
    fn();
  } catch (e) {
    assert.ok(isInvalidParameterError(e), String(e));
    assert.ok(e instanceof InvalidParameterError);
    return e;
  }
  assert.fail('expected an InvalidParameterError');
}

const strike = (s: unknown) => buildOptionSymbol('AMD', '220121', 'C', s as number);

describe('strike', () => {
  test('numbers and decimal strings are exact thousandths', () => {
    assert.equal(strike(100), 'AMD220121C00100000');
    assert.equal(strike('100.5'), 'AMD220121C00100500');
    assert.equal(strike('100.500'), 'AMD220121C00100500');
    assert.equal(strike('0100.5'), 'AMD220121C00100500');
    assert.equal(strike(0.001), 'AMD220121C00000001');
    assert.equal(strike('0.001'), 'AMD220121C00000001');
    assert.equal(strike(99999.999), 'AMD220121C99999999');
    // Values whose binary form is inexact still print with their decimal text.
    assert.equal(strike(0.3), 'AMD220121C00000300');
    assert.equal(strike(1.005), 'AMD220121C00001005');
    assert.equal(strike(4.35), 'AMD220121C00004350');
    assert.equal(strike(Math.round((0.1 + 0.2) * 1000) / 1000), 'AMD220121C00000300');
  });

  test('floating-point results with more than three decimals are refused with a hint', () => {
    const e = errorOf(() => strike(0.1 + 0.2));
    assert.equal(e.parameter, 'strikePrice');
    assert.equal(e.value, 0.30000000000000004);
    assert.match(
      e.message,
      /strikePrice: 0\.30000000000000004; .*more than three decimals.*Math\.round\(x \* 1000\) \/ 1000/,
    );
    assert.match(errorOf(() => strike(100.0001)).message, /more than three decimals/);
    assert.match(errorOf(() => strike('100.0005')).message, /more than three decimals/);
    assert.doesNotMatch(errorOf(() => strike('100.0005')).message, /Math\.round/);
  });

  test('negative, zero, too large, non-finite and non-decimal strikes are refused', () => {
    const cases: [unknown, RegExp][] = [
      [-5, /cannot be negative/],
      ['-0.5', /cannot be negative/],
      [-1e-9, /cannot be negative/],
      [0, /greater than 0/],
      ['0.000', /greater than 0/],
      [-0, /greater than 0/],
      [100000, /too large/],
      ['100000', /too large/],
      [1e21, /too large/],
      [Number.NaN, /non-finite/],
      [Number.POSITIVE_INFINITY, /non-finite/],
      ['', /not a decimal number/],
      [' 100', /not a decimal number/],
      ['1e3', /not a decimal number/],
      ['100.', /not a decimal number/],
      ['.5', /not a decimal number/],
      ['+5', /not a decimal number/],
      [null, /number or a decimal string/],
      [100n, /number or a decimal string/],
    ];
    for (const [value, reason] of cases) {
      const e = errorOf(() => strike(value));
      assert.equal(e.parameter, 'strikePrice');
      assert.match(e.message, /a strike is a positive number below 100000 with at most three decimals/);
      assert.match(e.message, reason, String(value));
    }
  });

  test('strike segments of symbols are checked too', () => {
    assert.match(errorOf(() => parseOptionSymbol('AMD220121C00000000')).message, /strike is 0/);
    assert.match(
      errorOf(() => parseOptionSymbol('AMD_012122C0100', { format: 'tda' })).message,
      /leading zeros/,
    );
    assert.match(
      errorOf(() => parseOptionSymbol('AMD_012122C100.0001', { format: 'tda' })).message,
      /three decimals/,
    );
    assert.match(
      errorOf(() => parseOptionSymbol('.AMD220121C100000', { format: 'tos' })).message,
      /too large/,
    );
    assert.match(
      errorOf(() => parseOptionSymbol('AMD 220121C1.2.3', { format: 'trade_station' })).message,
      /1\.2\.3/,
    );
    // Trailing zeros of a decimal strike are read by value; the canonical text drops them.
    assert.equal(parseOptionSymbol('AMD_012122C100.50', { format: 'tda' }).optionSymbol, 'AMD_012122C100.5');
  });
});

describe('expiry', () => {
  test('Date (its UTC day), YYMMDD and YYYY-MM-DD name the same day', () => {
    const expected = 'AMD220121C00100000';
    assert.equal(buildOptionSymbol('AMD', new Date('2022-01-21T00:00:00Z'), 'C', 100), expected);
    assert.equal(buildOptionSymbol('AMD', new Date('2022-01-21T23:59:59.999Z'), 'C', 100), expected);
    assert.equal(
      buildOptionSymbol('AMD', new Date('2022-01-21T20:00:00-05:00'), 'C', 100),
      'AMD220122C00100000',
    );
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 100), expected);
    assert.equal(buildOptionSymbol('AMD', '2022-01-21', 'C', 100), expected);
  });

  test('leap days and the bounds of 2000–2099', () => {
    assert.equal(buildOptionSymbol('AMD', '2024-02-29', 'C', 1), 'AMD240229C00001000');
    assert.equal(buildOptionSymbol('AMD', '240229', 'C', 1), 'AMD240229C00001000');
    assert.equal(buildOptionSymbol('AMD', '2000-01-01', 'C', 1), 'AMD000101C00001000');
    assert.equal(buildOptionSymbol('AMD', '2099-12-31', 'C', 1), 'AMD991231C00001000');
    for (const bad of [
      '2023-02-29',
      '230229',
      '1999-12-31',
      '2100-01-01',
      new Date('2100-01-01'),
      new Date('x'),
    ]) {
      const e = errorOf(() => buildOptionSymbol('AMD', bad, 'C', 1));
      assert.equal(e.parameter, 'expiry');
      assert.match(e.message, /a Date, a YYMMDD string or a YYYY-MM-DD string, of a day in 2000–2099/);
    }
  });

  test('parsed expiries are Dates at 00:00 UTC, or YYYY-MM-DD strings', () => {
    const s = parsePolygonOptionSymbol('AMD240229P00001000');
    assert.equal(s.expiry.toISOString(), '2024-02-29T00:00:00.000Z');
    assert.equal(s.expiryString, '2024-02-29');
    assert.deepEqual(
      parsePolygonOptionSymbol('AMD240229P00001000', { outputFormat: 'list', expiryFormat: 'string' }),
      ['AMD', '2024-02-29', 'P', 1, 'AMD240229P00001000'],
    );
  });
});

describe('option type and underlying', () => {
  test('call and put in any case', () => {
    for (const [input, letter] of [
      ['c', 'C'],
      ['CALL', 'C'],
      ['Call', 'C'],
      ['p', 'P'],
      ['Put', 'P'],
      ['PUT', 'P'],
    ]) {
      assert.equal(buildOptionSymbol('AMD', '220121', input as string, 1).at(-9), letter);
    }
    const e = errorOf(() => buildOptionSymbol('AMD', '220121', 'short', 1));
    assert.equal(e.parameter, 'callOrPut');
    assert.match(e.message, /"short"; allowed: 'call', 'put', 'c' or 'p', in any case/);
  });

  test('roots with digits and dots are kept as written; other characters are refused', () => {
    assert.equal(buildOptionSymbol('spy1', '220121', 'C', 300), 'SPY1220121C00300000');
    assert.equal(buildOptionSymbol('brk.b', '220121', 'C', 300, { format: 'tda' }), 'BRK.B_012122C300');
    assert.equal(buildOptionSymbol('BRK.B', '220121', 'C', 300, { format: 'occ' }), 'BRK.B 220121C00300000');
    for (const bad of ['', ' AMD', 'AMD ', 'BRK/B', 'A_B', '.AMD', 'AMD.', 'BRK..B', 'O:AMD', 'ÄMD']) {
      const e = errorOf(() => buildOptionSymbol(bad, '220121', 'C', 1));
      assert.equal(e.parameter, 'underlyingSymbol');
      assert.match(e.message, /letters and digits, optionally with inner dots/);
    }
  });

  test('the OCC format holds roots of at most six characters', () => {
    const e = errorOf(() => buildOptionSymbol('GOOGLEX', '220121', 'C', 1, { format: 'occ' }));
    assert.equal(e.parameter, 'underlyingSymbol');
    assert.match(e.message, /at most 6 characters/);
    assert.throws(() => convertOptionSymbolFormats('GOOGLEX220121C00001000', 'polygon', 'occ'), /at most 6/);
    assert.equal(buildOptionSymbol('GOOGLEX', '220121', 'C', 1), 'GOOGLEX220121C00001000');
  });
});

describe('formats and options', () => {
  test('codes, enum members and aliases, in any case', () => {
    assert.equal(OptionSymbolFormat.Native, 'polygon');
    assert.equal(OptionSymbolFormat.TradeStation, 'trade_station');
    const aliases: [string, string][] = [
      ['native', 'polygon'],
      ['NATIVE', 'polygon'],
      ['broker_1', 'tradier'],
      ['broker_2', 'tda'],
      ['broker_3', 'tos'],
      ['broker_4', 'ibkr'],
      ['broker_5', 'trade_station'],
      ['tos1', 'tos'],
      ['Trade_Station', 'trade_station'],
      ['OCC', 'occ'],
    ];
    for (const [name, code] of aliases) assert.equal(resolveOptionSymbolFormat(name), code);
    assert.equal(
      buildOptionSymbol('AMD', '220121', 'C', 100, { format: OptionSymbolFormat.Tda }),
      buildOptionSymbol('AMD', '220121', 'C', 100, { format: 'broker_2' }),
    );
  });

  test('unknown formats are refused, naming the argument', () => {
    assert.equal(
      errorOf(() => buildOptionSymbol('AMD', '220121', 'C', 1, { format: 'x' as 'tda' })).parameter,
      'format',
    );
    assert.equal(
      errorOf(() => parseOptionSymbol('AMD220121C00001000', { format: 'x' as 'tda' })).parameter,
      'format',
    );
    assert.equal(
      errorOf(() => convertOptionSymbolFormats('AMD220121C00001000', 'x' as 'tda', 'tda')).parameter,
      'fromFormat',
    );
    const e = errorOf(() => convertOptionSymbolFormats('AMD220121C00001000', 'polygon', 'schwab' as 'tda'));
    assert.equal(e.parameter, 'toFormat');
    assert.match(
      e.message,
      /"schwab"; allowed formats are polygon, tradier, occ, tda, tos, ibkr, trade_station/,
    );
  });

  test('O: is only for the polygon format', () => {
    assert.equal(
      buildPolygonOptionSymbol('AMD', '220121', 'C', 1, { prefixO: true }),
      'O:AMD220121C00001000',
    );
    assert.equal(buildPolygonOptionSymbol('AMD', '220121', 'C', 1), 'AMD220121C00001000');
    assert.equal(
      buildOptionSymbol('AMD', '220121', 'C', 1, { format: 'native', prefixO: true }),
      'O:AMD220121C00001000',
    );
    const e = errorOf(() => buildOptionSymbol('AMD', '220121', 'C', 1, { format: 'tda', prefixO: true }));
    assert.equal(e.parameter, 'prefixO');
    assert.match(e.message, /only the polygon format takes the O: prefix, not tda/);
    assert.equal(parseOptionSymbol('o:AMD220121C00001000').optionSymbol, 'AMD220121C00001000');
    assert.throws(
      () => parseOptionSymbol('O:AMD220121C00001000', { format: 'tradier' }),
      /it does not have this layout/,
    );
  });

  test('parse output and expiry formats are validated', () => {
    assert.equal(
      errorOf(() => parseOptionSymbol('AMD220121C00001000', { outputFormat: 'tuple' as 'list' })).parameter,
      'outputFormat',
    );
    assert.equal(
      errorOf(() => parseOptionSymbol('AMD220121C00001000', { expiryFormat: 'iso' as 'string' })).parameter,
      'expiryFormat',
    );
  });

  test('symbols that do not parse name the symbol, the reason and the layout expected', () => {
    const e = errorOf(() => parseOptionSymbol('AMD_012122C100'));
    assert.equal(e.parameter, 'optionSymbol');
    assert.equal(e.value, 'AMD_012122C100');
    assert.match(
      e.message,
      /^Invalid optionSymbol: "AMD_012122C100"; it does not have this layout; a polygon option symbol is/,
    );
    assert.match(e.message, /e\.g\. AMD220121C00100500$/);
    assert.match(
      errorOf(() => parseOptionSymbol('AMD_131322C100', { format: 'tda' })).message,
      /expiry "131322" is not a calendar date in MMDDYY form; a tda option symbol is ROOT _ MMDDYY/,
    );
    assert.match(
      errorOf(() => parseOptionSymbol('AMD_012122C100', { format: 'occ' })).message,
      /not 21 characters/,
    );
    assert.equal(errorOf(() => parseOptionSymbol(42 as never)).parameter, 'optionSymbol');
  });
});
