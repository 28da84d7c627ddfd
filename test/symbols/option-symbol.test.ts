import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildOptionSymbolForTda,
  convertFromPolygonToTdaFormat,
  convertFromTdaToPolygonFormat,
  ensurePrefix,
  normalizeOptionTicker,
  OptionSymbol,
  parseOptionSymbol,
  parseOptionSymbolFromTda,
} from '../../src/symbols/index.js';

const invalid = (parameter: string) => ({ name: 'InvalidParameterError', parameter });

describe('OptionSymbol', () => {
  test('has the parsed attributes', () => {
    const s = new OptionSymbol('o:spy1220121p00300500');
    assert.equal(s.underlyingSymbol, 'SPY1');
    assert.deepEqual(s.expiry, new Date(Date.UTC(2022, 0, 21)));
    assert.equal(s.expiryString, '2022-01-21');
    assert.equal(s.callOrPut, 'P');
    assert.equal(s.strikePrice, 300.5);
    assert.equal(s.optionSymbol, 'SPY1220121P00300500');
    assert.equal(s.format, 'polygon');
    assert.equal(`${s}`, 'Underlying Symbol: SPY1 || Expiry: 2022-01-21 || Type: P || Strike Price: 300.5');
  });

  test('takes a format code or alias, and names a bad one', () => {
    assert.equal(new OptionSymbol('AMD_012122C100', 'broker_2').format, 'tda');
    assert.equal(new OptionSymbol('AMD220121C00100000', 'native').format, 'polygon');
    assert.throws(() => new OptionSymbol('AMD220121C00100000', 'nope' as 'tda'), invalid('symbolFormat'));
    assert.throws(() => new OptionSymbol('AMD_012122C100'), invalid('optionSymbol'));
  });

  test('writes itself in other formats', () => {
    const s = new OptionSymbol('.AMD220121C100.5', 'tos');
    assert.equal(s.toFormat('polygon', { prefixO: true }), 'O:AMD220121C00100500');
    assert.equal(s.toFormat('tda'), 'AMD_012122C100.5');
    assert.equal(s.toFormat('occ'), 'AMD   220121C00100500');
    assert.throws(() => s.toFormat('ibkr', { prefixO: true }), invalid('prefixO'));
  });

  test('serialises with the calendar day, and its fields are copies', () => {
    const s = new OptionSymbol('AMD 220121C00100500', 'ibkr');
    assert.deepEqual(JSON.parse(JSON.stringify(s)), {
      underlyingSymbol: 'AMD',
      strikePrice: 100.5,
      expiry: '2022-01-21',
      callOrPut: 'C',
      optionSymbol: 'AMD 220121C00100500',
      format: 'ibkr',
    });
    const fields = s.toFields();
    fields.expiry.setUTCFullYear(1990);
    assert.equal(s.expiry.getUTCFullYear(), 2022);
  });

  test('is what parse returns by default', () => {
    const parsed = parseOptionSymbol('AMD220121C00100000');
    assert.ok(parsed instanceof OptionSymbol);
    assert.deepEqual(parsed, new OptionSymbol('AMD220121C00100000'));
  });
});

describe('ensurePrefix and normalizeOptionTicker', () => {
  test('ensurePrefix upper-cases and adds O: once, whatever the case of an existing prefix', () => {
    assert.equal(ensurePrefix('amd220121c00100000'), 'O:AMD220121C00100000');
    assert.equal(ensurePrefix('O:AMD220121C00100000'), 'O:AMD220121C00100000');
    assert.equal(ensurePrefix('o:amd220121c00100000'), 'O:AMD220121C00100000');
    assert.throws(() => ensurePrefix(''), invalid('symbol'));
    assert.throws(() => ensurePrefix('O:'), invalid('symbol'));
    assert.throws(() => ensurePrefix(undefined as never), invalid('symbol'));
  });

  test('normalizeOptionTicker accepts only complete native symbols', () => {
    assert.equal(normalizeOptionTicker('amd220121c00100000'), 'O:AMD220121C00100000');
    assert.equal(normalizeOptionTicker('o:BRK.B220121C00300000'), 'O:BRK.B220121C00300000');
    for (const bad of [
      'AMD',
      'AMD_012122C100',
      'AMD 220121C00100000',
      'AMD221321C00100000',
      'O:O:AMD220121C00100000',
    ]) {
      assert.throws(() => normalizeOptionTicker(bad), invalid('optionSymbol'), bad);
    }
    const e = (() => {
      try {
        normalizeOptionTicker('SPY', 'ticker');
      } catch (error) {
        return error as Error;
      }
    })();
    assert.match(
      String(e?.message),
      /^Invalid ticker: "SPY"; it does not have this layout; a polygon option symbol is/,
    );
  });
});

describe('older interface', () => {
  test('the tda builder reads six-digit expiries as MMDDYY', () => {
    assert.equal(buildOptionSymbolForTda('amd', '012122', 'call', 100), 'AMD_012122C100');
    assert.equal(buildOptionSymbolForTda('AMD', '2022-01-21', 'p', 2.5), 'AMD_012122P2.5');
    assert.equal(
      buildOptionSymbolForTda('AMD', new Date('2022-01-21'), 'c', 100.5, { style: 'dot' }),
      '.AMD012122C100.5',
    );
    assert.throws(() => buildOptionSymbolForTda('AMD', '220121', 'c', 100), invalid('expiry'));
    assert.throws(
      () => buildOptionSymbolForTda('AMD', '012122', 'c', 100, { style: 'dash' as 'dot' }),
      invalid('style'),
    );
  });

  test('both tda styles parse back, with the expiry format asked for', () => {
    for (const style of ['underscore', 'dot'] as const) {
      const symbol = buildOptionSymbolForTda('AMD', '063022', 'put', 96.05, { style });
      assert.deepEqual(parseOptionSymbolFromTda(symbol, { outputFormat: 'dict', expiryFormat: 'string' }), {
        underlyingSymbol: 'AMD',
        strikePrice: 96.05,
        expiry: '2022-06-30',
        callOrPut: 'P',
        optionSymbol: 'AMD_063022P96.05',
      });
    }
    assert.equal(parseOptionSymbolFromTda('.amd012122c100').expiryString, '2022-01-21');
    assert.throws(
      () => parseOptionSymbolFromTda('.AMD220121C100'),
      /expiry "220121" is not a calendar date in MMDDYY/,
    );
    assert.throws(() => parseOptionSymbolFromTda('AMD220121C00100000'), invalid('optionSymbol'));
  });

  test('tda ⇄ polygon converters', () => {
    assert.equal(convertFromTdaToPolygonFormat('AMD_012122C100'), 'AMD220121C00100000');
    assert.equal(convertFromTdaToPolygonFormat('.AMD012122C100', { prefixO: true }), 'O:AMD220121C00100000');
    assert.equal(convertFromPolygonToTdaFormat('O:AMD220628P00096050'), 'AMD_062822P96.05');
    assert.throws(() => convertFromPolygonToTdaFormat('AMD_062822P96.05'), invalid('optionSymbol'));
  });
});

test('parse results are typed by their options', () => {
  // Compile-time checks (tsc): each assignment only type-checks with the right result type.
  const dict = parseOptionSymbol('AMD220121C00100000', { outputFormat: 'dict', expiryFormat: 'string' });
  const isoDay: string = dict.expiry;
  const list = parseOptionSymbol('AMD220121C00100000', { outputFormat: 'list' });
  const date: Date = list[1];
  const object: OptionSymbol = parseOptionSymbol('AMD_012122C100', { format: 'tda' });
  assert.equal(isoDay, '2022-01-21');
  assert.equal(date.getTime(), object.expiry.getTime());
});

test('expiryFormat string gives a YYYY-MM-DD expiry on the object output too', () => {
  const object = parseOptionSymbol('O:AMD220121C00100500', { expiryFormat: 'string' });
  assert.ok(object instanceof OptionSymbol);
  const isoDay: string = object.expiry;
  assert.equal(isoDay, '2022-01-21');
  assert.equal(object.expiryString, '2022-01-21');
  assert.deepEqual(
    object.toFields().expiry,
    new Date(Date.UTC(2022, 0, 21)),
    'toFields() still gives a Date',
  );
  const explicit = parseOptionSymbol('AMD_012122C100', {
    format: 'tda',
    outputFormat: 'object',
    expiryFormat: 'string',
  });
  assert.equal(explicit.expiry, '2022-01-21');
  assert.deepEqual(
    parseOptionSymbol('AMD220121C00100000', { expiryFormat: 'date' }).expiry,
    new Date(Date.UTC(2022, 0, 21)),
  );
  assert.equal(parseOptionSymbolFromTda('.amd012122c100', { expiryFormat: 'string' }).expiry, '2022-01-21');
});
