/**
 * The kinds of reference records `ingestJson` loads: a leaf module, so that the CLI's `--help` can list
 * them without loading DuckDB.
 */
export const JSON_KINDS = [
  'dividends',
  'news',
  'financials',
  'ticker_details',
  'related_companies',
  'ipos',
  'splits',
  'ticker_events',
  'tickers',
] as const;

/** A kind of reference record. */
export type JsonKind = (typeof JSON_KINDS)[number];
