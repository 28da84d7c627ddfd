/**
 * Bar objects from columns: what the synchronous client's calling thread makes of the columns its
 * worker moved to it, the same objects `JSON.parse` made of the wire.
 */

import { BAR_COLUMN_FIELDS, type BarColumnField, type BarColumns } from './bar-columns.js';
import type { FullRangeBar } from './full-range.js';

type Build = (columns: BarColumns, length: number) => FullRangeBar[];

const builders = new Map<string, Build>();

/**
 * The bars of `columns` as objects with `keys`, in that order; a field that is `NaN` in its column is
 * left out of its bar (the bar did not carry it).
 *
 * @example
 * barObjects(columns, ['v', 'vw', 'o', 'c', 'h', 'l', 't', 'n']); // [{ v: 1200, vw: 101.2, … }, …]
 */
export function barObjects(columns: BarColumns, keys: readonly BarColumnField[]): FullRangeBar[] {
  for (const key of keys) {
    if (!BAR_COLUMN_FIELDS.includes(key)) throw new TypeError(`Not a bar column: ${String(key)}`);
  }
  const id = keys.join();
  let build = builders.get(id);
  if (!build) {
    build = compile(keys);
    builders.set(id, build);
  }
  return build(columns, columns.length);
}

/**
 * A function making the bars of one key order: an object literal of the same shape for every bar that
 * has all its fields (fast: one hidden class, no dictionary), a loop for one that lacks some. The keys
 * are checked against {@link BAR_COLUMN_FIELDS} before they reach the generated code.
 */
function compile(keys: readonly BarColumnField[]): Build {
  const reads = keys.map((key, k) => `const a${k} = columns[${JSON.stringify(key)}];`).join('\n');
  const values = keys.map((_, k) => `const v${k} = a${k}[i];`).join('\n');
  const whole = keys.map((_, k) => `v${k} === v${k}`).join(' && ') || 'true';
  const literal = keys.map((key, k) => `${JSON.stringify(key)}: v${k}`).join(', ');
  const partial = keys
    .map((key, k) => `if (v${k} === v${k}) bar[${JSON.stringify(key)}] = v${k};`)
    .join('\n');
  return new Function(
    'columns',
    'length',
    `${reads}
    const out = [];
    for (let i = 0; i < length; i++) {
      ${values}
      if (${whole}) out.push({ ${literal} });
      else {
        const bar = {};
        ${partial}
        out.push(bar);
      }
    }
    return out;`,
  ) as Build;
}
