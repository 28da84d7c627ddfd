/**
 * Recognising the format of an option symbol.
 */

import { OPTION_SYMBOL_FORMATS, type OptionSymbolFormatCode } from './formats.js';
import { readContract } from './layouts.js';

/**
 * Every format in which the symbol parses completely (layout, calendar date, strike), in the order
 * polygon, tradier, occ, tda, tos, ibkr, trade_station; empty when none.
 *
 * Some layouts coincide, so a symbol may belong to several: polygon and tradier share one layout (only
 * polygon takes `O:`), an OCC symbol with a 6-character root is also a native one, and one with a
 * 5-character root is also an ibkr one. The ibkr and trade_station layouts never overlap: a decimal
 * strike has no leading zeros and is below 100000, which no 8-digit strike segment satisfies.
 */
export function detectOptionSymbolFormats(optionSymbol: string): OptionSymbolFormatCode[] {
  if (typeof optionSymbol !== 'string') return [];
  return OPTION_SYMBOL_FORMATS.filter((format) => typeof readContract(optionSymbol, format) !== 'string');
}

/**
 * The format of a symbol in the shape the reference library returns: the code when exactly one format
 * matches, the list of codes when several do (see {@link detectOptionSymbolFormats}), `false` when none.
 * Detection parses the symbol fully rather than guessing from its length, so `false` also means the
 * symbol is not valid in any format.
 *
 * @example
 * detectOptionSymbolFormat('O:AMD220121C00100000'); // 'polygon'
 * detectOptionSymbolFormat('AMD220121C00100000'); // ['polygon', 'tradier']
 * detectOptionSymbolFormat('AMD 220121C100'); // 'trade_station'
 * detectOptionSymbolFormat('AMD220121C0010000'); // false
 */
export function detectOptionSymbolFormat(
  optionSymbol: string,
): OptionSymbolFormatCode | OptionSymbolFormatCode[] | false {
  const formats = detectOptionSymbolFormats(optionSymbol);
  if (formats.length === 0) return false;
  return formats.length === 1 ? (formats[0] as OptionSymbolFormatCode) : formats;
}
