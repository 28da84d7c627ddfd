/**
 * Underlying roots of option symbols.
 */

import { InvalidParameterError } from '../core/errors.js';

/**
 * A root: letters and digits, optionally in dot-separated parts. Digits are kept as they are: adjusted
 * roots after corporate actions carry them (`SPY1`), and dropping them would name another contract. A
 * dotted class share such as `BRK.B` is kept with its dot, not rewritten; OCC option roots have no dots
 * (Berkshire's class B options use the root `BRKB`), so pass the option root when it differs.
 */
export const UNDERLYING_PATTERN = /^[A-Z0-9]+(?:\.[A-Z0-9]+)*$/;

/**
 * The upper-cased root of a caller's underlying symbol.
 *
 * @param underlying - letters, digits and inner dots, in any case (`amd`, `BRK.B`, `SPY1`).
 * @param parameter - the caller's name of the argument, used in the error message.
 * @throws {@link InvalidParameterError} for anything else (empty, spaces, `_`, a leading or trailing dot).
 */
export function normalizeUnderlying(underlying: unknown, parameter = 'underlyingSymbol'): string {
  if (typeof underlying === 'string') {
    const root = underlying.toUpperCase();
    if (UNDERLYING_PATTERN.test(root)) return root;
  }
  throw new InvalidParameterError(
    parameter,
    underlying,
    'an underlying symbol is letters and digits, optionally with inner dots (AMD, SPY1, BRK.B)',
  );
}
