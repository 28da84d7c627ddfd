/**
 * Strike prices as exact integers of thousandths, so that no binary floating-point error can reach a
 * symbol: `100.5` is 100500, and every strike a symbol can carry (8 digits of thousandths) is one.
 */

import { InvalidParameterError } from '../core/errors.js';

/** Largest strike a symbol can carry, in thousandths: 8 digits, i.e. 99999.999. */
export const MAX_STRIKE_THOUSANDTHS = 99_999_999;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Why a decimal text is not a strike, or its value in thousandths.
 * Trailing zeros in the fraction are allowed (`100.500` is 100.5): the value decides, not the spelling.
 */
function decimalToThousandths(text: string): number | string {
  const m = DECIMAL.exec(text);
  if (!m) return 'not a decimal number such as 100 or 100.5';
  const [, minus, whole = '', fraction = ''] = m;
  const digits = fraction.replace(/0+$/, '');
  const wholeDigits = whole.replace(/^0+(?=\d)/, '');
  const isZero = /^0*$/.test(whole) && digits === '';
  if (minus && !isZero) return 'a strike cannot be negative';
  if (digits.length > 3) return 'more than three decimals';
  if (wholeDigits.length > 5) return 'too large (a strike must be below 100000)';
  const thousandths = Number(wholeDigits) * 1000 + Number(digits.padEnd(3, '0'));
  if (thousandths === 0) return 'a strike must be greater than 0';
  return thousandths;
}

/**
 * A strike price given by a caller, in thousandths.
 *
 * A `number` is read through its shortest round-trip decimal text (`String(n)`), which is what the
 * caller sees when printing it: `100.5` is 100500, while `0.1 + 0.2` (`0.30000000000000004`) has more
 * than three decimals and is refused rather than silently rounded. A `string` is read as written
 * (`'100.5'`, `'0.5'`, `'100.500'`).
 *
 * @param strike - a positive number or decimal string below 100000 with at most three decimals.
 * @param parameter - the caller's name of the argument, used in the error message.
 * @throws {@link InvalidParameterError} for anything else.
 */
export function strikeToThousandths(strike: unknown, parameter = 'strikePrice'): number {
  const allowed = 'a strike is a positive number below 100000 with at most three decimals';
  let text: string;
  if (typeof strike === 'number') {
    if (!Number.isFinite(strike))
      throw new InvalidParameterError(parameter, strike, `${allowed}; got a non-finite number`);
    text = String(strike);
    if (text.includes('e')) {
      const reason =
        strike < 0
          ? 'a strike cannot be negative'
          : Math.abs(strike) < 1
            ? 'more than three decimals'
            : 'too large';
      throw new InvalidParameterError(parameter, strike, `${allowed}; ${reason}`);
    }
  } else if (typeof strike === 'string') {
    text = strike;
  } else {
    throw new InvalidParameterError(parameter, strike, `${allowed}, given as a number or a decimal string`);
  }
  const result = decimalToThousandths(text);
  if (typeof result === 'number') return result;
  const hint =
    typeof strike === 'number' && result === 'more than three decimals'
      ? ' (for a floating-point result such as 0.1 + 0.2, round it first: Math.round(x * 1000) / 1000)'
      : '';
  throw new InvalidParameterError(parameter, strike, `${allowed}; ${result}${hint}`);
}

/** The strike as a `number` (`100500` → `100.5`); exact, since integer division rounds correctly. */
export function thousandthsToNumber(thousandths: number): number {
  return thousandths / 1000;
}

/** The 8-digit form of the native, ibkr and OCC layouts: `100500` → `00100500`. */
export function formatPaddedStrike(thousandths: number): string {
  return String(thousandths).padStart(8, '0');
}

/** The decimal form of the tda, tos and trade_station layouts: `100500` → `100.5`, `100000` → `100`. */
export function formatDecimalStrike(thousandths: number): string {
  const whole = Math.floor(thousandths / 1000);
  const fraction = String(thousandths % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Reads an 8-digit strike segment; returns why it is not one, or the thousandths. */
export function readPaddedStrike(segment: string): number | string {
  if (!/^\d{8}$/.test(segment)) return `strike ${JSON.stringify(segment)} is not 8 digits`;
  const thousandths = Number(segment);
  return thousandths === 0 ? 'the strike is 0' : thousandths;
}

/**
 * Reads a decimal strike segment; returns why it is not one, or the thousandths. Leading zeros are
 * refused (`0100`): no broker writes them, and accepting them would make an ibkr symbol also read as a
 * trade_station one.
 */
export function readDecimalStrike(segment: string): number | string {
  if (!/^(0|[1-9]\d*)(\.\d+)?$/.test(segment)) {
    return `strike ${JSON.stringify(segment)} is not a decimal number without leading zeros`;
  }
  const result = decimalToThousandths(segment);
  return typeof result === 'number' ? result : `strike ${segment}: ${result}`;
}
