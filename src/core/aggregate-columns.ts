/**
 * A decoder for one page of aggregate bars (`{ ..., "results": [ { "v": …, "t": …, … }, … ], ... }`)
 * straight into {@link BarColumns}: the bars never exist as objects, so a chunk of a full range costs
 * its text and 64 bytes a bar instead of a few hundred.
 *
 * Exact or nothing: every number is the double `JSON.parse` gives, and anything the decoder does not
 * expect (a field other than the bar fields, a value that is not a number, an escape in a key, an
 * integer beyond 2^53, bars whose keys do not follow the first bar's order, malformed JSON) makes it
 * return `undefined`, and the caller decodes the page with `parseJson` instead.
 */

import { BAR_COLUMN_FIELDS, type BarColumnField, type BarColumns, toColumns } from './bar-columns.js';
import type { FullRangeBar } from './full-range.js';
import { parseJson } from './json.js';
import { pageItems } from './pages.js';

/** One page of aggregate bars as columns, and the rest of the response as `parseJson` gives it. */
export interface DecodedAggregates {
  /** The response's other members (`status`, `next_url`, `ticker`, …); `results` is left out. */
  response: Record<string, unknown>;
  /** The bars, in the order answered. */
  columns: BarColumns;
  /**
   * The keys of the first bar, in order; every other bar has some of them, in the same order (a key a
   * bar lacks is `NaN` in its column). Rebuilding each bar with these keys, leaving out `NaN`, gives
   * what `JSON.parse` gives. Empty when there is no bar.
   */
  keys: readonly BarColumnField[];
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** Exact powers of ten: a mantissa below 2^53 times or divided by one of them is rounded once, exactly. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** Thrown inside the decoder to give up; never escapes it. */
const GIVE_UP = new Error('not the expected aggregate shape');

/**
 * Decodes an aggregate response into columns, or returns `undefined` when the text is not the shape
 * described above (the caller then uses `parseJson`).
 *
 * @example
 * const page = decodeAggregateColumns(body) ?? columnsOf(parseJson(body));
 */
export function decodeAggregateColumns(body: string | Uint8Array): DecodedAggregates | undefined {
  try {
    return decode(bytesOf(body));
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
}

/** A page of bars as columns, whatever its shape: `keys` is undefined when they are not its exact image. */
export interface AggregatePage {
  /** As {@link DecodedAggregates.response}. */
  response: Record<string, unknown>;
  /** As {@link DecodedAggregates.columns}; from `parseJson`'s bars when the decoder gave up. */
  columns: BarColumns;
  /**
   * As {@link DecodedAggregates.keys}, or undefined when the page was decoded by `parseJson` (other
   * fields, other values): the columns then hold only what {@link toColumns} keeps of the bars.
   */
  keys: readonly BarColumnField[] | undefined;
}

/**
 * A page of aggregate bars as columns: {@link decodeAggregateColumns}, or `parseJson` when it gives up.
 *
 * @throws SyntaxError when the text is not JSON (as `parseJson`).
 */
export function decodeAggregatePage(body: string | Uint8Array): AggregatePage {
  const decoded = decodeAggregateColumns(body);
  if (decoded) return decoded;
  const parsed = parseJson(typeof body === 'string' ? body : bytesOf(body).toString('utf8'));
  const columns = toColumns(pageItems(parsed) as FullRangeBar[]);
  const response =
    typeof parsed === 'object' && parsed !== null ? { ...(parsed as Record<string, unknown>) } : {};
  delete response.results;
  return { response, columns, keys: undefined };
}

/** The body as a `Buffer` (its fast `indexOf` and `toString`), the bytes not copied. */
function bytesOf(body: string | Uint8Array): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function decode(text: Buffer): DecodedAggregates {
  const n = text.length;
  let i = 0;
  const ws = () => {
    for (; i < n; i++) {
      const c = text[i] as number;
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return c;
    }
    return -1;
  };
  const expect = (code: number) => {
    if (ws() !== code) throw GIVE_UP;
    i++;
  };
  /** A key without escapes, `i` on its opening quote; returns its text and leaves `i` after the colon. */
  const key = (): string => {
    if (ws() !== QUOTE) throw GIVE_UP;
    const start = ++i;
    for (; i < n; i++) {
      const c = text[i] as number;
      if (c === QUOTE) break;
      if (c === BACKSLASH || c < 32) throw GIVE_UP;
    }
    if (i >= n) throw GIVE_UP;
    const name = text.toString('utf8', start, i++);
    expect(COLON);
    return name;
  };

  const response: Record<string, unknown> = {};
  let columns: Bars | undefined;
  let keys: BarColumnField[] = [];
  expect(OPEN_BRACE);
  if (ws() === CLOSE_BRACE) i++;
  else {
    for (;;) {
      const name = key();
      if (name === 'results' && ws() === OPEN_BRACKET) {
        if (columns) throw GIVE_UP;
        i++;
        columns = Bars.for(text, i);
        const bars = readBars(text, i, columns);
        i = bars.end;
        keys = bars.keys;
        delete response.results;
      } else {
        if (name === 'results' && columns) throw GIVE_UP;
        const start = ws() < 0 ? n : i;
        i = skipValue(text, start);
        // Small members (status, ticker, next_url): the general decoder, so they are exactly as before.
        const value = parseJson(text.toString('utf8', start, i));
        if (name === '__proto__') throw GIVE_UP;
        response[name] = value;
      }
      const c = ws();
      i++;
      if (c === CLOSE_BRACE) break;
      if (c !== COMMA) throw GIVE_UP;
    }
  }
  if (ws() !== -1) throw GIVE_UP;
  // A `results` member that is not an array (null) is kept as such, with no bars.
  if ('results' in response) {
    if (response.results !== null) throw GIVE_UP;
    delete response.results;
  }
  return { response, columns: (columns ?? new Bars(0)).finish(), keys };
}

/**
 * The columns of a page, in one buffer sized once: room for as many bars as the text has `{` after the
 * start of `results` (a bar opens with one, so there is room for every bar), which spares the copies
 * and the garbage of growing. `finish` gives views of exactly the bars read.
 */
class Bars {
  length = 0;
  readonly columns: Float64Array[];
  constructor(readonly capacity: number) {
    const buffer = new ArrayBuffer(capacity * 8 * BAR_COLUMN_FIELDS.length);
    this.columns = BAR_COLUMN_FIELDS.map((_, k) => new Float64Array(buffer, k * capacity * 8, capacity));
  }
  static for(text: Buffer, from: number): Bars {
    let braces = 0;
    for (let i = text.indexOf('{', from); i >= 0; i = text.indexOf('{', i + 1)) braces++;
    return new Bars(braces);
  }
  /** Makes room for one more bar, its fields `NaN` until set; returns its index. */
  add(): number {
    if (this.length === this.capacity) throw GIVE_UP;
    const at = this.length++;
    for (const column of this.columns) column[at] = Number.NaN;
    return at;
  }
  finish(): BarColumns {
    const out = { length: this.length } as BarColumns;
    BAR_COLUMN_FIELDS.forEach((field, k) => {
      out[field] = (this.columns[k] as Float64Array).subarray(0, this.length);
    });
    return out;
  }
}

/**
 * Reads the bars of a `results` array, `start` just after its `[`, into `out`. Returns the index after
 * the `]` and the first bar's keys (as column indexes into {@link BAR_COLUMN_FIELDS}).
 */
function readBars(text: Buffer, start: number, out: Bars): { end: number; keys: BarColumnField[] } {
  const n = text.length;
  let i = start;
  const ws = () => {
    for (; i < n; i++) {
      const c = text[i] as number;
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return c;
    }
    return -1;
  };
  // The first bar's keys, as column indexes; later bars must follow this order.
  const order: number[] = [];
  let first = true;
  if (ws() === CLOSE_BRACKET) return { end: i + 1, keys: [] };
  for (;;) {
    if (ws() !== OPEN_BRACE) throw GIVE_UP;
    i++;
    const at = out.add();
    let position = 0;
    if (ws() === CLOSE_BRACE) {
      // An empty bar ({}): no keys to follow, nothing to set; only its t (NaN) tells it apart.
      i++;
      if (first) first = false;
    } else {
      for (;;) {
        if (ws() !== QUOTE) throw GIVE_UP;
        const field = fieldAt(text, i + 1);
        i += field === 6 ? 4 : 3; // "x" or "vw"
        if (text[i - 1] !== QUOTE) throw GIVE_UP;
        if (ws() !== COLON) throw GIVE_UP;
        i++;
        if (first) {
          if (order.includes(field)) throw GIVE_UP;
          order.push(field);
        } else {
          while (position < order.length && order[position] !== field) position++;
          if (position === order.length) throw GIVE_UP;
          position++;
        }
        ws();
        i = readNumber(text, i, out.columns[field] as Float64Array, at);
        const c = ws();
        i++;
        if (c === CLOSE_BRACE) break;
        if (c !== COMMA) throw GIVE_UP;
      }
      first = false;
    }
    const c = ws();
    i++;
    if (c === CLOSE_BRACKET) break;
    if (c !== COMMA) throw GIVE_UP;
  }
  return { end: i, keys: order.map((k) => BAR_COLUMN_FIELDS[k] as BarColumnField) };
}

/**
 * Index in {@link BAR_COLUMN_FIELDS} (t o h l c v vw n) of the key starting at `i` (after its quote):
 * one letter then a quote, or `vw` then a quote. Anything else gives up. The caller checks the quote.
 */
function fieldAt(text: Buffer, i: number): number {
  const c = text[i] as number;
  const next = text[i + 1] as number;
  if (next === QUOTE) {
    switch (c) {
      case 116: // t
        return 0;
      case 111: // o
        return 1;
      case 104: // h
        return 2;
      case 108: // l
        return 3;
      case 99: // c
        return 4;
      case 118: // v
        return 5;
      case 110: // n
        return 7;
    }
    throw GIVE_UP;
  }
  if (c === 118 && next === 119) return 6; // vw
  throw GIVE_UP;
}

/**
 * Reads the JSON number at `start` into `column[at]`, exactly as `JSON.parse` would: up to 15
 * significant digits scaled by a power of ten up to 22 are one correctly rounded operation; anything
 * longer goes through `Number`, which rounds correctly too. An integer beyond the safe range (which
 * `parseJson` makes a `bigint`) gives up. Returns the index after the number.
 */
function readNumber(text: Buffer, start: number, column: Float64Array, at: number): number {
  const n = text.length;
  let i = start;
  let c = text[i] as number;
  const negative = c === MINUS;
  if (negative) c = text[++i] as number;
  if (!(c >= ZERO && c <= NINE)) throw GIVE_UP;
  let mantissa = 0;
  let digits = 0; // significant digits in the mantissa
  let scale = 0; // power of ten the mantissa is to be multiplied by
  let integer = true;
  if (c === ZERO) {
    c = text[++i] as number;
    if (c >= ZERO && c <= NINE) throw GIVE_UP; // a leading zero
  } else {
    for (; c >= ZERO && c <= NINE; c = text[++i] as number) {
      if (digits < 15) {
        mantissa = mantissa * 10 + (c - ZERO);
        if (mantissa !== 0) digits++;
      } else {
        digits++;
        scale++;
      }
    }
  }
  if (c === DOT) {
    integer = false;
    c = text[++i] as number;
    if (!(c >= ZERO && c <= NINE)) throw GIVE_UP;
    for (; c >= ZERO && c <= NINE; c = text[++i] as number) {
      if (digits < 15) {
        mantissa = mantissa * 10 + (c - ZERO);
        if (mantissa !== 0) digits++;
        scale--;
      } else digits++;
    }
  }
  if (c === 101 || c === 69) {
    // e, E
    integer = false;
    c = text[++i] as number;
    let exponentNegative = false;
    if (c === 43 || c === MINUS) {
      exponentNegative = c === MINUS;
      c = text[++i] as number;
    }
    if (!(c >= ZERO && c <= NINE)) throw GIVE_UP;
    let exponent = 0;
    for (; c >= ZERO && c <= NINE; c = text[++i] as number)
      if (exponent < 1e6) exponent = exponent * 10 + (c - ZERO);
    scale += exponentNegative ? -exponent : exponent;
  }
  if (i > n) throw GIVE_UP;
  let value: number;
  if (digits > 15 || scale > 22 || scale < -22) {
    value = Number(text.toString('latin1', start, i));
    if (integer && !Number.isSafeInteger(value)) throw GIVE_UP;
  } else {
    value =
      scale === 0
        ? mantissa
        : scale > 0
          ? mantissa * (POW10[scale] as number)
          : mantissa / (POW10[-scale] as number);
    if (negative) value = -value;
    if (integer && !Number.isSafeInteger(value)) throw GIVE_UP;
  }
  column[at] = value;
  return i;
}

/** The index just after the JSON value starting at `start` (its extent only; `parseJson` checks it). */
function skipValue(text: Buffer, start: number): number {
  const n = text.length;
  let i = start;
  let depth = 0;
  for (; i < n; i++) {
    const c = text[i] as number;
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const d = text[i] as number;
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      if (depth === 0) return i + 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0) return i;
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && (c === COMMA || c === 32 || c === 10 || c === 13 || c === 9)) return i;
  }
  return n;
}
