/**
 * Parameter values on the wire, both ways. The client checks a caller's value and writes the string the
 * service expects (`encodeParam`); the local server reads that string back into a normalised value
 * (`decodeParam`). Both follow the parameter's declared `ParamType`, so client and server cannot drift.
 *
 * Tickers are trimmed and upper-cased on the client (the service's tickers are upper case and it treats
 * them case-sensitively, so `amd` would find nothing); the same rule applies to every ticker and list
 * item, whatever the operation.
 */
import { isDayString, utcDayOf } from '../dates/calendar.js';
import { DATE_INPUT_ALLOWED } from '../dates/parse-date-input.js';
import { parseRfc3339Ns } from '../dates/rfc3339.js';
import { InvalidParameterError } from './errors.js';
import type { ParamSpec, ParamType, TickerPrefix } from './operation.js';

/** A parameter value read from the wire by {@link decodeParam}. */
export type DecodedValue =
  | string
  | number
  | boolean
  | bigint
  | string[]
  | { readonly date: string }
  | { readonly ms: number }
  | { readonly ns: bigint };

/** The value {@link decodeParam} returns for a parameter type (all of {@link DecodedValue} for an unknown one). */
export type DecodedValueOf<T extends ParamType> = T extends { kind: 'int' | 'number' | 'msOffset' }
  ? number
  : T extends { kind: 'boolean' }
    ? boolean
    : T extends { kind: 'date' }
      ? { readonly date: string }
      : T extends { kind: 'dateOrMs' }
        ? { readonly date: string } | { readonly ms: number }
        : T extends { kind: 'nsTimestamp' }
          ? { readonly date: string } | { readonly ns: bigint }
          : T extends { kind: 'nsOffset' }
            ? bigint
            : T extends { kind: 'list' }
              ? string[]
              : string;

const DAY_MS = 86_400_000;
const KNOWN_PREFIX = /^[OCXI]:/;
// Characters that would change the meaning of a URL path or query, or that no ticker contains.
const TICKER_FORBIDDEN = /[/?#\s]/;
const PAIR = /^[A-Za-z0-9]{2,10}$/;
// Integers as the service reads them (base 10, an optional sign, leading zeros allowed: `+5`, `007`).
const INTEGER_TEXT = /^[+-]?\d+$/;
// Timestamps and offsets: digits with an optional `+` (a negative instant is refused).
const UNSIGNED_TEXT = /^\+?\d+$/;
// Decimal numbers as the service reads them: an optional sign, digits with an optional point, an
// optional exponent (`+1.5`, `.5`, `5.`, `1e3`); no hexadecimal, `Inf` or `NaN`.
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
// RFC 3339 as the service's parser reads it: `T` and `Z` in upper case (the layout's literals).
const RFC3339_AS_SENT = /^\d{4}-\d{2}-\d{2}T[^Tt z]+(?:Z|[+-]\d{2}:\d{2})$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
// The boolean spellings the service accepts, as Go's `strconv.ParseBool` reads them.
const TRUE_TEXT: ReadonlySet<string> = new Set(['true', 'True', 'TRUE', 't', 'T', '1']);
const FALSE_TEXT: ReadonlySet<string> = new Set(['false', 'False', 'FALSE', 'f', 'F', '0']);
const BOOLEAN_ALLOWED = 'expected a boolean: true, True, TRUE, t, T, 1 or false, False, FALSE, f, F, 0';

/**
 * Checks a caller's value for a parameter and returns the string sent on the wire.
 *
 * Rules per kind: `string` any non-empty string; `ticker` trimmed, upper-cased, the declared prefix
 * added when missing (`o:spy…` counts as prefixed), no `/`, `?`, `#` or whitespace; `pair` 2–10 letters
 * or digits, upper-cased; `int` an integer `number` (or `bigint`) within min/max; `number` a finite number
 * within min/max; `boolean` `true`/`false`; `enum` one of the values or an alias; `date` a `DateInput`
 * (`YYYY-MM-DD`; a `Date` gives its UTC day); `dateOrMs` a date, an integer Unix ms `number`, or a `Date`
 * with a time (sent as ms); `nsTimestamp` a date, an RFC 3339 string (sent as exact ns), a `Date` (its day
 * at UTC midnight, else ns), or ns as a `bigint` or integer `number` — pass a `bigint` for exact
 * nanoseconds, a `number` above 2^53 has already lost precision; `nsOffset` ns as `bigint`/integer
 * `number`, or a `Date`; `msOffset` integer ms (a number, or its digits as a string) or a `Date`; `list`
 * an array of strings or one comma-separated string, each item trimmed, upper-cased and prefixed like a
 * ticker (or, when the list declares `values`, one of them as written), at most `maxItems`. Other strings are never coerced to numbers or booleans.
 *
 * @throws InvalidParameterError naming the parameter, the value and what is allowed.
 */
export function encodeParam(param: ParamSpec, value: unknown): string {
  const type = param.type;
  switch (type.kind) {
    case 'string':
      if (type.pattern) {
        if (typeof value === 'string' && type.pattern.test(value)) return value;
        return fail(param, value, `expected ${type.allowed}`);
      }
      if (typeof value === 'string' && value !== '') return value;
      return fail(param, value, 'expected a non-empty string');
    case 'ticker':
      return encodeTicker(param, value, value, type.prefix);
    case 'pair':
      if (typeof value === 'string') {
        const v = value.trim();
        if (PAIR.test(v)) return v.toUpperCase();
      }
      return fail(param, value, 'expected a currency or crypto code of 2 to 10 letters or digits, e.g. EUR');
    case 'int': {
      if (typeof value === 'number' ? Number.isSafeInteger(value) : typeof value === 'bigint') {
        const n = value as number | bigint;
        if ((type.min === undefined || n >= type.min) && (type.max === undefined || n <= type.max)) {
          return String(n);
        }
      }
      return fail(param, value, `expected an integer${rangeText(type.min, type.max)}`);
    }
    case 'number':
      if (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (type.min === undefined || value >= type.min) &&
        (type.max === undefined || value <= type.max)
      ) {
        return String(value);
      }
      return fail(param, value, `expected a finite number${rangeText(type.min, type.max)}`);
    case 'boolean':
      if (value === true) return 'true';
      if (value === false) return 'false';
      return fail(param, value, 'expected true or false');
    case 'enum': {
      if (typeof value === 'string') {
        if (type.values.includes(value)) return value;
        const alias = type.aliases && Object.hasOwn(type.aliases, value) ? type.aliases[value] : undefined;
        if (alias !== undefined) return alias;
      }
      return fail(param, value, `expected one of ${enumText(type.values, type.aliases)}`);
    }
    case 'date':
      return encodeDate(value) ?? fail(param, value, DATE_INPUT_ALLOWED);
    case 'dateOrMs': {
      if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
      if (value instanceof Date && isValidDate(value) && value.getTime() % DAY_MS !== 0) {
        return String(value.getTime());
      }
      if (typeof value === 'string') {
        const ns = parseRfc3339Ns(value);
        if (ns !== undefined && ns % 1_000_000n === 0n && ns >= 0n) return String(ns / 1_000_000n);
      }
      return (
        encodeDate(value) ??
        fail(
          param,
          value,
          'expected a Date, a YYYY-MM-DD string, an RFC 3339 string with an offset, or a non-negative integer Unix millisecond timestamp',
        )
      );
    }
    case 'nsTimestamp': {
      const ns = nanoseconds(value);
      if (ns !== undefined) return ns;
      if (typeof value === 'string') {
        const parsed = parseRfc3339Ns(value);
        if (parsed !== undefined && parsed >= 0n) return String(parsed);
      }
      if (value instanceof Date && isValidDate(value) && value.getTime() % DAY_MS !== 0) {
        return String(BigInt(value.getTime()) * 1_000_000n);
      }
      return (
        encodeDate(value) ??
        fail(
          param,
          value,
          'expected a Date, a YYYY-MM-DD string, an RFC 3339 string with an offset, or a non-negative integer Unix nanosecond timestamp (a bigint for exact values)',
        )
      );
    }
    case 'nsOffset': {
      const ns = nanoseconds(value);
      if (ns !== undefined) return ns;
      if (value instanceof Date && isValidDate(value) && value.getTime() >= 0) {
        return String(BigInt(value.getTime()) * 1_000_000n);
      }
      return fail(
        param,
        value,
        'expected a non-negative integer Unix nanosecond timestamp (bigint or number) or a Date',
      );
    }
    case 'msOffset':
      if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
      if (value instanceof Date && isValidDate(value) && value.getTime() >= 0) return String(value.getTime());
      // SPEC 4.6: the offset may also be given as a string (the timestamp's digits).
      if (typeof value === 'string' && UNSIGNED_TEXT.test(value) && Number.isSafeInteger(Number(value))) {
        return String(Number(value));
      }
      return fail(
        param,
        value,
        'expected a non-negative integer Unix millisecond timestamp (number or string of digits) or a Date',
      );
    case 'list':
      return encodeList(param, value, type.maxItems, type.prefix, type.values);
  }
}

/**
 * Reads a parameter's wire string (already percent-decoded) into a normalised value: the server side of
 * {@link encodeParam}. It accepts what the service accepts, which is more than the client sends:
 *
 * - `ticker`, `string`, `pair` → the string as sent (tickers are case-sensitive on the service, so
 *   nothing is upper-cased here).
 * - `int` → a number, from base-10 text with an optional sign and leading zeros (`+5`, `007`; not `1.5`,
 *   `1e3`), at or above `min`, within 64 bits; a value above `max` is returned as is so the caller
 *   decides between refusing and {@link clampToMax}.
 * - `number` → a finite number within `min`, from decimal text with an optional sign and exponent
 *   (`+1.5`, `.5`, `5.`, `1e3`; not `0x10`, `Inf`, `NaN`).
 * - `boolean` → the spellings Go's `strconv.ParseBool` reads: `true`, `True`, `TRUE`, `t`, `T`, `1` and
 *   `false`, `False`, `FALSE`, `f`, `F`, `0` (Python clients send `True`/`False`).
 * - `enum` → the value, exactly (an alias gives its value).
 * - `date` → `{ date }` from `YYYY-MM-DD` naming a real day.
 * - `dateOrMs` → `{ date }`, or `{ ms }` from non-negative Unix milliseconds (an optional `+`, leading
 *   zeros allowed). An RFC 3339 time is refused, as the service refuses it on aggregates.
 * - `nsTimestamp` → `{ date }`, `{ ns }` from non-negative Unix nanoseconds within 64 bits, or `{ ns }`
 *   from RFC 3339 with an offset (`Z` or `±hh:mm`; `T` and `Z` upper case) and up to nine fraction
 *   digits (`2022-05-10T14:11:12.690661189Z`).
 * - `nsOffset` → `bigint`, `msOffset` → number: non-negative digits, an optional `+`.
 * - `list` → the comma-separated items, each trimmed (`AAPL, TSLA`), blanks dropped, at most `maxItems`,
 *   each one of `values` when the list declares them.
 *
 * @throws InvalidParameterError (named by the wire name, with the value and what is allowed) for
 *   anything else; the server answers 400.
 */
export function decodeParam<P extends ParamSpec>(param: P, raw: string): DecodedValueOf<P['type']>;
export function decodeParam(param: ParamSpec, raw: string): DecodedValue {
  const type = param.type;
  switch (type.kind) {
    case 'string':
      if (type.pattern) {
        if (type.pattern.test(raw)) return raw;
        return reject(param, raw, `expected ${type.allowed}`);
      }
      if (raw !== '') return raw;
      return reject(param, raw, 'expected a non-empty string');
    case 'ticker':
      if (raw !== '' && !TICKER_FORBIDDEN.test(raw)) return raw;
      return reject(param, raw, 'expected a ticker without "/", "?", "#" or whitespace');
    case 'pair':
      if (PAIR.test(raw)) return raw;
      return reject(param, raw, 'expected a currency or crypto code of 2 to 10 letters or digits');
    case 'int': {
      const n = decodeInteger(raw, type.max !== undefined);
      if (n !== undefined && (type.min === undefined || n >= type.min)) return n;
      return reject(
        param,
        raw,
        `expected a base-10 integer${rangeText(type.min, undefined)} (an optional sign, no decimal point or exponent)`,
      );
    }
    case 'number': {
      const n = NUMBER_TEXT.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isFinite(n) && (type.min === undefined || n >= type.min)) return n;
      return reject(
        param,
        raw,
        `expected a finite decimal number${rangeText(type.min, undefined)} (an optional sign and exponent, e.g. 1.5, +2, 1e3)`,
      );
    }
    case 'boolean':
      if (TRUE_TEXT.has(raw)) return true;
      if (FALSE_TEXT.has(raw)) return false;
      return reject(param, raw, BOOLEAN_ALLOWED);
    case 'enum': {
      if (type.values.includes(raw)) return raw;
      const alias = type.aliases && Object.hasOwn(type.aliases, raw) ? type.aliases[raw] : undefined;
      if (alias !== undefined) return alias;
      return reject(param, raw, `expected one of ${enumText(type.values, type.aliases)}`);
    }
    case 'date':
      if (isDayString(raw)) return { date: raw };
      return reject(param, raw, 'expected a YYYY-MM-DD date');
    case 'dateOrMs': {
      if (isDayString(raw)) return { date: raw };
      const ms = UNSIGNED_TEXT.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isSafeInteger(ms)) return { ms };
      return reject(
        param,
        raw,
        'expected a YYYY-MM-DD date or a non-negative integer Unix millisecond timestamp',
      );
    }
    case 'nsTimestamp': {
      if (isDayString(raw)) return { date: raw };
      const digits = decodeNanoseconds(raw);
      if (digits !== undefined) return { ns: digits };
      const ns = RFC3339_AS_SENT.test(raw) ? parseRfc3339Ns(raw) : undefined;
      if (ns !== undefined) return { ns };
      return reject(
        param,
        raw,
        'expected a YYYY-MM-DD date, a non-negative integer Unix nanosecond timestamp or an RFC 3339 timestamp with an offset (2022-05-10T14:11:12.690661189Z)',
      );
    }
    case 'nsOffset': {
      const ns = decodeNanoseconds(raw);
      if (ns !== undefined) return ns;
      return reject(param, raw, 'expected a non-negative integer Unix nanosecond timestamp');
    }
    case 'msOffset': {
      const ms = UNSIGNED_TEXT.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isSafeInteger(ms)) return ms;
      return reject(param, raw, 'expected a non-negative integer Unix millisecond timestamp');
    }
    case 'list': {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (items.length === 0) return reject(param, raw, 'expected a comma-separated list');
      if (type.maxItems !== undefined && items.length > type.maxItems) {
        return reject(param, raw, `expected at most ${type.maxItems} items, got ${items.length}`);
      }
      const other = type.values && items.find((item) => !type.values?.includes(item));
      if (other !== undefined) {
        return reject(
          param,
          raw,
          `expected a comma-separated list of ${enumText(type.values ?? [], undefined)}; ${JSON.stringify(other)} is not one of them`,
        );
      }
      return items;
    }
  }
}

/**
 * `n` limited to the parameter's declared `max` (the service caps an over-large `limit` rather than
 * refusing it). Parameters without a `max`, and non-numeric ones, leave `n` unchanged.
 */
export function clampToMax(param: ParamSpec, n: number): number {
  const type = param.type;
  if ((type.kind === 'int' || type.kind === 'number') && type.max !== undefined && n > type.max)
    return type.max;
  return n;
}

/** True when `n` lies within the parameter's declared `min` and `max` (non-numeric parameters: always). */
export function isInRange(param: ParamSpec, n: number): boolean {
  const type = param.type;
  if (type.kind !== 'int' && type.kind !== 'number') return true;
  return (type.min === undefined || n >= type.min) && (type.max === undefined || n <= type.max);
}

function encodeTicker(
  param: ParamSpec,
  whole: unknown,
  value: unknown,
  prefix: TickerPrefix | undefined,
): string {
  if (typeof value === 'string') {
    const v = value.trim().toUpperCase();
    if (v !== '' && !TICKER_FORBIDDEN.test(v)) {
      if (!prefix || v.startsWith(prefix)) return v;
      if (!KNOWN_PREFIX.test(v)) return prefix + v;
      return fail(param, whole, `expected a ticker with the ${prefix} prefix or none, not ${v.slice(0, 2)}`);
    }
  }
  return fail(
    param,
    whole,
    `expected a non-empty ticker without "/", "?", "#" or whitespace${prefix ? ` (the ${prefix} prefix is added when missing)` : ''}`,
  );
}

function encodeList(
  param: ParamSpec,
  value: unknown,
  maxItems: number | undefined,
  prefix: TickerPrefix | undefined,
  values: readonly string[] | undefined,
): string {
  let items: readonly unknown[];
  if (typeof value === 'string') items = value.split(',');
  else if (Array.isArray(value)) items = value;
  else {
    return fail(
      param,
      value,
      values ? listOfText(values) : 'expected an array of strings or a comma-separated string',
    );
  }
  if (items.length === 0) return fail(param, value, 'expected at least one item');
  if (maxItems !== undefined && items.length > maxItems) {
    return fail(param, value, `expected at most ${maxItems} items, got ${items.length}`);
  }
  const out: string[] = [];
  for (const item of items) {
    if (typeof item === 'string' && item.includes(',')) {
      return fail(param, value, 'expected items without commas');
    }
    if (values) {
      const v = typeof item === 'string' ? item.trim() : item;
      if (typeof v !== 'string' || !values.includes(v)) {
        return fail(param, value, `${listOfText(values)}; ${describeItem(item)} is not one of them`);
      }
      out.push(v);
    } else out.push(encodeTicker(param, value, item, prefix));
  }
  return out.join(',');
}

/** What a list of an enumeration's values takes, in words. */
function listOfText(values: readonly string[]): string {
  return `expected an array or a comma-separated string of ${enumText(values, undefined)}`;
}

function describeItem(item: unknown): string {
  return typeof item === 'string' ? JSON.stringify(item) : String(item);
}

/**
 * A base-10 integer's value, `undefined` when the text is not one or leaves 64 bits. A value beyond
 * JavaScript's safe integers is kept (approximately) only when `bounded`: the caller then clamps or
 * refuses it against the parameter's maximum.
 */
function decodeInteger(raw: string, bounded: boolean): number | undefined {
  if (!INTEGER_TEXT.test(raw)) return undefined;
  const n = Number(raw);
  if (Number.isSafeInteger(n)) return n;
  const big = BigInt(raw);
  return bounded && big >= INT64_MIN && big <= INT64_MAX ? n : undefined;
}

/** Non-negative nanoseconds within 64 bits from digits with an optional `+`, else `undefined`. */
function decodeNanoseconds(raw: string): bigint | undefined {
  if (!UNSIGNED_TEXT.test(raw)) return undefined;
  const ns = BigInt(raw);
  return ns <= INT64_MAX ? ns : undefined;
}

/** `YYYY-MM-DD` of a date string or a valid `Date` (its UTC day), else `undefined`. */
function encodeDate(value: unknown): string | undefined {
  if (typeof value === 'string') return isDayString(value) ? value : undefined;
  if (value instanceof Date && isValidDate(value)) return utcDayOf(value.getTime());
  return undefined;
}

/** Wire text of a nanosecond count given as `bigint` or integer `number`, else `undefined`. */
function nanoseconds(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value >= 0n ? String(value) : undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value).toString();
  return undefined;
}

const isValidDate = (d: Date) => !Number.isNaN(d.getTime());

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

function enumText(values: readonly string[], aliases: Readonly<Record<string, string>> | undefined): string {
  const names = aliases ? [...values, ...Object.keys(aliases)] : values;
  return names.map((v) => JSON.stringify(v)).join(', ');
}

function fail(param: ParamSpec, value: unknown, allowed: string): never {
  throw new InvalidParameterError(param.name, value, allowed);
}

function reject(param: ParamSpec, raw: string, allowed: string): never {
  throw new InvalidParameterError(param.wire, raw, allowed);
}
