import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { AggregateDecoder, decodeAggregateColumns } from '../../src/core/aggregate-columns.js';
import { BAR_COLUMN_FIELDS, type BarColumnField, type BarColumns } from '../../src/core/bar-columns.js';
import { parseJson } from '../../src/core/json.js';

/** The bars rebuilt from the columns with the decoder's keys, a `NaN` field left out. */
function rebuilt(columns: BarColumns, keys: readonly BarColumnField[]): Record<string, number>[] {
  const out: Record<string, number>[] = [];
  for (let i = 0; i < columns.length; i++) {
    const bar: Record<string, number> = {};
    for (const key of keys) {
      const value = columns[key][i] as number;
      if (!Number.isNaN(value)) bar[key] = value;
    }
    out.push(bar);
  }
  return out;
}

/** The decoder's answer for `text` is `parseJson`'s, number for number and key for key, in order. */
function assertExact(text: string): void {
  const decoded = decodeAggregateColumns(text);
  assert.ok(decoded, `decoded: ${text.slice(0, 300)}`);
  const { results, ...rest } = parseJson(text) as { results?: Record<string, unknown>[] };
  assert.deepEqual(decoded.response, rest);
  const bars = results ?? [];
  assert.equal(decoded.columns.length, bars.length);
  for (const field of BAR_COLUMN_FIELDS) assert.equal(decoded.columns[field].length, bars.length);
  const again = rebuilt(decoded.columns, decoded.keys);
  for (let i = 0; i < bars.length; i++) {
    const want = bars[i] as Record<string, number>;
    const got = again[i] as Record<string, number>;
    assert.deepEqual(Object.keys(got), Object.keys(want), `keys of bar ${i}`);
    for (const key of Object.keys(want)) {
      if (!Object.is(got[key], want[key]))
        assert.fail(`bar ${i}.${key}: ${got[key]}, JSON.parse ${want[key]}`);
    }
  }
}

/** A JSON number literal in any of the forms JSON allows, sign, fraction and exponent included. */
const numberLiteral = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,20}$/)),
    fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
    fc.option(
      fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 340 })),
      {
        nil: undefined,
      },
    ),
  )
  .map(([negative, whole, fraction, exponent]) => {
    const text = `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `${exponent[0]}${exponent[1]}${exponent[2]}`}`;
    return text;
  })
  // Integers beyond 2^53 are bigint for parseJson: a case of their own below.
  .filter((text) => !/^-?\d+$/.test(text) || Number.isSafeInteger(Number(text)));

const KEY_ORDERS: readonly (readonly BarColumnField[])[] = [
  ['v', 'vw', 'o', 'c', 'h', 'l', 't', 'n'], // the service's order
  ['c', 'h', 'l', 'n', 'o', 't', 'v', 'vw'], // sorted, as in the specification's examples
  ['t', 'o', 'h', 'l', 'c', 'v', 'vw', 'n'],
];

const page = fc
  .tuple(
    fc.constantFrom(...KEY_ORDERS),
    fc.array(fc.array(fc.tuple(numberLiteral, fc.boolean()), { minLength: 8, maxLength: 8 }), {
      maxLength: 30,
    }),
    fc.constantFrom('', ' ', '\n  '),
    fc.string({ unit: 'grapheme' }),
    fc.option(fc.webUrl(), { nil: undefined }),
  )
  .map(([keys, bars, space, ticker, next]) => {
    const barText = bars.map((values, b) => {
      // The first bar carries every key (it sets the order); the others may lack some.
      const members = keys
        .map((key, k) => [key, values[k] as [string, boolean]] as const)
        .filter(([, [, present]]) => b === 0 || present)
        .map(([key, [literal]]) => `${space}"${key}"${space}:${space}${literal}`);
      return `{${members.join(',')}${space}}`;
    });
    const members = [
      `"ticker":${JSON.stringify(ticker)}`,
      `"queryCount":${bars.length}`,
      `"results":${space}[${barText.join(`,${space}`)}]`,
      `"status":"OK"`,
      ...(next === undefined ? [] : [`"next_url":${JSON.stringify(next)}`]),
    ];
    return `${space}{${space}${members.join(`,${space}`)}${space}}${space}`;
  });

describe('decodeAggregateColumns', () => {
  test('gives what parseJson gives, on random pages of bars', () => {
    fc.assert(fc.property(page, assertExact), { numRuns: 300 });
  });

  test('reads every number form exactly as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.array(numberLiteral, { minLength: 1, maxLength: 20 }), (literals) => {
        assertExact(`{"results":[${literals.map((l) => `{"c":${l}}`).join(',')}]}`);
      }),
      { numRuns: 500 },
    );
  });

  test('edge cases: signs, zeros, exponents, long mantissas, extremes', () => {
    const literals = [
      '0',
      '-0',
      '0.0',
      '-0.0',
      '1e22',
      '1e23',
      '9007199254740991',
      '-9007199254740991',
      '9007199254740991.5',
      '123456789012345678901234567890e-10',
      '0.1',
      '0.30000000000000004',
      '2.2250738585072014e-308',
      '5e-324',
      '1.7976931348623157e308',
      '1e400',
      '-1e400',
      '4.9406564584124654e-324',
      '100.12345678901234567',
      '1E+2',
      '1e-22',
      '123.456e-22',
      '0.000000000000000000000001',
      '1696686600000',
    ];
    assertExact(`{"results":[${literals.map((l) => `{"t":1,"o":${l}}`).join(',')}]}`);
  });

  test('keeps the other members: unicode tickers, escapes, next_url, nested values', () => {
    assertExact(
      '{"ticker":"\\u00c4BC\\n\\"é🙂","adjusted":true,"request_id":"a\\\\b","queryCount":2,"results":[{"v":1,"vw":2.5,"o":3,"c":4,"h":5,"l":-6.25e-3,"t":1696686600000,"n":7},{"v":8,"o":9,"c":10,"h":11,"l":12,"t":1696686660000}],"resultsCount":2,"status":"DELAYED","next_url":"http://127.0.0.1:1/v2/aggs/ticker/A/range/1/minute/1/2?cursor=x%2Fy","extra":{"a":[1,{"b":null}],"c":"}]"},"big":1696686600123456789}',
    );
    assertExact('{"status":"OK","results":[]}');
    assertExact('{"status":"OK","results":null}');
    assertExact('{"status":"OK","resultsCount":0}');
    assertExact('{}');
    assertExact('{"results":[{}]}');
  });

  test('gives up, for parseJson to decode, on anything else', () => {
    for (const text of [
      '{"results":[{"t":1,"otc":true}]}', // a field that is not a column
      '{"results":[{"t":1,"o":null}]}', // a value that is not a number
      '{"results":[{"t":1,"o":"1"}]}',
      '{"results":[{"t":1,"o":[1]}]}',
      '{"results":[{"t":1696686600123456789}]}', // a bigint for parseJson
      '{"results":[{"t":1,"o":2},{"o":3,"t":4}]}', // keys out of the first bar's order
      '{"results":[{"t":1},{"t":2,"o":3}]}', // a key the first bar lacks
      '{"results":[{"t":1,"t":2}]}', // a repeated key
      '{"results":[{"\\u0074":1}]}', // an escaped key
      '{"results":[{"t":01}]}', // malformed numbers
      '{"results":[{"t":1.}]}',
      '{"results":[{"t":-}]}',
      '{"results":[{"t":1e}]}',
      '{"results":[{"t":1}],"results":[{"t":2}]}',
      '{"results":[{"t":1}]', // cut short
      '{"results":[{"t":1}]} x',
      '{"results":{"t":1}}',
      '[{"t":1}]',
      '{"__proto__":{"a":1},"results":[]}',
      '',
    ]) {
      assert.equal(decodeAggregateColumns(text), undefined, text);
    }
  });

  test('fed piece by piece, as a body arrives, it gives what it gives on the whole', () => {
    const split = (text: string, cuts: number[]) => {
      const bytes = Buffer.from(text);
      const at = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
      const decoder = new AggregateDecoder(bytes.length);
      let from = 0;
      for (const cut of [...at, bytes.length]) {
        decoder.push(bytes.subarray(from, cut));
        from = cut;
      }
      return decoder.end();
    };
    const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 });
    fc.assert(
      fc.property(page, cuts, (text, at) => {
        assert.deepEqual(split(text, at), decodeAggregateColumns(text));
      }),
      { numRuns: 300 },
    );
    // Every cut of a page with every kind of member, one byte at a time too.
    const text =
      '{"ticker":"\\u00c4BC\\"é🙂","results":[{"v":1,"vw":2.5,"o":-3e-2,"c":4,"h":5,"l":6,"t":1696686600000,"n":7},{"v":8,"o":9,"t":1696686660000}],"status":"OK","next_url":"http://x/y?cursor=a%2Fb","extra":{"a":[1,{"b":null}]}}';
    const whole = decodeAggregateColumns(text);
    assert.ok(whole);
    for (let cut = 0; cut <= Buffer.byteLength(text); cut++)
      assert.deepEqual(split(text, [cut / Buffer.byteLength(text)]), whole);
    assert.deepEqual(
      split(
        text,
        Array.from({ length: 400 }, (_, k) => k / 400),
      ),
      whole,
    );
    // A body cut short, or one it gives up on, stays undefined.
    assert.equal(split(text.slice(0, -1), [0.5]), undefined);
    assert.equal(split('{"results":[{"t":1,"otc":true}]}', [0.3, 0.6]), undefined);
  });
});
