import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { numberLines } from '../../../src/server/ingest/native-ticks.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | number) => {
  assert.notEqual(typeof b, 'number');
  return new TextDecoder().decode(b as Uint8Array);
};

describe('numberLines', () => {
  test('prefixes every line with its number, LF or CRLF, with or without a final newline', () => {
    const line = fc.string({
      unit: fc.constantFrom('1', '4', ',', 'P', '.', ' '),
      minLength: 1,
      maxLength: 30,
    });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        fc.boolean(),
        (lines, crlf, last) => {
          const input = lines.join(crlf ? '\r\n' : '\n') + (last ? (crlf ? '\r\n' : '\n') : '');
          assert.equal(text(numberLines(bytes(input))), lines.map((l, i) => `${i + 1},${l}\n`).join(''));
        },
      ),
    );
  });

  test('grows its output for many short lines (numbers longer than the lines)', () => {
    const lines = Array.from({ length: 120_000 }, (_, i) => String.fromCharCode(65 + (i % 26)));
    const out = text(numberLines(bytes(`${lines.join('\n')}\n`)));
    assert.equal(out, lines.map((l, i) => `${i + 1},${l}\n`).join(''));
  });

  test('gives the number of the first empty line instead', () => {
    assert.equal(numberLines(bytes('a\nb\n\nc\n')), 3);
    assert.equal(numberLines(bytes('a\r\n\r\nb')), 2);
    assert.equal(numberLines(bytes('\n')), 1);
    assert.equal(text(numberLines(bytes(''))), '');
  });
});
