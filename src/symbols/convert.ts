/**
 * Rewriting an option symbol from one format into another.
 */

import { writeSymbol } from './build.js';
import { type OptionSymbolFormatName, resolveOptionSymbolFormat } from './formats.js';
import { decodeContract } from './layouts.js';

/** Options of {@link convertOptionSymbolFormats}. */
export interface ConvertOptionSymbolOptions {
  /**
   * Prefix the result with `O:` (only when converting to the polygon format).
   * @default false
   */
  prefixO?: boolean | undefined;
}

/**
 * Rewrites a symbol of one format in another: parse with `fromFormat`, build with `toFormat`. Every
 * format reads back what it writes, so converting there and back returns the canonical symbol.
 *
 * @param optionSymbol - the symbol, in any case (with or without `O:` when `fromFormat` is polygon).
 * @param fromFormat - its format (a code or an alias).
 * @param toFormat - the format to write.
 * @throws {@link InvalidParameterError} for an unknown format, a symbol that is not of `fromFormat`, or a
 *   root too long for `toFormat` (OCC: 6 characters).
 *
 * @example
 * convertOptionSymbolFormats('O:AMD220628P00096050', 'polygon', 'tda'); // 'AMD_062822P96.05'
 * convertOptionSymbolFormats('.AMD220121C100', 'tos', 'occ'); // 'AMD   220121C00100000'
 */
export function convertOptionSymbolFormats(
  optionSymbol: string,
  fromFormat: OptionSymbolFormatName,
  toFormat: OptionSymbolFormatName,
  options: ConvertOptionSymbolOptions = {},
): string {
  const from = resolveOptionSymbolFormat(fromFormat, 'fromFormat');
  const to = resolveOptionSymbolFormat(toFormat, 'toFormat');
  return writeSymbol(decodeContract(optionSymbol, from), to, options.prefixO);
}
