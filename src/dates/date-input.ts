/** A calendar date: a `Date` (its UTC calendar day) or a `YYYY-MM-DD` string. */
export type DateInput = Date | string;
