import { InvalidParameterError } from '../core/errors.js';
import { isDayString, utcDayOf } from './calendar.js';

/** What every `DateInput` parameter accepts, for error messages. */
export const DATE_INPUT_ALLOWED = 'expected a Date or a YYYY-MM-DD string naming a real calendar day';

/**
 * Reads a calendar-date parameter: a `YYYY-MM-DD` string naming a day that exists, or a valid `Date`
 * (its UTC calendar day). Returns `YYYY-MM-DD`.
 *
 * @param paramName - the caller's name of the parameter, used in the error message.
 * @throws InvalidParameterError for anything else (`2024-02-30`, `2024-2-3`, an invalid `Date`, a number).
 * @example parseDateInput(new Date(Date.UTC(2024, 0, 2)), 'from') // '2024-01-02'
 */
export function parseDateInput(value: unknown, paramName: string): string {
  if (typeof value === 'string') {
    if (isDayString(value)) return value;
  } else if (value instanceof Date) {
    const ms = value.getTime();
    if (!Number.isNaN(ms)) return utcDayOf(ms);
  }
  throw new InvalidParameterError(paramName, value, DATE_INPUT_ALLOWED);
}
