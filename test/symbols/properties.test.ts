import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  buildOptionSymbol,
  convertOptionSymbolFormats,
  detectOptionSymbolFormats,
  OPTION_SYMBOL_FORMATS,
  type OptionSymbolFormatCode,
  parseOptionSymbol,
} from '../../src/symbols/index.js';

const RUNS = { numRuns: 300 };
const DAY_MS = 86_400_000;

/** Roots of 1–6 characters (so that the OCC format holds them): plain, adjusted (digits), dotted. */
const root = fc.oneof(
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,5}$/),
  fc.stringMatching(/^[A-Z]{1,4}[0-9]$/),
  fc.stringMatching(/^[A-Za-z]{1,3}\.[A-Za-z]{1,2}$/),
);
/** A UTC day of 2000–2099 and an instant within it. */
const expiryDay = fc
  .tuple(
    fc.integer({ min: Date.UTC(2000, 0, 1) / DAY_MS, max: Date.UTC(2099, 11, 31) / DAY_MS }),
    fc.integer({ min: 0, max: DAY_MS - 1 }),
  )
  .map(([day, ms]) => ({ midnight: new Date(day * DAY_MS), instant: new Date(day * DAY_MS + ms) }));
const callOrPut = fc.constantFrom('c', 'C', 'call', 'CALL', 'Call', 'p', 'P', 'put', 'PUT', 'Put');
/** Strikes as exact thousandths, 0.001 up to 99999.999, biased towards the usual whole and half strikes. */
const thousandths = fc.oneof(
  fc.integer({ min: 1, max: 99_999_999 }),
  fc.integer({ min: 1, max: 99_999 }).map((n) => n * 1000),
  fc.integer({ min: 1, max: 199_999 }).map((n) => n * 500),
);

const contract = fc.record({ root, expiry: expiryDay, callOrPut, thousandths, inputForm: fc.nat(4) });
type Contract = typeof contract extends fc.Arbitrary<infer T> ? T : never;

/** The same expiry in each input form a caller may use. */
function expiryInput(c: Contract): Date | string {
  const iso = c.expiry.midnight.toISOString().slice(0, 10);
  switch (c.inputForm % 3) {
    case 0:
      return c.expiry.instant;
    case 1:
      return iso;
    default:
      return iso.slice(2).replaceAll('-', '');
  }
}

/** The strike as a number, or as decimal text written independently of the library (with trailing zeros). */
function strikeInput(c: Contract): number | string {
  if (c.inputForm % 2 === 0) return c.thousandths / 1000;
  return `${Math.floor(c.thousandths / 1000)}.${String(c.thousandths % 1000).padStart(3, '0')}`;
}

function build(c: Contract, format: OptionSymbolFormatCode): string {
  return buildOptionSymbol(c.root, expiryInput(c), c.callOrPut, strikeInput(c), { format });
}

/** What each format should write, from the layouts in the reference documentation. */
function expectedText(c: Contract, format: OptionSymbolFormatCode): string {
  const iso = c.expiry.midnight.toISOString();
  const [yy, mm, dd] = [iso.slice(2, 4), iso.slice(5, 7), iso.slice(8, 10)];
  const u = c.root.toUpperCase();
  const t = c.callOrPut[0]?.toUpperCase();
  const padded = `${'0'.repeat(8 - String(c.thousandths).length)}${c.thousandths}`;
  const decimal = String(c.thousandths / 1000);
  return {
    polygon: `${u}${yy}${mm}${dd}${t}${padded}`,
    tradier: `${u}${yy}${mm}${dd}${t}${padded}`,
    occ: `${`${u}      `.slice(0, 6)}${yy}${mm}${dd}${t}${padded}`,
    tda: `${u}_${mm}${dd}${yy}${t}${decimal}`,
    tos: `.${u}${yy}${mm}${dd}${t}${decimal}`,
    ibkr: `${u} ${yy}${mm}${dd}${t}${padded}`,
    trade_station: `${u} ${yy}${mm}${dd}${t}${decimal}`,
  }[format];
}

describe('option symbol properties', () => {
  for (const format of OPTION_SYMBOL_FORMATS) {
    test(`${format}: build writes the documented layout and parse(build(x)) == x`, () => {
      fc.assert(
        fc.property(contract, (c) => {
          const symbol = build(c, format);
          assert.equal(symbol, expectedText(c, format));
          const parsed = parseOptionSymbol(symbol, { format, outputFormat: 'dict' });
          assert.deepEqual(parsed, {
            underlyingSymbol: c.root.toUpperCase(),
            strikePrice: c.thousandths / 1000,
            expiry: c.expiry.midnight,
            callOrPut: c.callOrPut[0]?.toUpperCase(),
            optionSymbol: symbol,
          });
        }),
        RUNS,
      );
    });
  }

  test('polygon with O: parses back, and lower case input parses to the same contract', () => {
    fc.assert(
      fc.property(contract, (c) => {
        const symbol = buildOptionSymbol(c.root, expiryInput(c), c.callOrPut, strikeInput(c), {
          prefixO: true,
        });
        assert.equal(symbol, `O:${expectedText(c, 'polygon')}`);
        const upper = parseOptionSymbol(symbol, { outputFormat: 'list' });
        assert.deepEqual(parseOptionSymbol(symbol.toLowerCase(), { outputFormat: 'list' }), upper);
        assert.equal(upper[0], c.root.toUpperCase());
        assert.equal(upper[3], c.thousandths / 1000);
      }),
      RUNS,
    );
  });

  test('convert between every pair of formats gives that format’s symbol, and converts back', () => {
    fc.assert(
      fc.property(contract, (c) => {
        const built = new Map(OPTION_SYMBOL_FORMATS.map((f) => [f, build(c, f)]));
        for (const from of OPTION_SYMBOL_FORMATS) {
          for (const to of OPTION_SYMBOL_FORMATS) {
            const converted = convertOptionSymbolFormats(built.get(from)!, from, to);
            assert.equal(converted, built.get(to), `${from} → ${to}`);
            assert.equal(convertOptionSymbolFormats(converted, to, from), built.get(from), `${to} → ${from}`);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  test('detection finds the format of every built symbol, and exactly the formats sharing its layout', () => {
    fc.assert(
      fc.property(contract, (c) => {
        const length = c.root.length;
        const expected: Record<OptionSymbolFormatCode, OptionSymbolFormatCode[]> = {
          // polygon and tradier share one layout; OCC with a 6-character root has no space and is the same text.
          polygon: length === 6 ? ['polygon', 'tradier', 'occ'] : ['polygon', 'tradier'],
          tradier: length === 6 ? ['polygon', 'tradier', 'occ'] : ['polygon', 'tradier'],
          // OCC with a 5-character root has one space, as ibkr.
          occ: length === 6 ? ['polygon', 'tradier', 'occ'] : length === 5 ? ['occ', 'ibkr'] : ['occ'],
          tda: ['tda'],
          tos: ['tos'],
          ibkr: length === 5 ? ['occ', 'ibkr'] : ['ibkr'],
          trade_station: ['trade_station'],
        };
        for (const format of OPTION_SYMBOL_FORMATS) {
          const symbol = build(c, format);
          const detected = detectOptionSymbolFormats(symbol);
          assert.ok(detected.includes(format), `${format} ${symbol} → ${detected}`);
          assert.deepEqual(detected, expected[format], symbol);
          // Every reading of an ambiguous symbol names the same contract.
          const readings = detected.map((f) =>
            parseOptionSymbol(symbol, { format: f, outputFormat: 'list' }).slice(0, 4),
          );
          for (const reading of readings) assert.deepEqual(reading, readings[0]);
        }
        const prefixed = buildOptionSymbol(c.root, expiryInput(c), c.callOrPut, strikeInput(c), {
          prefixO: true,
        });
        assert.deepEqual(detectOptionSymbolFormats(prefixed), ['polygon']);
      }),
      RUNS,
    );
  });

  test('a strike with more than three decimals never reaches a symbol', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.0001, max: 99_999, noNaN: true }).filter((x) => /\.\d{4,}/.test(String(x))),
        (strike) => {
          assert.throws(() => buildOptionSymbol('AMD', '220121', 'C', strike), {
            name: 'InvalidParameterError',
          });
        },
      ),
      RUNS,
    );
  });
});
