// The examples of the reference library's option-symbol section (reference-library.md §5, §2.2), where
// they are not defects, and each of its option-symbol defects (§9.5, items 35–43) shown fixed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildOptionSymbol,
  convertOptionSymbolFormats,
  detectOptionSymbolFormat,
  detectOptionSymbolFormats,
  ensurePrefix,
  OptionSymbol,
  parseOptionSymbol,
} from '../../src/symbols/index.js';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const invalid = (parameter: string) => ({ name: 'InvalidParameterError', parameter });

describe('reference library examples (§5)', () => {
  test('§5.2 table: AMD 2022-01-21 call, strikes 100 and 100.5', () => {
    const rows: [string, string, string][] = [
      ['polygon', 'AMD220121C00100000', 'AMD220121C00100500'],
      ['tradier', 'AMD220121C00100000', 'AMD220121C00100500'],
      ['tda', 'AMD_012122C100', 'AMD_012122C100.5'],
      // thinkorswim's real date order (the library's `tos1`); its `tos` MMDDYY output is defect 35.
      ['tos', '.AMD220121C100', '.AMD220121C100.5'],
      ['tos1', '.AMD220121C100', '.AMD220121C100.5'],
      ['ibkr', 'AMD 220121C00100000', 'AMD 220121C00100500'],
      ['trade_station', 'AMD 220121C100', 'AMD 220121C100.5'],
    ];
    for (const [format, whole, half] of rows) {
      assert.equal(buildOptionSymbol('AMD', day('2022-01-21'), 'c', 100, { format: format as 'tda' }), whole);
      assert.equal(buildOptionSymbol('AMD', '220121', 'call', 100.5, { format: format as 'tda' }), half);
    }
  });

  test('§5.1 and §5.2 strike and expiry examples', () => {
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 15.003), 'AMD220121C00015003');
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', '100'), 'AMD220121C00100000');
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 100.0), 'AMD220121C00100000');
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 15.003, { format: 'tda' }), 'AMD_012122C15.003');
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 15.003, { format: 'ibkr' }), 'AMD 220121C00015003');
    assert.equal(
      buildOptionSymbol('AMD', '220121', 'C', 15.003, { format: 'trade_station' }),
      'AMD 220121C15.003',
    );
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 0.5, { format: 'tda' }), 'AMD_012122C0.5');
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 0.5), 'AMD220121C00000500');
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 2.5, { format: 'tda' }), 'AMD_012122C2.5');
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', '2.50', { format: 'tda' }), 'AMD_012122C2.5');
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 100, { prefixO: true }), 'O:AMD220121C00100000');
  });

  test('§5.3 detection examples', () => {
    // Same layout for polygon and tradier: both are reported (the library reported only polygon).
    assert.deepEqual(detectOptionSymbolFormat('A220121C00100000'), ['polygon', 'tradier']);
    assert.equal(detectOptionSymbolFormat('O:A220121C00100000'), 'polygon');
    assert.equal(detectOptionSymbolFormat('A220121C0010000'), false);
    assert.equal(detectOptionSymbolFormat('BRK.B 220121C300'), 'trade_station');
    // Decimal strikes have no leading zeros and 8-digit ones always do below 100000, so this is not ibkr.
    assert.equal(detectOptionSymbolFormat('AMD 220121C100'), 'trade_station');
    assert.equal(detectOptionSymbolFormat('AMD 220121C00100000'), 'ibkr');
    assert.equal(detectOptionSymbolFormat('.AMD220121C100'), 'tos');
    assert.equal(detectOptionSymbolFormat('AMD_012122C100'), 'tda');
    assert.equal(detectOptionSymbolFormat('AMD   220121C00100000'), 'occ');
  });

  test('§5.4 parse outputs and text form', () => {
    const s = parseOptionSymbol('AMD220121C00100000');
    assert.ok(s instanceof OptionSymbol);
    assert.equal(String(s), 'Underlying Symbol: AMD || Expiry: 2022-01-21 || Type: C || Strike Price: 100');
    assert.deepEqual(parseOptionSymbol('AMD220121C00100000', { outputFormat: 'list' }), [
      'AMD',
      day('2022-01-21'),
      'C',
      100,
      'AMD220121C00100000',
    ]);
    const dict = parseOptionSymbol('O:AMD220121P00066010', { outputFormat: 'dict' });
    assert.deepEqual(Object.keys(dict), [
      'underlyingSymbol',
      'strikePrice',
      'expiry',
      'callOrPut',
      'optionSymbol',
    ]);
    assert.deepEqual(dict, {
      underlyingSymbol: 'AMD',
      strikePrice: 66.01,
      expiry: day('2022-01-21'),
      callOrPut: 'P',
      optionSymbol: 'AMD220121P00066010',
    });
    assert.equal(parseOptionSymbol('BRK.B220121C00300000').underlyingSymbol, 'BRK.B');
    assert.equal(parseOptionSymbol('.AMD220121C100', { format: 'tos' }).expiryString, '2022-01-21');
    assert.equal(parseOptionSymbol('AMD 220121C00100000', { format: 'ibkr' }).strikePrice, 100);
    assert.equal(parseOptionSymbol('AMD 220121C100', { format: 'trade_station' }).strikePrice, 100);
    // A padded ibkr string is not a trade_station one (the library read it as strike 100000).
    assert.throws(
      () => parseOptionSymbol('AMD 220121C00100000', { format: 'trade_station' }),
      invalid('optionSymbol'),
    );
  });

  test('§5.5 conversion examples', () => {
    assert.equal(convertOptionSymbolFormats('AMD220121C00100000', 'polygon', 'tda'), 'AMD_012122C100');
    assert.equal(convertOptionSymbolFormats('AMD220121C00100000', 'polygon', 'tos'), '.AMD220121C100');
    assert.equal(convertOptionSymbolFormats('AMD220121C00100000', 'polygon', 'tos1'), '.AMD220121C100');
    assert.equal(
      convertOptionSymbolFormats('AMD 220121C100', 'trade_station', 'ibkr'),
      'AMD 220121C00100000',
    );
    assert.equal(convertOptionSymbolFormats('AMD_012122C100', 'tda', 'polygon'), 'AMD220121C00100000');
    assert.equal(convertOptionSymbolFormats('amd_012122c100', 'tda', 'polygon'), 'AMD220121C00100000');
    assert.equal(convertOptionSymbolFormats('AMD220628P00096050', 'polygon', 'tda'), 'AMD_062822P96.05');
    assert.equal(
      convertOptionSymbolFormats('AB 220628P46.01', 'trade_station', 'polygon'),
      'AB220628P00046010',
    );
    assert.equal(convertOptionSymbolFormats('NVDA220628C00546000', 'tradier', 'tos'), '.NVDA220628C546');
    assert.equal(
      convertOptionSymbolFormats('AMD_012122C100', 'tda', 'polygon', { prefixO: true }),
      'O:AMD220121C00100000',
    );
  });

  test('§2.2 ensure prefix examples', () => {
    assert.equal(ensurePrefix('TsLa120110p00123000'), 'O:TSLA120110P00123000');
    assert.equal(ensurePrefix('O:tsla120110C00123000'), 'O:TSLA120110C00123000');
    assert.equal(ensurePrefix('o:tsla120110C00123000'), 'O:TSLA120110C00123000');
  });
});

describe('reference library defects fixed (§9.5)', () => {
  test('35: tos build and parse agree (YYMMDD both ways)', () => {
    const symbol = buildOptionSymbol('AMD', '2022-01-12', 'C', 100, { format: 'tos' });
    assert.equal(symbol, '.AMD220112C100');
    assert.equal(parseOptionSymbol(symbol, { format: 'tos' }).expiryString, '2022-01-12');
    // The library's own MMDDYY output is not a tos symbol: a clear error, not a wrong date.
    assert.throws(
      () => parseOptionSymbol('.AMD012122C100', { format: 'tos' }),
      /expiry "012122" is not a calendar date/,
    );
    // `.AMD011222C100` is what the builder writes for 2001-12-22, so that is what it parses to.
    assert.equal(buildOptionSymbol('AMD', '2001-12-22', 'C', 100, { format: 'tos' }), '.AMD011222C100');
    assert.equal(parseOptionSymbol('.AMD011222C100', { format: 'tos' }).expiryString, '2001-12-22');
  });

  test('36: tos1 builds and parses', () => {
    const symbol = buildOptionSymbol('AMD', '220121', 'C', 100.5, { format: 'tos1' });
    assert.equal(parseOptionSymbol(symbol, { format: 'tos1' }).strikePrice, 100.5);
    assert.equal(new OptionSymbol(symbol, 'tos1').format, 'tos');
  });

  test('37: strikes are exact thousandths, never truncated, overflowing or read from exponent text', () => {
    assert.throws(() => buildOptionSymbol('AMD', '220121', 'C', 1234.5678), /more than three decimals/);
    assert.throws(() => buildOptionSymbol('AMD', '220121', 'C', 123456), /too large/);
    assert.throws(() => buildOptionSymbol('AMD', '220121', 'C', 1e-5), /more than three decimals/);
    assert.throws(() => parseOptionSymbol('AMD220121C123456000'), invalid('optionSymbol'));
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 1234.567), 'AMD220121C01234567');
    assert.equal(buildOptionSymbol('AMD', '220121', 'C', 99999.999), 'AMD220121C99999999');
  });

  test('38: only call, put, c and p are option types', () => {
    for (const bad of ['x', 'calls', '', 'cp', 'putt', ' c']) {
      assert.throws(() => buildOptionSymbol('AMD', '220121', bad, 100), invalid('callOrPut'));
    }
    assert.throws(() => buildOptionSymbol('AMD', '220121', 1 as never, 100), invalid('callOrPut'));
  });

  test('39: every builder and parser upper-cases', () => {
    for (const format of ['tda', 'tos', 'ibkr', 'trade_station', 'occ'] as const) {
      const symbol = buildOptionSymbol('amd', '220121', 'p', 100, { format });
      assert.equal(symbol, symbol.toUpperCase());
      assert.equal(convertOptionSymbolFormats(symbol.toLowerCase(), format, format), symbol);
    }
    assert.equal(parseOptionSymbol('amd_012122c100', { format: 'tda' }).callOrPut, 'C');
    assert.equal(parseOptionSymbol('amd220121c00100000').underlyingSymbol, 'AMD');
  });

  test('40: digits of a root are kept', () => {
    const xy = parseOptionSymbol('XY1221015C00234000', { outputFormat: 'dict', expiryFormat: 'string' });
    assert.deepEqual(xy, {
      underlyingSymbol: 'XY1',
      strikePrice: 234,
      expiry: '2022-10-15',
      callOrPut: 'C',
      optionSymbol: 'XY1221015C00234000',
    });
    const spy = parseOptionSymbol('SPY1220121C00300000');
    assert.equal(spy.underlyingSymbol, 'SPY1');
    assert.equal(spy.optionSymbol, 'SPY1220121C00300000');
  });

  test('41: detection reports tradier, has a one-type variant, and validates instead of counting characters', () => {
    assert.deepEqual(detectOptionSymbolFormats('AMD220121C00100000'), ['polygon', 'tradier']);
    assert.deepEqual(detectOptionSymbolFormats('ABCDEFGHIJKLMNOPQRST'), []);
    assert.equal(detectOptionSymbolFormat('ABCDEFGHIJKLMNOPQRST'), false);
    assert.equal(detectOptionSymbolFormat('AMD221321C00100000'), false);
    assert.equal(detectOptionSymbolFormat('AMD220121C00000000'), false);
  });

  test('42: the century of a two-digit year is always 20, whatever today is', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: new Date('2150-06-01T00:00:00Z') });
    assert.equal(parseOptionSymbol('AMD220121C00100000').expiryString, '2022-01-21');
    assert.equal(parseOptionSymbol('AMD991231C00100000').expiryString, '2099-12-31');
    assert.equal(buildOptionSymbol('AMD', '000101', 'C', 1), 'AMD000101C00001000');
  });

  test('43: expiry strings and numbers are validated', () => {
    for (const bad of [
      '221345',
      '220230',
      '2201',
      'abcdef',
      '2022-02-30',
      '22-01-21',
      '2022-1-21',
      ' 220121',
    ]) {
      assert.throws(() => buildOptionSymbol('AMD', bad, 'C', 100), invalid('expiry'), bad);
    }
    assert.throws(() => buildOptionSymbol('AMD', 220121 as never, 'C', 100), invalid('expiry'));
    assert.throws(() => parseOptionSymbol('AMD220230C00100000'), /expiry "220230" is not a calendar date/);
  });
});
