/**
 * Futures contract tickers: product code + month code + year (`ESZ3`, `ESZ23`: December 2023 E-mini
 * S&P 500; `GCJ5`: April 2025 gold). The service writes the year with one digit; two digits are
 * accepted everywhere and mean 20YY.
 *
 * A one-digit year names a decade only together with a reference date: it is the year ending in that
 * digit nearest to the reference date's year, ties going forward (from four years before to five years
 * after: with a reference in 2026, `3` is 2023 and `1` is 2031). The reference defaults to today.
 */

import { InvalidParameterError } from '../core/errors.js';

/** The month codes of futures contracts, January to December. */
export const FUTURES_MONTH_CODES = ['F', 'G', 'H', 'J', 'K', 'M', 'N', 'Q', 'U', 'V', 'X', 'Z'] as const;

/** One month code: `F` January … `Z` December. */
export type FuturesMonthCode = (typeof FUTURES_MONTH_CODES)[number];

/** A futures contract ticker read into its parts. */
export interface ParsedFuturesTicker {
  /** The ticker as read, upper case (`ESZ3`). */
  ticker: string;
  /** The product (root) code: `ES`, `GC`, `6E`, `SR3`. */
  productCode: string;
  monthCode: FuturesMonthCode;
  /** 1 (January) to 12. */
  month: number;
  /** The full year (`2023`), the one-digit form resolved by the reference date. */
  year: number;
  /** How the ticker wrote the year: one digit (`ESZ3`) or two (`ESZ23`). */
  yearDigits: 1 | 2;
  /** The contract month as `YYYYMM` (`202312`). */
  expiry: string;
}

/** Options of {@link parseFuturesTicker} and {@link futuresExpiryOf}. */
export interface ParseFuturesTickerOptions {
  /**
   * The date a one-digit year is resolved against: the year ending in that digit nearest to this
   * date's year (ties forward). A `Date`, a `YYYY-MM-DD` string or a year.
   * @default today
   */
  referenceDate?: Date | string | number;
}

/** Options of {@link buildFuturesTicker} and {@link futuresTickerFromExpiry}. */
export interface BuildFuturesTickerOptions {
  /**
   * Digits of the year in the ticker: 1 as the service writes tickers (`ESZ3`), or 2 (`ESZ23`).
   * @default 1
   */
  yearDigits?: 1 | 2;
}

/** The parts {@link buildFuturesTicker} puts together. */
export interface FuturesTickerParts {
  /** The product code: 1 to 6 letters or digits with at least one letter (`ES`, `GC`, `6E`). */
  productCode: string;
  /** 1 to 12, or a month code (`Z`). */
  month: number | string;
  /** The full year, 2000 to 2099. */
  year: number;
}

const PRODUCT = /^(?=[A-Z0-9]*[A-Z])[A-Z0-9]{1,6}$/;
const TICKER = /^([A-Z0-9]{1,6})([FGHJKMNQUVXZ])(\d{1,2})$/;
const TICKER_ALLOWED =
  'expected a futures contract ticker: a product code (1 to 6 letters or digits), a month code (F G H J K M N Q U V X Z) and a 1- or 2-digit year, e.g. ESZ3, ESZ23 or GCJ5';

/** The month code of a month (1–12). */
export function futuresMonthCode(month: number): FuturesMonthCode {
  const code = Number.isInteger(month) ? FUTURES_MONTH_CODES[month - 1] : undefined;
  if (code === undefined) throw new InvalidParameterError('month', month, 'expected an integer from 1 to 12');
  return code;
}

/** The month (1–12) of a month code (`Z` → 12). */
export function futuresMonthOfCode(code: string): number {
  const i =
    typeof code === 'string' ? FUTURES_MONTH_CODES.indexOf(code.toUpperCase() as FuturesMonthCode) : -1;
  if (i < 0) {
    throw new InvalidParameterError('monthCode', code, `expected one of ${FUTURES_MONTH_CODES.join(' ')}`);
  }
  return i + 1;
}

/** True when `ticker` is a well-formed futures contract ticker (`ESZ3`, `esz23`). */
export function isFuturesTicker(ticker: unknown): boolean {
  if (typeof ticker !== 'string') return false;
  const m = TICKER.exec(ticker.trim().toUpperCase());
  return m !== null && PRODUCT.test(m[1] as string);
}

/**
 * Reads a futures contract ticker into its parts.
 *
 * @throws InvalidParameterError for anything but product code + month code + 1- or 2-digit year.
 * @example parseFuturesTicker('ESZ3', { referenceDate: '2023-06-01' }).expiry // '202312'
 */
export function parseFuturesTicker(
  ticker: string,
  options: ParseFuturesTickerOptions = {},
  parameter = 'ticker',
): ParsedFuturesTicker {
  const upper = typeof ticker === 'string' ? ticker.trim().toUpperCase() : '';
  const m = TICKER.exec(upper);
  if (!m || !PRODUCT.test(m[1] as string)) throw new InvalidParameterError(parameter, ticker, TICKER_ALLOWED);
  const [, productCode, monthCode, digits] = m as unknown as [string, string, FuturesMonthCode, string];
  const yearDigits = digits.length as 1 | 2;
  const year =
    yearDigits === 2 ? 2000 + Number(digits) : resolveYearDigit(Number(digits), options.referenceDate);
  const month = futuresMonthOfCode(monthCode);
  return {
    ticker: upper,
    productCode,
    monthCode,
    month,
    year,
    yearDigits,
    expiry: `${year}${String(month).padStart(2, '0')}`,
  };
}

/**
 * Writes a futures contract ticker from its parts.
 *
 * @throws InvalidParameterError naming the bad part.
 * @example buildFuturesTicker({ productCode: 'ES', month: 12, year: 2023 }) // 'ESZ3'
 */
export function buildFuturesTicker(
  parts: FuturesTickerParts,
  options: BuildFuturesTickerOptions = {},
): string {
  const product = typeof parts?.productCode === 'string' ? parts.productCode.trim().toUpperCase() : '';
  if (!PRODUCT.test(product)) {
    throw new InvalidParameterError(
      'productCode',
      parts?.productCode,
      'expected 1 to 6 letters or digits with at least one letter, e.g. ES, GC or 6E',
    );
  }
  const code =
    typeof parts.month === 'string'
      ? FUTURES_MONTH_CODES[futuresMonthOfCode(parts.month) - 1]
      : futuresMonthCode(parts.month);
  if (!Number.isInteger(parts.year) || parts.year < 2000 || parts.year > 2099) {
    throw new InvalidParameterError('year', parts.year, 'expected a full year from 2000 to 2099, e.g. 2023');
  }
  const digits = options.yearDigits ?? 1;
  if (digits !== 1 && digits !== 2) throw new InvalidParameterError('yearDigits', digits, 'expected 1 or 2');
  return `${product}${code}${String(parts.year % 10 ** digits).padStart(digits, '0')}`;
}

/**
 * The ticker of a product's contract for an expiry month `YYYYMM` (a string or a number).
 *
 * @example futuresTickerFromExpiry('GC', '202504') // 'GCJ5'
 */
export function futuresTickerFromExpiry(
  productCode: string,
  expiry: string | number,
  options: BuildFuturesTickerOptions = {},
): string {
  const text = typeof expiry === 'number' && Number.isInteger(expiry) ? String(expiry) : expiry;
  const m = typeof text === 'string' ? /^(\d{4})(0[1-9]|1[0-2])$/.exec(text.trim()) : null;
  if (!m)
    throw new InvalidParameterError('expiry', expiry, 'expected a contract month as YYYYMM, e.g. 202312');
  return buildFuturesTicker({ productCode, month: Number(m[2]), year: Number(m[1]) }, options);
}

/**
 * The contract month `YYYYMM` of a futures ticker (a one-digit year resolved by the reference date).
 *
 * @example futuresExpiryOf('ESZ23') // '202312'
 */
export function futuresExpiryOf(ticker: string, options: ParseFuturesTickerOptions = {}): string {
  return parseFuturesTicker(ticker, options).expiry;
}

/** Checks a futures contract ticker and returns it upper case (the clients' path parameter). */
export function normalizeFuturesTicker(ticker: string, parameter = 'ticker'): string {
  return parseFuturesTicker(ticker, { referenceDate: 2000 }, parameter).ticker;
}

function referenceYear(reference: Date | string | number | undefined): number {
  if (reference === undefined) return new Date().getUTCFullYear();
  if (
    typeof reference === 'number' &&
    Number.isInteger(reference) &&
    reference >= 1900 &&
    reference <= 2200
  ) {
    return reference;
  }
  if (reference instanceof Date && !Number.isNaN(reference.getTime())) return reference.getUTCFullYear();
  if (typeof reference === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(reference))
    return Number(reference.slice(0, 4));
  throw new InvalidParameterError(
    'referenceDate',
    reference,
    'expected a Date, a YYYY-MM-DD string or a year from 1900 to 2200',
  );
}

/** The year ending in `digit` nearest to the reference year: from four years before to five after. */
function resolveYearDigit(digit: number, reference: Date | string | number | undefined): number {
  const ref = referenceYear(reference);
  const start = ref - 4;
  return start + ((digit - (start % 10) + 10) % 10);
}
