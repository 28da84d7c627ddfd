import { InvalidParameterError } from '../core/errors.js';
import { addDays, dayNumber } from './calendar.js';
import type { DateInput } from './date-input.js';
import { parseDateInput } from './parse-date-input.js';

/** Options of {@link getDatesBetween}. */
export interface GetDatesBetweenOptions {
  /**
   * Include `toDate` itself.
   * @default true
   */
  includeToDate?: boolean;
}

/**
 * Every calendar day from `fromDate` to `toDate`, as `YYYY-MM-DD` strings, oldest first.
 *
 * @throws InvalidParameterError for an invalid date or when `fromDate` is after `toDate`.
 * @example getDatesBetween('2022-07-08', '2022-07-11') // ['2022-07-08', '2022-07-09', '2022-07-10', '2022-07-11']
 */
export function getDatesBetween(
  fromDate: DateInput,
  toDate: DateInput,
  options: GetDatesBetweenOptions = {},
): string[] {
  const { includeToDate = true } = options;
  const from = parseDateInput(fromDate, 'fromDate');
  const to = parseDateInput(toDate, 'toDate');
  const span = dayNumber(to) - dayNumber(from);
  if (span < 0) throw new InvalidParameterError('toDate', toDate, `must not be before fromDate (${from})`);
  const count = includeToDate ? span + 1 : span;
  const days: string[] = [];
  for (let i = 0; i < count; i++) days.push(addDays(from, i));
  return days;
}
