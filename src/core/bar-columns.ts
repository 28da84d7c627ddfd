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
 * Columns that grow as bars are appended, without copying what they hold: each column sits in a
 * resizable `ArrayBuffer` that reserves address space for `maxBars` bars and takes memory only as it
 * grows. Past `maxBars` (a server answering more bars than the range has room for), the columns move
 * to a larger reservation.
 */
export class ColumnsBuilder {
  #length = 0;
  #buffers: ResizableBuffer[];
  #views: Float64Array[];
  #maxBars: number;

  /** @param maxBars - The most bars expected (a bound of the range); more are still taken. */
  constructor(maxBars: number) {
    this.#maxBars = Math.min(Math.max(1024, Math.ceil(maxBars)), MAX_RESERVED_BARS);
    this.#buffers = BAR_COLUMN_FIELDS.map(() => reserve(this.#maxBars));
    this.#views = this.#buffers.map((buffer) => new Float64Array(buffer));
  }

  /** Bars appended so far. */
  get length(): number {
    return this.#length;
  }

  /** Appends the bars of `part` after those already held. */
  append(part: BarColumns): void {
    const length = this.#length + part.length;
    if (length > this.#maxBars) this.#move(Math.min(Math.max(length, this.#maxBars * 2), MAX_RESERVED_BARS));
    BAR_COLUMN_FIELDS.forEach((field, k) => {
      (this.#buffers[k] as ResizableBuffer).resize(length * 8);
      (this.#views[k] as Float64Array).set(part[field], this.#length);
    });
    this.#length = length;
  }

  /** The columns, `length` elements each (views over the builder's buffers, no copy). */
  finish(): BarColumns {
    const out = { length: this.#length } as BarColumns;
    BAR_COLUMN_FIELDS.forEach((field, k) => {
      out[field] = new Float64Array(this.#buffers[k] as ResizableBuffer, 0, this.#length);
    });
    return out;
  }

  #move(maxBars: number): void {
    if (maxBars <= this.#length) throw new RangeError(`More than ${MAX_RESERVED_BARS} bars in one result`);
    this.#maxBars = maxBars;
    this.#buffers = this.#buffers.map((old) => {
      const buffer = reserve(maxBars);
      buffer.resize(old.byteLength);
      new Float64Array(buffer).set(new Float64Array(old));
      return buffer;
    });
    this.#views = this.#buffers.map((buffer) => new Float64Array(buffer));
  }
}

/** The most bars one column's reservation holds (4 GiB of address space). */
const MAX_RESERVED_BARS = 2 ** 29;

/** A resizable `ArrayBuffer` (ES2024; Node 20 has it, the TypeScript lib in use does not yet). */
type ResizableBuffer = ArrayBuffer & { resize(byteLength: number): void };

function reserve(bars: number): ResizableBuffer {
  return new (
    ArrayBuffer as unknown as new (
      length: number,
      options: { maxByteLength: number },
    ) => ResizableBuffer
  )(0, { maxByteLength: bars * 8 });
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

/** The bars at `indexes` of `columns`, in that order, as new columns. */
export function selectColumns(columns: BarColumns, indexes: readonly number[]): BarColumns {
  const out = emptyColumns(indexes.length);
  for (const field of BAR_COLUMN_FIELDS) {
    const from = columns[field];
    const to = out[field];
    for (let i = 0; i < indexes.length; i++) to[i] = from[indexes[i] as number] as number;
  }
  return out;
}

/** Bar `i` of `columns` as an object; a field that is `NaN` is left out. */
export function barAt(columns: BarColumns, i: number): FullRangeBar {
  const bar = {} as FullRangeBar;
  for (const field of BAR_COLUMN_FIELDS) {
    const value = columns[field][i] as number;
    if (!Number.isNaN(value)) bar[field] = value;
  }
  return bar;
}

/** `columns` ordered by `t` (a stable sort), as new columns. */
export function sortColumnsByT(columns: BarColumns): BarColumns {
  const { t, length } = columns;
  const order = Array.from({ length }, (_, i) => i).sort((a, b) => (t[a] as number) - (t[b] as number));
  return selectColumns(columns, order);
}

/** Reverses every column in place. */
export function reverseColumns(columns: BarColumns): BarColumns {
  for (const field of BAR_COLUMN_FIELDS) columns[field].reverse();
  return columns;
}

/** The bars of `columns` as objects, one at a time; a field that is `NaN` is left out. */
export function* barsOfColumns(columns: BarColumns): Generator<Record<BarColumnField, number>> {
  for (let i = 0; i < columns.length; i++) yield barAt(columns, i) as Record<BarColumnField, number>;
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
