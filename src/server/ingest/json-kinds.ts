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

/**
 * The fields every record of a kind has (not null), which tell it from records of the other kinds: a
 * file of news given as dividends is refused instead of stored as dividends of no ticker. Fewer than the
 * specification marks required, since saved responses leave some of those out (a dividend's `id` or
 * dates, a filing's `timeframe`); all other fields are kept as they are.
 */
export const JSON_KIND_FIELDS: Readonly<Record<JsonKind, readonly string[]>> = {
  dividends: ['ticker', 'cash_amount'],
  news: ['published_utc'],
  financials: ['financials'],
  ticker_details: ['ticker', 'name'],
  related_companies: ['ticker', 'results'],
  ipos: ['ticker', 'issuer_name', 'ipo_status'],
  splits: ['ticker', 'execution_date', 'split_from', 'split_to'],
  ticker_events: ['events'],
  tickers: ['ticker', 'market', 'locale'],
};
