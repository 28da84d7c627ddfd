/**
 * How each format writes and reads the four parts of a contract. Writing and reading are declared side
 * by side so that every format reads back exactly what it writes.
 */

import { InvalidParameterError } from '../core/errors.js';
import type { OptionType } from './call-or-put.js';
import { type CalendarDay, formatMmddyy, formatYymmdd, readSixDigitDate } from './expiry.js';
import type { OptionSymbolFormatCode } from './formats.js';
import { formatDecimalStrike, formatPaddedStrike, readDecimalStrike, readPaddedStrike } from './strike.js';
import { UNDERLYING_PATTERN } from './underlying.js';

/** The parts of an option contract, validated. */
export interface OptionContract {
  /** Upper-case root (`AMD`). */
  readonly underlying: string;
  readonly expiry: CalendarDay;
  readonly type: OptionType;
  /** Strike in thousandths (100.5 → 100500). */
  readonly strike: number;
}

interface Layout {
  /** The layout in words, for error messages. */
  readonly shape: string;
  readonly example: string;
  /** Longest root the layout can hold. */
  readonly maxRoot?: number;
  write(c: OptionContract): string;
  /** The contract, or why the (upper-cased) text is not one in this layout. */
  read(text: string): OptionContract | string;
}

type Parts = [root: string, date: string, type: string, strike: string];

/** Checks the captured parts and assembles the contract, or says what is wrong. */
function assemble(
  parts: Parts | undefined,
  order: 'YYMMDD' | 'MMDDYY',
  readStrike: (s: string) => number | string,
): OptionContract | string {
  if (!parts) return 'it does not have this layout';
  const [root, date, type, strikeText] = parts;
  if (!UNDERLYING_PATTERN.test(root))
    return `root ${JSON.stringify(root)} is not letters and digits with inner dots`;
  const expiry = readSixDigitDate(date, order);
  if (typeof expiry === 'string') return expiry;
  const strike = readStrike(strikeText);
  if (typeof strike === 'string') return strike;
  return { underlying: root, expiry, type: type as OptionType, strike };
}

function match(pattern: RegExp, text: string): Parts | undefined {
  const m = pattern.exec(text);
  return m ? (m.slice(1, 5) as Parts) : undefined;
}

// The type letter is the last C or P of a symbol (strikes and dates are digits), so these patterns can
// only split a symbol one way, even for roots that end in digits or contain C or P.
const NATIVE = /^([A-Z0-9.]+)(\d{6})([CP])(\d{8})$/;
const TDA = /^([A-Z0-9.]+)_(\d{6})([CP])([\d.]+)$/;
const TOS = /^\.([A-Z0-9.]+)(\d{6})([CP])([\d.]+)$/;
const IBKR = /^([A-Z0-9.]+) (\d{6})([CP])(\d{8})$/;
const TRADE_STATION = /^([A-Z0-9.]+) (\d{6})([CP])([\d.]+)$/;
const OCC = /^([A-Z0-9.]{1,6}) *(\d{6})([CP])(\d{8})$/;

const native: Layout = {
  shape: 'ROOT YYMMDD C|P and the strike × 1000 as 8 digits, without spaces',
  example: 'AMD220121C00100500',
  write: (c) => `${c.underlying}${formatYymmdd(c.expiry)}${c.type}${formatPaddedStrike(c.strike)}`,
  read: (text) => assemble(match(NATIVE, text), 'YYMMDD', readPaddedStrike),
};

const LAYOUTS: Readonly<Record<OptionSymbolFormatCode, Layout>> = {
  polygon: { ...native, shape: `optional O:, then ${native.shape}` },
  tradier: native,
  tda: {
    shape: 'ROOT _ MMDDYY C|P and the decimal strike',
    example: 'AMD_012122C100.5',
    write: (c) => `${c.underlying}_${formatMmddyy(c.expiry)}${c.type}${formatDecimalStrike(c.strike)}`,
    read: (text) => assemble(match(TDA, text), 'MMDDYY', readDecimalStrike),
  },
  tos: {
    shape: '. ROOT YYMMDD C|P and the decimal strike',
    example: '.AMD220121C100.5',
    write: (c) => `.${c.underlying}${formatYymmdd(c.expiry)}${c.type}${formatDecimalStrike(c.strike)}`,
    read: (text) => assemble(match(TOS, text), 'YYMMDD', readDecimalStrike),
  },
  ibkr: {
    shape: 'ROOT, one space, YYMMDD C|P and the strike × 1000 as 8 digits',
    example: 'AMD 220121C00100500',
    write: (c) => `${c.underlying} ${formatYymmdd(c.expiry)}${c.type}${formatPaddedStrike(c.strike)}`,
    read: (text) => assemble(match(IBKR, text), 'YYMMDD', readPaddedStrike),
  },
  trade_station: {
    shape: 'ROOT, one space, YYMMDD C|P and the decimal strike',
    example: 'AMD 220121C100.5',
    write: (c) => `${c.underlying} ${formatYymmdd(c.expiry)}${c.type}${formatDecimalStrike(c.strike)}`,
    read: (text) => assemble(match(TRADE_STATION, text), 'YYMMDD', readDecimalStrike),
  },
  occ: {
    shape:
      'ROOT padded with spaces to 6 characters, YYMMDD C|P and the strike × 1000 as 8 digits (21 characters)',
    example: 'AMD   220121C00100500',
    maxRoot: 6,
    write: (c) =>
      `${c.underlying.padEnd(6, ' ')}${formatYymmdd(c.expiry)}${c.type}${formatPaddedStrike(c.strike)}`,
    read: (text) =>
      text.length === 21
        ? assemble(match(OCC, text), 'YYMMDD', readPaddedStrike)
        : 'it is not 21 characters long',
  },
};

/** A leading `O:`, in any case. */
export const O_PREFIX = /^O:/i;

/**
 * The contract a symbol names in a format, or why it names none. The text is upper-cased first; only
 * `polygon` takes an `O:` prefix (in any case).
 */
export function readContract(symbol: string, format: OptionSymbolFormatCode): OptionContract | string {
  let text = symbol.toUpperCase();
  if (format === 'polygon') text = text.replace(O_PREFIX, '');
  return LAYOUTS[format].read(text);
}

/**
 * The contract a symbol names in a format.
 *
 * @param parameter - the caller's name of the symbol argument, used in the error message.
 * @throws {@link InvalidParameterError} naming what is wrong and the layout expected.
 */
export function decodeContract(
  symbol: unknown,
  format: OptionSymbolFormatCode,
  parameter = 'optionSymbol',
): OptionContract {
  const layout = LAYOUTS[format];
  const expected = `a ${format} option symbol is ${layout.shape}, e.g. ${layout.example}`;
  if (typeof symbol !== 'string') throw new InvalidParameterError(parameter, symbol, expected);
  const result = readContract(symbol, format);
  if (typeof result === 'string')
    throw new InvalidParameterError(parameter, symbol, `${result}; ${expected}`);
  return result;
}

/**
 * The symbol of a contract in a format (upper case, without `O:`).
 *
 * @throws {@link InvalidParameterError} when the root is too long for the format (OCC: 6 characters).
 */
export function encodeContract(contract: OptionContract, format: OptionSymbolFormatCode): string {
  const { maxRoot } = LAYOUTS[format];
  if (maxRoot !== undefined && contract.underlying.length > maxRoot) {
    throw new InvalidParameterError(
      'underlyingSymbol',
      contract.underlying,
      `the ${format} format holds roots of at most ${maxRoot} characters`,
    );
  }
  return LAYOUTS[format].write(contract);
}
