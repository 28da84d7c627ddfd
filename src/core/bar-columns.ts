/**
 * Aggregate bars as columns (`columnar: true` on a full range): one `Float64Array` per field, bar `i`
 * at index `i` of each. A million bars take 64 MB this way (8 fields of 8 bytes) instead of the few
 * hundred bytes each bar object costs, and the columns cross threads without a copy.
 */

import type { FullRangeBar } from './full-range.js';

/** The fields a column holds, in the order of {@link BarColumns}. */
export const BAR_COLUMN_FIELDS = ['t', 'o', 'h', 'l', 'c', 'v', 'vw', 'n'] as const;

/** One of {@link BAR_COLUMN_FIELDS}. */
export type BarColumnField = (typeof BAR_COLUMN_FIELDS)[number];

/**
 * Aggregate bars as one typed array per field, all of `length` elements; bar `i` is
 * `{ t: t[i], o: o[i], … }`, in the order asked for (`sort`).
 *
 * - `t`: start of the bar's window in Unix ms. Every ms timestamp is an integer far below 2^53, so a
 *   `Float64Array` holds it exactly (`new Date(t[i])` works as is).
 * - `o h l c v vw`: open, high, low, close, volume, volume-weighted price.
 * - `n`: number of transactions (a whole number, held as a double so that it can be missing).
 *
 * A field a bar does not carry (the service omits `vw` or `n` on some bars), or carries as something
 * other than a number, is `NaN`. Other fields of a bar (`otc`) are not kept.
 *
 * @example
 * const bars = await stocks.getAggregateBars('SPY', '2013-10-07', '2013-10-11', { fullRange: true, columnar: true });
 * for (let i = 0; i < bars.length; i++) console.log(new Date(bars.t[i]), bars.c[i]);
 */
export interface BarColumns {
  /** Number of bars; every column has this many elements. */
  length: number;
  t: Float64Array;
  o: Float64Array;
  h: Float64Array;
  l: Float64Array;
  c: Float64Array;
  v: Float64Array;
  vw: Float64Array;
  n: Float64Array;
}

/** Columns of `bars`, in their order, each exactly `bars.length` long. */
export function toColumns(bars: readonly FullRangeBar[]): BarColumns {
  const length = bars.length;
  const out = emptyColumns(length);
  for (const field of BAR_COLUMN_FIELDS) {
    const column = out[field];
    for (let i = 0; i < length; i++) {
      const value = (bars[i] as FullRangeBar)[field];
      column[i] = typeof value === 'number' ? value : Number.NaN;
    }
  }
  return out;
}

/**
 * `parts` one after the other. Each part's columns are let go as soon as they are copied (the part is
 * left empty), so that at most one column is held twice while the result is built.
 */
export function concatColumns(parts: BarColumns[]): BarColumns {
  let length = 0;
  for (const part of parts) length += part.length;
  const out: BarColumns = { length } as BarColumns;
  for (const field of BAR_COLUMN_FIELDS) {
    const column = new Float64Array(length);
    let at = 0;
    for (const part of parts) {
      column.set(part[field], at);
      at += part.length;
      part[field] = EMPTY;
    }
    out[field] = column;
  }
  for (const part of parts) part.length = 0;
  return out;
}

/** `columns` ordered by `t` (a stable sort), as new columns. */
export function sortColumnsByT(columns: BarColumns): BarColumns {
  const { t, length } = columns;
  const order = Array.from({ length }, (_, i) => i).sort((a, b) => (t[a] as number) - (t[b] as number));
  const out = emptyColumns(length);
  for (const field of BAR_COLUMN_FIELDS) {
    const from = columns[field];
    const to = out[field];
    for (let i = 0; i < length; i++) to[i] = from[order[i] as number] as number;
  }
  return out;
}

/** Reverses every column in place. */
export function reverseColumns(columns: BarColumns): BarColumns {
  for (const field of BAR_COLUMN_FIELDS) columns[field].reverse();
  return columns;
}

/** Whether `value` has the shape of {@link BarColumns}. */
export function isBarColumns(value: unknown): value is BarColumns {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.length === 'number' &&
    BAR_COLUMN_FIELDS.every((field) => record[field] instanceof Float64Array)
  );
}

const EMPTY = new Float64Array(0);

function emptyColumns(length: number): BarColumns {
  const out = { length } as BarColumns;
  for (const field of BAR_COLUMN_FIELDS) out[field] = new Float64Array(length);
  return out;
}
