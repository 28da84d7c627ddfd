/**
 * The `O:` prefix the service requires on option tickers.
 */

import { InvalidParameterError } from '../core/errors.js';
import { decodeContract, O_PREFIX } from './layouts.js';

/**
 * The symbol upper-cased, with `O:` in front unless it already starts with `O:` (checked in any case,
 * so `o:amd…` becomes `O:AMD…`). The rest is not validated; see {@link normalizeOptionTicker}.
 *
 * @throws {@link InvalidParameterError} when the symbol is not a non-empty string.
 * @example ensurePrefix('amd220121c00100000'); // 'O:AMD220121C00100000'
 */
export function ensurePrefix(symbol: string): string {
  if (typeof symbol !== 'string' || symbol.replace(O_PREFIX, '') === '') {
    throw new InvalidParameterError('symbol', symbol, 'an option symbol is a non-empty string');
  }
  const upper = symbol.toUpperCase();
  return O_PREFIX.test(upper) ? upper : `O:${upper}`;
}

/**
 * The service's ticker of an option contract: a native (polygon) symbol, checked completely (layout,
 * calendar date, positive strike), upper-cased and prefixed with `O:`.
 *
 * @param parameter - the caller's name of the argument, used in the error message.
 * @default parameter 'optionSymbol'
 * @throws {@link InvalidParameterError} when it is not a native option symbol.
 * @example normalizeOptionTicker('amd220121c00100000'); // 'O:AMD220121C00100000'
 */
export function normalizeOptionTicker(symbol: string, parameter = 'optionSymbol'): string {
  decodeContract(symbol, 'polygon', parameter);
  return ensurePrefix(symbol);
}
