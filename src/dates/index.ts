/** Date helpers: calendar-day input, range splitting for full-range bars, timestamp normalisation. */
export { isDayString } from './calendar.js';
export {
  type GetDatesBetweenOptions,
  getDatesBetween,
} from './get-dates-between.js';
export {
  type DateTimeInput,
  type NormalizeDatetimeOptions,
  type NormalizeOutputType,
  normalizeDatetime,
  type TimestampUnit,
} from './normalize-datetime.js';
export { parseDateInput } from './parse-date-input.js';
export { parseRfc3339Ns } from './rfc3339.js';
export {
  CHUNKED_TIMESPANS,
  type DateRangeChunk,
  type SplitDateRangeOptions,
  splitDateRange,
} from './split-date-range.js';
export { dayOf, isTimeZone, NEW_YORK, startOfDay, zonedToUtc } from './time-zone.js';
