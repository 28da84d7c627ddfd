/**
 * The ClickHouse store's tables: the same tables and columns as the DuckDB schema (`schema.ts`), in
 * ClickHouse types, as MergeTree tables. Bulk tables are partitioned by month of their time column and
 * ordered by ticker then time; the small reference tables are unpartitioned. Written for the oldest
 * server mdq meets (18.16: no `DateTime64`, no `Nullable` arrays, `<yandex>` configs) and current ones.
 *
 * Lists (`conditions`, `indicators`, `tickers`) cannot be `Nullable` in ClickHouse: an absent list is stored as
 * `[]`, and the store reads an empty list back as absent (`NULL`), as the DuckDB store gives it.
 */

/** One table of the ClickHouse store. */
export interface ClickHouseTable {
  readonly name: string;
  /** Columns in DuckDB table order, with their ClickHouse type. */
  readonly columns: readonly (readonly [name: string, type: string])[];
  readonly orderBy: string;
  /** Partition expression; none for a small table (one partition, `tuple()`). */
  readonly partitionBy?: string;
  /**
   * What a re-ingest replaces: rows of the target whose value of this expression the new rows have
   * are dropped for the new ones. Bulk tables: a ticker's day (of one resolution), as one source file
   * holds whole days; small tables: their primary key. A list of expressions, without parentheses.
   */
  readonly sliceKey: string;
  /** Cluster mode: the sharding expression of the `Distributed` table. */
  readonly shardBy: string;
}

/** The UTC day of a column of Unix ms or ns. */
const day = (column: string, perSecond: number) => `toDate(intDiv(${column}, ${perSecond}))`;
const month = (column: string, perSecond: number) => `toYYYYMM(${day(column, perSecond)})`;

const BY_TICKER = 'cityHash64(ticker)';

/** Every table, in the order they are created and published. */
export const CLICKHOUSE_TABLES: readonly ClickHouseTable[] = [
  {
    name: 'trades',
    columns: [
      ['ticker', 'String'],
      ['sip_timestamp', 'Int64'],
      ['participant_timestamp', 'Nullable(Int64)'],
      ['sequence_number', 'Int64'],
      ['price', 'Float64'],
      ['size', 'Float64'],
      ['exchange', 'Nullable(Int32)'],
      ['conditions', 'Array(Int32)'],
      ['id', 'Nullable(String)'],
      ['tape', 'Nullable(Int32)'],
      ['correction', 'Nullable(Int32)'],
      ['trf_id', 'Nullable(Int32)'],
      ['trf_timestamp', 'Nullable(Int64)'],
      ['report_sequence', 'Nullable(Int64)'],
      ['channel', 'Nullable(Int32)'],
    ],
    orderBy: '(ticker, sip_timestamp, sequence_number)',
    partitionBy: month('sip_timestamp', 1e9),
    sliceKey: `ticker, ${day('sip_timestamp', 1e9)}`,
    shardBy: BY_TICKER,
  },
  {
    name: 'quotes',
    columns: [
      ['ticker', 'String'],
      ['sip_timestamp', 'Int64'],
      ['participant_timestamp', 'Nullable(Int64)'],
      ['sequence_number', 'Int64'],
      ['bid_price', 'Nullable(Float64)'],
      ['bid_size', 'Nullable(Float64)'],
      ['bid_exchange', 'Nullable(Int32)'],
      ['ask_price', 'Nullable(Float64)'],
      ['ask_size', 'Nullable(Float64)'],
      ['ask_exchange', 'Nullable(Int32)'],
      ['conditions', 'Array(Int32)'],
      ['indicators', 'Array(Int32)'],
      ['tape', 'Nullable(Int32)'],
      ['report_sequence', 'Nullable(Int64)'],
      ['channel', 'Nullable(Int32)'],
      ['bid_timestamp', 'Nullable(Int64)'],
      ['ask_timestamp', 'Nullable(Int64)'],
    ],
    orderBy: '(ticker, sip_timestamp, sequence_number)',
    partitionBy: month('sip_timestamp', 1e9),
    sliceKey: `ticker, ${day('sip_timestamp', 1e9)}`,
    shardBy: BY_TICKER,
  },
  {
    name: 'bars',
    columns: [
      ['ticker', 'String'],
      ['resolution', 'String'],
      ['t', 'Int64'],
      ['o', 'Float64'],
      ['h', 'Float64'],
      ['l', 'Float64'],
      ['c', 'Float64'],
      ['v', 'Float64'],
      ['vw', 'Nullable(Float64)'],
      ['n', 'Nullable(Int64)'],
      ['settlement_price', 'Nullable(Float64)'],
    ],
    orderBy: '(ticker, t, resolution)',
    partitionBy: month('t', 1000),
    sliceKey: `ticker, resolution, ${day('t', 1000)}`,
    shardBy: BY_TICKER,
  },
  {
    name: 'quote_bars',
    columns: [
      ['ticker', 'String'],
      ['resolution', 'String'],
      ['t', 'Int64'],
      ['bid_o', 'Nullable(Float64)'],
      ['bid_h', 'Nullable(Float64)'],
      ['bid_l', 'Nullable(Float64)'],
      ['bid_c', 'Nullable(Float64)'],
      ['bid_size', 'Nullable(Float64)'],
      ['ask_o', 'Nullable(Float64)'],
      ['ask_h', 'Nullable(Float64)'],
      ['ask_l', 'Nullable(Float64)'],
      ['ask_c', 'Nullable(Float64)'],
      ['ask_size', 'Nullable(Float64)'],
    ],
    orderBy: '(ticker, t, resolution)',
    partitionBy: month('t', 1000),
    sliceKey: `ticker, resolution, ${day('t', 1000)}`,
    shardBy: BY_TICKER,
  },
  {
    name: 'open_interest',
    columns: [
      ['ticker', 'String'],
      ['t', 'Int64'],
      ['open_interest', 'Float64'],
    ],
    orderBy: '(ticker, t)',
    partitionBy: month('t', 1000),
    sliceKey: `ticker, ${day('t', 1000)}`,
    shardBy: BY_TICKER,
  },
  {
    name: 'splits',
    columns: [
      ['ticker', 'String'],
      ['execution_date', 'Date'],
      ['split_from', 'Float64'],
      ['split_to', 'Float64'],
    ],
    orderBy: '(ticker, execution_date)',
    sliceKey: 'ticker, execution_date',
    shardBy: BY_TICKER,
  },
  {
    name: 'ticker_history',
    columns: [
      ['ticker', 'String'],
      ['date', 'Date'],
      ['symbol', 'String'],
      ['exchange', 'Nullable(String)'],
    ],
    orderBy: '(ticker, date)',
    sliceKey: 'ticker, date',
    shardBy: BY_TICKER,
  },
  {
    name: 'tickers',
    columns: [
      ['ticker', 'String'],
      ['name', 'Nullable(String)'],
      ['market', 'String'],
      ['locale', 'String'],
      ['type', 'Nullable(String)'],
      ['active', 'UInt8'],
      ['primary_exchange', 'Nullable(String)'],
      ['currency_name', 'Nullable(String)'],
      ['currency_symbol', 'Nullable(String)'],
      ['base_currency_symbol', 'Nullable(String)'],
      ['base_currency_name', 'Nullable(String)'],
      ['list_date', 'Nullable(Date)'],
      ['delisted_utc', 'Nullable(DateTime)'],
      ['cik', 'Nullable(String)'],
      ['composite_figi', 'Nullable(String)'],
      ['share_class_figi', 'Nullable(String)'],
      ['last_updated_utc', 'Nullable(DateTime)'],
    ],
    orderBy: 'ticker',
    sliceKey: 'ticker',
    shardBy: BY_TICKER,
  },
  {
    name: 'option_contracts',
    columns: [
      ['ticker', 'String'],
      ['underlying_ticker', 'String'],
      ['contract_type', 'String'],
      ['exercise_style', 'String'],
      ['expiration_date', 'Date'],
      ['strike_price', 'Float64'],
      ['shares_per_contract', 'Float64'],
      ['primary_exchange', 'Nullable(String)'],
    ],
    orderBy: 'ticker',
    sliceKey: 'ticker',
    shardBy: BY_TICKER,
  },
  {
    name: 'reference_records',
    columns: [
      ['kind', 'String'],
      ['id', 'String'],
      ['ticker', 'Nullable(String)'],
      ['date', 'Nullable(String)'],
      ['body', 'String'],
      // The fields listings filter and sort on (see ingest/record-fields.ts).
      ['tickers', 'Array(String)'],
      ['ex_dividend_date', 'Nullable(String)'],
      ['record_date', 'Nullable(String)'],
      ['declaration_date', 'Nullable(String)'],
      ['pay_date', 'Nullable(String)'],
      ['cash_amount', 'Nullable(Float64)'],
      ['frequency', 'Nullable(Int32)'],
      ['dividend_type', 'Nullable(String)'],
      ['distribution_type', 'Nullable(String)'],
      ['cik', 'Nullable(String)'],
      ['company_name', 'Nullable(String)'],
      ['sic', 'Nullable(String)'],
      ['timeframe', 'Nullable(String)'],
      ['filing_date', 'Nullable(String)'],
      ['end_date', 'Nullable(String)'],
      ['us_code', 'Nullable(String)'],
      ['isin', 'Nullable(String)'],
      ['ipo_status', 'Nullable(String)'],
      ['last_updated', 'Nullable(String)'],
      ['issuer_name', 'Nullable(String)'],
      ['announced_date', 'Nullable(String)'],
      ['security_type', 'Nullable(String)'],
      ['currency_code', 'Nullable(String)'],
      ['primary_exchange', 'Nullable(String)'],
      ['security_description', 'Nullable(String)'],
      ['final_issue_price', 'Nullable(Float64)'],
      ['min_shares_offered', 'Nullable(Float64)'],
      ['max_shares_offered', 'Nullable(Float64)'],
      ['lowest_offer_price', 'Nullable(Float64)'],
      ['highest_offer_price', 'Nullable(Float64)'],
      ['total_offer_size', 'Nullable(Float64)'],
      ['shares_outstanding', 'Nullable(Float64)'],
      ['lot_size', 'Nullable(Float64)'],
    ],
    orderBy: '(kind, id)',
    sliceKey: 'kind, id',
    shardBy: 'cityHash64(kind, id)',
  },
];

/** The columns the store reads back as absent when empty (see the module comment). */
export const NULLABLE_LISTS: ReadonlySet<string> = new Set(['conditions', 'indicators', 'tickers']);

/** `CREATE TABLE` of `table` under the name `name` (a local shard, a staging copy). */
export function createTableSql(table: ClickHouseTable, name: string, onCluster: string): string {
  const columns = table.columns.map(([c, type]) => `${c} ${type}`).join(', ');
  const partition = table.partitionBy ? ` PARTITION BY ${table.partitionBy}` : '';
  return `CREATE TABLE IF NOT EXISTS ${name}${onCluster} (${columns}) ENGINE = MergeTree${partition} ORDER BY ${table.orderBy}`;
}
