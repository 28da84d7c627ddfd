/**
 * A decoder for one page of aggregate bars (`{ ..., "results": [ { "v": …, "t": …, … }, … ], ... }`)
 * straight into {@link BarColumns}, as the body arrives ({@link AggregateDecoder}): neither the body nor
 * its bars are ever held whole as text or objects, so a page costs 64 bytes a bar instead of a few
 * hundred, plus the piece of body in hand.
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
  const bytes = bytesOf(body);
  const decoder = new AggregateDecoder(bytes.length);
  decoder.push(bytes);
  return decoder.end();
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

/** A page decoded by `parseJson` as an {@link AggregatePage}: its bars as columns, no keys. */
export function aggregatePageOf(parsed: unknown): AggregatePage {
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

/** Thrown inside the decoder when the bytes so far end inside a unit (a member, a bar). */
const NEED_MORE = new Error('more bytes needed');

// Where the decoder stands: before the opening brace, before the first member or the closing brace,
// before a member, after a member, before the first bar or `]`, before a bar, after a bar, done.
const START = 0;
const FIRST_MEMBER = 1;
const MEMBER = 2;
const AFTER_MEMBER = 3;
const FIRST_BAR = 4;
const BAR = 5;
const AFTER_BAR = 6;
const DONE = 7;

/**
 * {@link decodeAggregateColumns} fed as the body arrives: `push` each piece, then `end`. Only the bytes
 * of an unfinished member or bar are kept between pieces, so a page never needs its whole body in
 * memory. Once it gives up, it ignores the rest and `end` returns `undefined`.
 *
 * @example
 * const decoder = new AggregateDecoder(contentLength);
 * for await (const piece of body) decoder.push(piece);
 * const page = decoder.end(); // undefined: fetch it again for parseJson
 */
export class AggregateDecoder {
  #state = START;
  #failed = false;
  /** Bytes of an unfinished unit, carried to the next piece. */
  #carry: Buffer | undefined;
  /** Bytes consumed before the current piece. */
  #consumed = 0;
  readonly #expected: number | undefined;
  readonly #response: Record<string, unknown> = {};
  #bars: Bars | undefined;
  #sawBars = false;
  /** The first bar's keys (indexes into BAR_COLUMN_FIELDS); later bars follow this order. */
  readonly #order: number[] = [];
  #first = true;

  /** @param expectedBytes - The body's length if known (`content-length`): sizes the columns once. */
  constructor(expectedBytes?: number) {
    this.#expected = expectedBytes;
  }

  /** Decodes the bars and members complete in `piece` (with what was carried). */
  push(piece: Uint8Array): void {
    if (this.#failed) return;
    let bytes = bytesOf(piece);
    try {
      const carry = this.#carry;
      if (carry) {
        this.#carry = undefined;
        // The unfinished unit joined to the start of this piece up to the first `}` (the end of a bar
        // cut in two, mostly), rather than the whole piece copied behind it.
        const close = bytes.indexOf(CLOSE_BRACE);
        const head = Buffer.concat([carry, bytes.subarray(0, close < 0 ? bytes.length : close + 1)]);
        const used = this.#run(head);
        this.#consumed += used;
        bytes =
          close < 0
            ? head.subarray(used)
            : used === head.length
              ? bytes.subarray(close + 1)
              : Buffer.concat([head.subarray(used), bytes.subarray(close + 1)]);
      }
      const used = this.#run(bytes);
      // A copy: the piece itself (a view of a larger read buffer) is not kept.
      if (used < bytes.length) this.#carry = Buffer.from(bytes.subarray(used));
      this.#consumed += used;
    } catch (error) {
      if (error !== GIVE_UP) throw error;
      this.#failed = true;
      this.#carry = undefined;
      this.#bars = undefined;
    }
  }

  /** The page, or `undefined` if it was not the expected shape or ended early. */
  end(): DecodedAggregates | undefined {
    if (this.#failed || this.#state !== DONE || this.#carry !== undefined) return undefined;
    const response = this.#response;
    // A `results` member that is not an array (null) is kept as such, with no bars.
    if ('results' in response) {
      if (response.results !== null) return undefined;
      delete response.results;
    }
    return {
      response,
      columns: (this.#bars ?? new Bars(0)).finish(),
      keys: this.#order.map((k) => BAR_COLUMN_FIELDS[k] as BarColumnField),
    };
  }

  /** Runs over `b` from its start; returns how many bytes were consumed (the rest is an unfinished unit). */
  #run(b: Buffer): number {
    const n = b.length;
    let i = 0;
    let unit = 0;
    const ws = () => {
      for (; i < n; i++) {
        const c = b[i] as number;
        if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return c;
      }
      throw NEED_MORE;
    };
    try {
      for (;;) {
        unit = i;
        switch (this.#state) {
          case START:
            if (ws() !== OPEN_BRACE) throw GIVE_UP;
            i++;
            this.#state = FIRST_MEMBER;
            break;
          case FIRST_MEMBER:
            if (ws() === CLOSE_BRACE) {
              i++;
              this.#state = DONE;
            } else this.#state = MEMBER;
            break;
          case MEMBER: {
            if (ws() !== QUOTE) throw GIVE_UP;
            const start = ++i;
            for (; ; i++) {
              if (i >= n) throw NEED_MORE;
              const c = b[i] as number;
              if (c === QUOTE) break;
              if (c === BACKSLASH || c < 32) throw GIVE_UP;
            }
            const name = b.toString('utf8', start, i++);
            if (ws() !== COLON) throw GIVE_UP;
            i++;
            const c = ws();
            if (name === 'results' && c === OPEN_BRACKET) {
              if (this.#sawBars) throw GIVE_UP;
              i++;
              this.#sawBars = true;
              delete this.#response.results;
              this.#state = FIRST_BAR;
              break;
            }
            if (name === 'results' && this.#sawBars) throw GIVE_UP;
            if (name === '__proto__') throw GIVE_UP;
            const from = i;
            i = skipValue(b, from);
            // A value reaching the end of the bytes may go on in the next piece.
            if (i >= n) throw NEED_MORE;
            // Small members (status, ticker, next_url): the general decoder, so they are exactly as before.
            this.#response[name] = parseJson(b.toString('utf8', from, i));
            this.#state = AFTER_MEMBER;
            break;
          }
          case AFTER_MEMBER: {
            const c = ws();
            i++;
            if (c === COMMA) this.#state = MEMBER;
            else if (c === CLOSE_BRACE) this.#state = DONE;
            else throw GIVE_UP;
            break;
          }
          case FIRST_BAR:
            if (ws() === CLOSE_BRACKET) {
              i++;
              this.#state = AFTER_MEMBER;
            } else this.#state = BAR;
            break;
          case BAR: {
            if (ws() !== OPEN_BRACE) throw GIVE_UP;
            // Bars hold numbers only, so the first `}` closes this one.
            const close = b.indexOf(CLOSE_BRACE, i);
            if (close < 0) throw NEED_MORE;
            this.#readBar(b, i + 1, close, unit);
            i = close + 1;
            this.#state = AFTER_BAR;
            break;
          }
          case AFTER_BAR: {
            const c = ws();
            i++;
            if (c === COMMA) this.#state = BAR;
            else if (c === CLOSE_BRACKET) this.#state = AFTER_MEMBER;
            else throw GIVE_UP;
            break;
          }
          default:
            // DONE: only whitespace may follow.
            for (; i < n; i++) {
              const c = b[i] as number;
              if (c !== 32 && c !== 10 && c !== 13 && c !== 9) throw GIVE_UP;
            }
            return n;
        }
      }
    } catch (error) {
      if (error === NEED_MORE) return unit;
      throw error;
    }
  }

  /** Reads the bar between `from` (after its `{`) and `close` (its `}`) into the columns. */
  #readBar(b: Buffer, from: number, close: number, start: number): void {
    if (!this.#bars) {
      // Sized from the first bar's length and the bytes still to come: one allocation for most pages.
      const barBytes = close + 2 - start;
      const left = this.#expected === undefined ? 0 : this.#expected - this.#consumed - start;
      this.#bars = new Bars(Math.max(16, Math.ceil((left / barBytes) * 1.05) + 16));
    }
    const bars = this.#bars;
    const at = bars.add();
    const order = this.#order;
    const first = this.#first;
    this.#first = false;
    let i = skipSpace(b, from, close);
    if (i === close) return; // {}: no field
    let position = 0;
    for (;;) {
      if (b[i] !== QUOTE) throw GIVE_UP;
      const field = fieldAt(b, i + 1);
      const end = i + (field === 6 ? 4 : 3); // "x" or "vw"
      if (b[end - 1] !== QUOTE) throw GIVE_UP;
      i = skipSpace(b, end, close);
      if (b[i] !== COLON) throw GIVE_UP;
      i = skipSpace(b, i + 1, close);
      if (first) {
        if (order.includes(field)) throw GIVE_UP;
        order.push(field);
      } else {
        while (position < order.length && order[position] !== field) position++;
        if (position === order.length) throw GIVE_UP;
        position++;
      }
      i = skipSpace(b, readNumber(b, i, bars.columns[field] as Float64Array, at), close);
      if (i >= close) return;
      if (b[i] !== COMMA) throw GIVE_UP;
      i = skipSpace(b, i + 1, close);
    }
  }
}

/** The index of the first byte from `i` on (before `end`) that is not JSON whitespace, else `end`. */
function skipSpace(b: Buffer, i: number, end: number): number {
  for (; i < end; i++) {
    const c = b[i] as number;
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
  }
  return end;
}

/**
 * An {@link AggregateDecoder} that also keeps the body's pieces: `end` gives the decoded page, or the
 * body's text when the decoder gave up, for `parseJson`. For bars wanted as objects, whose text was
 * held whole before anyway: the page is decoded as it arrives and never fetched twice.
 *
 * @example
 * const decoder = new AggregateOrText(contentLength);
 * for await (const piece of body) decoder.push(piece);
 * const page = decoder.end(); // a string: parseJson(page)
 */
export class AggregateOrText {
  readonly #decoder: AggregateDecoder;
  readonly #pieces: Uint8Array[] = [];

  /** @param expectedBytes - As {@link AggregateDecoder}'s. */
  constructor(expectedBytes?: number) {
    this.#decoder = new AggregateDecoder(expectedBytes);
  }

  /** Decodes the piece and keeps it. */
  push(piece: Uint8Array): void {
    this.#pieces.push(piece);
    this.#decoder.push(piece);
  }

  /** The page, or the body as UTF-8 text if the decoder gave up. */
  end(): DecodedAggregates | string {
    const page = this.#decoder.end();
    if (page) return page;
    const pieces = this.#pieces;
    return pieces.length === 1
      ? bytesOf(pieces[0] as Uint8Array).toString('utf8')
      : Buffer.concat(pieces).toString('utf8');
  }
}

/** Columns in one buffer, doubled when full; `finish` gives views of exactly the bars read. */
class Bars {
  length = 0;
  columns: Float64Array[];
  constructor(private capacity: number) {
    this.columns = Bars.#allocate(capacity);
  }
  static #allocate(capacity: number): Float64Array[] {
    const buffer = new ArrayBuffer(capacity * 8 * BAR_COLUMN_FIELDS.length);
    return BAR_COLUMN_FIELDS.map((_, k) => new Float64Array(buffer, k * capacity * 8, capacity));
  }
  /** Makes room for one more bar, its fields `NaN` until set; returns its index. */
  add(): number {
    if (this.length === this.capacity) {
      this.capacity *= 2;
      const grown = Bars.#allocate(this.capacity);
      grown.forEach((column, k) => {
        column.set(this.columns[k] as Float64Array);
      });
      this.columns = grown;
    }
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
