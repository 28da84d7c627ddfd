/**
 * The older interface's TD Ameritrade helpers (SPEC 2.5 and 9.2), kept for code written against it.
 * Unlike the library they come from, the dot style is read back in the same `MMDDYY` order it is
 * written in, so every symbol built here parses back.
 */

import { InvalidParameterError } from '../core/errors.js';
import { type StrikeInput, toContract, writeSymbol } from './build.js';
import type { CallOrPutInput } from './call-or-put.js';
import type { ExpiryInput } from './expiry.js';
import { decodeContract, readContract } from './layouts.js';
import { type ParsedOptionSymbol, type ParsePolygonOptionSymbolOptions, parseOptionSymbol } from './parse.js';

/** Options of {@link buildOptionSymbolForTda}. */
export interface BuildOptionSymbolForTdaOptions {
  /**
   * `underscore`: `AMD_012122C100` (the tda format); `dot`: `.AMD012122C100`, the older TD Ameritrade
   * dot notation, also in `MMDDYY` order (thinkorswim's own `tos` format is `YYMMDD`).
   * @default 'underscore'
   */
  style?: 'underscore' | 'dot' | undefined;
}

/**
 * Builds a TD Ameritrade symbol. Unlike {@link buildOptionSymbol}, a six-digit expiry string is read as
 * `MMDDYY` (`'012122'` is 2022-01-21), as in the older interface; a `Date` or a `YYYY-MM-DD` string is
 * accepted too. Other arguments as for {@link buildOptionSymbol}.
 *
 * @throws {@link InvalidParameterError} naming the invalid argument.
 * @example buildOptionSymbolForTda('amd', '012122', 'call', 100.5); // 'AMD_012122C100.5'
 */
export function buildOptionSymbolForTda(
  underlyingSymbol: string,
  expiry: ExpiryInput,
  callOrPut: CallOrPutInput,
  strikePrice: StrikeInput,
  options: BuildOptionSymbolForTdaOptions = {},
): string {
  const style = options.style ?? 'underscore';
  if (style !== 'underscore' && style !== 'dot') {
    throw new InvalidParameterError('style', style, "allowed: 'underscore' or 'dot'");
  }
  const symbol = writeSymbol(
    toContract(underlyingSymbol, expiry, callOrPut, strikePrice, 'MMDDYY'),
    'tda',
    false,
  );
  return style === 'dot' ? `.${symbol.replace('_', '')}` : symbol;
}

const DOT_MMDDYY = /^\.([A-Z0-9.]+)(\d{6}[CP][\d.]+)$/;

/** The underscore form of a TD Ameritrade symbol given in either style. */
function underscoreStyle(optionSymbol: string): string {
  if (typeof optionSymbol !== 'string') return optionSymbol;
  const m = DOT_MMDDYY.exec(optionSymbol.toUpperCase());
  return m ? `${m[1]}_${m[2]}` : optionSymbol;
}

/**
 * Parses a TD Ameritrade symbol in either style (`AMD_012122C100` or `.AMD012122C100`, both `MMDDYY`).
 * Outputs as for {@link parseOptionSymbol}; `optionSymbol` of the result is the underscore form.
 *
 * @throws {@link InvalidParameterError} when it is not a TD Ameritrade symbol.
 */
export function parseOptionSymbolFromTda<const O extends ParsePolygonOptionSymbolOptions = {}>(
  optionSymbol: string,
  options?: O,
): ParsedOptionSymbol<O> {
  const o: ParsePolygonOptionSymbolOptions = options ?? {};
  const underscored = underscoreStyle(optionSymbol);
  const read = typeof underscored === 'string' ? readContract(underscored, 'tda') : 'it is not a string';
  if (typeof read === 'string') {
    throw new InvalidParameterError(
      'optionSymbol',
      optionSymbol,
      `${read}; a TD Ameritrade symbol is ROOT _ MMDDYY C|P and the decimal strike, or the same after a dot without the underscore, e.g. AMD_012122C100.5 or .AMD012122C100.5`,
    );
  }
  return parseOptionSymbol(underscored, { ...o, format: 'tda' }) as ParsedOptionSymbol<O>;
}

/** Options of {@link convertFromTdaToPolygonFormat}. */
export interface ConvertFromTdaOptions {
  /**
   * Prefix the result with `O:`.
   * @default false
   */
  prefixO?: boolean | undefined;
}

/**
 * A TD Ameritrade symbol (either style) rewritten in the polygon format.
 *
 * @throws {@link InvalidParameterError} when it is not a TD Ameritrade symbol.
 * @example convertFromTdaToPolygonFormat('AMD_012122C100', { prefixO: true }); // 'O:AMD220121C00100000'
 */
export function convertFromTdaToPolygonFormat(
  optionSymbol: string,
  options: ConvertFromTdaOptions = {},
): string {
  return parseOptionSymbolFromTda(optionSymbol).toFormat('polygon', { prefixO: options.prefixO });
}

/**
 * A polygon symbol (with or without `O:`) rewritten in the TD Ameritrade underscore style.
 *
 * @throws {@link InvalidParameterError} when it is not a polygon symbol.
 * @example convertFromPolygonToTdaFormat('O:AMD220121C00100000'); // 'AMD_012122C100'
 */
export function convertFromPolygonToTdaFormat(optionSymbol: string): string {
  return writeSymbol(decodeContract(optionSymbol, 'polygon'), 'tda', false);
}
