import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseJson, stringifyJson } from '../../src/core/json.js';

const NANOS = 1_696_686_600_123_456_789n;

describe('stringifyJson', () => {
  test('writes bodies without bigint exactly as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.equal(stringifyJson(value), JSON.stringify(value));
        assert.equal(stringifyJson(value, 2), JSON.stringify(value, undefined, 2));
      }),
    );
  });

  test('writes deeply nested bodies, with or without bigint', () => {
    let plain: unknown = 1;
    let big: unknown = NANOS;
    for (let i = 0; i < 100; i++) {
      plain = { a: [plain] };
      big = { a: [big] };
    }
    assert.equal(stringifyJson(plain), JSON.stringify(plain));
    assert.equal(stringifyJson(big), JSON.stringify(plain).replace('1', String(NANOS)));
  });

  test('writes bigint values as bare integers, wherever they are', () => {
    const body = {
      results: [
        { p: 1.5, t: NANOS },
        { p: 2, t: -NANOS, x: [NANOS, 'a'] },
      ],
      count: 2,
    };
    assert.equal(
      stringifyJson(body),
      `{"results":[{"p":1.5,"t":${NANOS}},{"p":2,"t":-${NANOS},"x":[${NANOS},"a"]}],"count":2}`,
    );
    assert.deepEqual(parseJson(stringifyJson(body)), body);
    assert.equal(stringifyJson({ t: NANOS }, 2), `{\n  "t": ${NANOS}\n}`);
  });

  test('a bigint after a large plain part still comes out whole', () => {
    const bars = Array.from({ length: 1000 }, (_, i) => ({ t: i, o: i / 3 }));
    const body = { bars, last: NANOS };
    assert.equal(stringifyJson(body), `${JSON.stringify({ bars }).slice(0, -1)},"last":${NANOS}}`);
  });

  test('keeps bare integers when an application has given BigInt a toJSON', () => {
    const proto = BigInt.prototype as unknown as { toJSON?: () => string };
    proto.toJSON = function (this: bigint) {
      return `${this}n`;
    };
    try {
      assert.equal(stringifyJson({ t: NANOS }), `{"t":${NANOS}}`);
    } finally {
      delete proto.toJSON;
    }
  });

  test('writes a bigint that a toJSON returns', () => {
    const stamp = { toJSON: () => NANOS };
    assert.equal(stringifyJson({ at: stamp, list: [stamp] }), `{"at":${NANOS},"list":[${NANOS}]}`);
  });

  test('other errors still surface', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => stringifyJson(cyclic), TypeError);
    const stackLimit = Error.stackTraceLimit;
    const faulty = {
      toJSON: function failingToJson() {
        throw new RangeError('no JSON for this');
      },
    };
    assert.throws(
      () => stringifyJson({ a: [faulty] }),
      (error: Error) =>
        error instanceof RangeError &&
        error.message === 'no JSON for this' &&
        /failingToJson/.test(error.stack ?? ''),
    );
    // The stack depth an application set is left as it was.
    assert.equal(Error.stackTraceLimit, stackLimit);
  });
});

describe('parseJson', () => {
  test('finds an unsafe integer wherever it stands', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }),
        fc.boolean(),
        fc.nat(40),
        fc.string({ unit: fc.constantFrom('a', '7', ' ', ':') }),
        (big, negative, lead, pad) => {
          const value = negative ? -big : big;
          const text = `[${'12,'.repeat(lead)}"${pad}",${value},3]`;
          assert.deepEqual(parseJson(text), [...new Array(lead).fill(12), pad, value, 3]);
        },
      ),
    );
    // 15 digits are safe, and stay numbers.
    assert.deepEqual(parseJson('[123456789012345,"1234567890123456"]'), [
      123456789012345,
      '1234567890123456',
    ]);
  });

  test('reads integers beyond the safe range as exact bigint, the rest as JSON.parse', () => {
    assert.deepEqual(parseJson(`{"t":${NANOS},"p":12.5,"s":"${NANOS}","n":[1,-${NANOS}]}`), {
      t: NANOS,
      p: 12.5,
      s: String(NANOS),
      n: [1, -NANOS],
    });
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        // Integers of 16 digits or more may be beyond the safe range (checked above).
        if (/\d{16}/.test(text)) return;
        assert.deepEqual(parseJson(text), JSON.parse(text));
      }),
    );
  });
});
