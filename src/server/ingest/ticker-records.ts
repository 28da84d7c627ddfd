import type { SqlValue } from '../store/store.js';

/**
 * How a record of the tickers listing (`/v3/reference/tickers`) as the service sends it becomes a row
 * of the `tickers` table: one description for `mdq ingest json` and the caching server, so that the
 * local route answers every field the service gave.
 */

type Json = Record<string, unknown>;

/** A column of the `tickers` table and how a record fills it. */
export interface TickerRecordColumn {
  name: string;
  /** A record's value for the column (null when it has none). */
  value(record: Json): SqlValue;
  /** The SQL type its text is cast to, when not the value's own. */
  cast?: string;
}

const textOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const textColumn = (name: string): TickerRecordColumn => ({ name, value: (r) => textOrNull(r[name]) });
/** A UTC time, stored without its zone letter. */
const utcColumn = (name: string): TickerRecordColumn => ({
  name,
  value: (r) => textOrNull(r[name])?.replace(/Z$/, '') ?? null,
  cast: 'TIMESTAMP',
});

/** The columns of the `tickers` table a listed record fills, the key (`ticker`) first. */
export const TICKER_RECORD_COLUMNS: readonly TickerRecordColumn[] = [
  textColumn('ticker'),
  ...['name', 'market', 'locale', 'type'].map(textColumn),
  { name: 'active', value: (r) => r.active !== false },
  ...[
    'primary_exchange',
    'currency_name',
    'currency_symbol',
    'base_currency_symbol',
    'base_currency_name',
  ].map(textColumn),
  { name: 'list_date', value: (r) => textOrNull(r.list_date), cast: 'DATE' },
  utcColumn('delisted_utc'),
  ...['cik', 'composite_figi', 'share_class_figi'].map(textColumn),
  utcColumn('last_updated_utc'),
];

/** The fields a listed record needs: the table's key and the columns it requires. */
export const TICKER_RECORD_REQUIRED = ['ticker', 'market', 'locale'] as const;

/** The first required field `record` lacks (as text), or undefined when it has them all. */
export const missingTickerField = (record: Json): string | undefined =>
  TICKER_RECORD_REQUIRED.find((f) => textOrNull(record[f]) === null);
