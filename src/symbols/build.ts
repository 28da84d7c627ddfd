/**
 * Building option symbols from their parts.
 */

import { InvalidParameterError } from '../core/errors.js';
import { type CallOrPutInput, normalizeCallOrPut } from './call-or-put.js';
import { type ExpiryInput, toCalendarDay } from './expiry.js';
import { type OptionSymbolFormatName, resolveOptionSymbolFormat } from './formats.js';
import { encodeContract, type OptionContract } from './layouts.js';
import { strikeToThousandths } from './strike.js';
import { normalizeUnderlying } from './underlying.js';

/** A strike price: a number or a decimal string, positive, below 100000, with at most three decimals. */
export type StrikeInput = number | string;

/** Options of {@link buildOptionSymbol}. */
export interface BuildOptionSymbolOptions {
  /**
   * The format to write (a code or an alias, see {@link OptionSymbolFormat}).
   * @default 'polygon'
   */
  format?: OptionSymbolFormatName | undefined;
  /**
   * Prefix the symbol with `O:`. Only the `polygon` format has the prefix; asking for it with another
   * format is an error.
   * @default false
   */
  prefixO?: boolean | undefined;
}

/** Validates and normalises the parts of a contract given by a caller. */
export function toContract(
  underlying: unknown,
  expiry: unknown,
  callOrPut: unknown,
  strikePrice: unknown,
  expiryOrder: 'YYMMDD' | 'MMDDYY' = 'YYMMDD',
): OptionContract {
  return {
    underlying: normalizeUnderlying(underlying),
    expiry: toCalendarDay(expiry, 'expiry', expiryOrder),
    type: normalizeCallOrPut(callOrPut),
    strike: strikeToThousandths(strikePrice),
  };
}

/** Writes a contract in a format, with `O:` when asked (polygon only). */
export function writeSymbol(
  contract: OptionContract,
  format: OptionSymbolFormatName | undefined,
  prefixO: boolean | undefined,
): string {
  const code = resolveOptionSymbolFormat(format ?? 'polygon');
  if (prefixO !== undefined && typeof prefixO !== 'boolean') {
    throw new InvalidParameterError('prefixO', prefixO, 'prefixO is true or false');
  }
  if (prefixO && code !== 'polygon') {
    throw new InvalidParameterError(
      'prefixO',
      prefixO,
      `only the polygon format takes the O: prefix, not ${code}`,
    );
  }
  const symbol = encodeContract(contract, code);
  return prefixO ? `O:${symbol}` : symbol;
}

/**
 * Builds an option symbol. The result is upper case in every format.
 *
 * @param underlyingSymbol - the root: letters, digits and inner dots in any case (`AMD`, `SPY1`, `BRK.B`).
 * @param expiry - a `Date` (its UTC calendar day), a `YYMMDD` string or a `YYYY-MM-DD` string; the year
 *   must be within 2000–2099, the only century a symbol's two-digit year can carry.
 * @param callOrPut - `call`, `put`, `c` or `p`, in any case.
 * @param strikePrice - a positive number or decimal string below 100000 with at most three decimals.
 *   Strikes are handled as exact thousandths; a number with more decimals (such as the floating-point
 *   result `0.30000000000000004`) is refused instead of being truncated.
 * @throws {@link InvalidParameterError} naming the first invalid argument, its value and what is allowed.
 *
 * @example
 * buildOptionSymbol('amd', '220121', 'call', 100.5); // 'AMD220121C00100500'
 * buildOptionSymbol('AMD', new Date('2022-01-21'), 'c', 100, { prefixO: true }); // 'O:AMD220121C00100000'
 * buildOptionSymbol('AMD', '2022-01-21', 'P', '2.5', { format: 'tda' }); // 'AMD_012122P2.5'
 */
export function buildOptionSymbol(
  underlyingSymbol: string,
  expiry: ExpiryInput,
  callOrPut: CallOrPutInput,
  strikePrice: StrikeInput,
  options: BuildOptionSymbolOptions = {},
): string {
  return writeSymbol(
    toContract(underlyingSymbol, expiry, callOrPut, strikePrice),
    options.format,
    options.prefixO,
  );
}

/** Options of {@link buildPolygonOptionSymbol}. */
export interface BuildPolygonOptionSymbolOptions {
  /**
   * Prefix the symbol with `O:`.
   * @default false
   */
  prefixO?: boolean | undefined;
}

/**
 * Builds a symbol in the service's own (`polygon`) format: `AMD220121C00100000`, or with `prefixO`
 * `O:AMD220121C00100000`. Arguments and errors as for {@link buildOptionSymbol}.
 */
export function buildPolygonOptionSymbol(
  underlyingSymbol: string,
  expiry: ExpiryInput,
  callOrPut: CallOrPutInput,
  strikePrice: StrikeInput,
  options: BuildPolygonOptionSymbolOptions = {},
): string {
  return writeSymbol(
    toContract(underlyingSymbol, expiry, callOrPut, strikePrice),
    'polygon',
    options.prefixO,
  );
}
