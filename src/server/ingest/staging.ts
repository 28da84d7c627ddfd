import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDbStore } from '../store/duckdb-store.js';
import type {
  BarRow,
  OpenInterestRow,
  OptionContractRow,
  QuoteBarRow,
  SplitRow,
  TickerHistoryRow,
  TickerRow,
} from '../store/rows.js';
import type { SqlValue } from '../store/store.js';
import { RowProblem } from './ingest-error.js';
import type { NativeSource, PreparedSource } from './native-ticks.js';

/** Tables ingest writes, in the order their rows are counted. */
export const INGEST_TABLES = [
  'trades',
  'quotes',
  'bars',
  'quote_bars',
  'open_interest',
  'splits',
  'ticker_history',
  'tickers',
  'option_contracts',
] as const;

/** One of the tables ingest writes. */
export type IngestTable = (typeof INGEST_TABLES)[number];

/** Rows written per table. */
export type RowCounts = Record<IngestTable, number>;

/** A zero count for every table. */
export function emptyCounts(): RowCounts {
  return {
    trades: 0,
    quotes: 0,
    bars: 0,
    quote_bars: 0,
    open_interest: 0,
    splits: 0,
    ticker_history: 0,
    tickers: 0,
    option_contracts: 0,
  };
}

/** Where parsers put the rows of one file. */
export interface RowSink {
  bar(r: BarRow): void;
  quoteBar(r: QuoteBarRow): void;
  openInterest(r: OpenInterestRow): void;
  split(r: SplitRow): void;
  tickerHistory(r: TickerHistoryRow): void;
  /** Adds the ticker unless the store has it; `update` overwrites what a map file knows better. */
  ticker(r: TickerRow, update?: boolean): void;
  contract(r: OptionContractRow): void;
  /** Adds tick rows that DuckDB builds itself from a staged file. */
  native(source: NativeSource): void;
  /** A path in the staging folder for a file a parser stages itself (removed with the folder). */
  stagedPath(name: string): string;
}

/** The file an ingest transaction records in `ingested_files`. */
export interface IngestedFile {
  sha256: string;
  path: string;
  kind: string;
}

/** Columns of the tables filled in bulk, in table order, with the type DuckDB reads them as. */
const BULK_COLUMNS = {
  trades: [
    ['ticker', 'VARCHAR'],
    ['sip_timestamp', 'BIGINT'],
    ['participant_timestamp', 'BIGINT'],
    ['sequence_number', 'BIGINT'],
    ['price', 'DOUBLE'],
    ['size', 'DOUBLE'],
    ['exchange', 'INTEGER'],
    ['conditions', 'LIST'],
    ['id', 'VARCHAR'],
    ['tape', 'INTEGER'],
    ['correction', 'INTEGER'],
    ['trf_id', 'INTEGER'],
    ['trf_timestamp', 'BIGINT'],
  ],
  quotes: [
    ['ticker', 'VARCHAR'],
    ['sip_timestamp', 'BIGINT'],
    ['participant_timestamp', 'BIGINT'],
    ['sequence_number', 'BIGINT'],
    ['bid_price', 'DOUBLE'],
    ['bid_size', 'DOUBLE'],
    ['bid_exchange', 'INTEGER'],
    ['ask_price', 'DOUBLE'],
    ['ask_size', 'DOUBLE'],
    ['ask_exchange', 'INTEGER'],
    ['conditions', 'LIST'],
    ['indicators', 'LIST'],
    ['tape', 'INTEGER'],
  ],
  bars: [
    ['ticker', 'VARCHAR'],
    ['resolution', 'VARCHAR'],
    ['t', 'BIGINT'],
    ['o', 'DOUBLE'],
    ['h', 'DOUBLE'],
    ['l', 'DOUBLE'],
    ['c', 'DOUBLE'],
    ['v', 'DOUBLE'],
    ['vw', 'DOUBLE'],
    ['n', 'BIGINT'],
  ],
  quote_bars: [
    ['ticker', 'VARCHAR'],
    ['resolution', 'VARCHAR'],
    ['t', 'BIGINT'],
    ['bid_o', 'DOUBLE'],
    ['bid_h', 'DOUBLE'],
    ['bid_l', 'DOUBLE'],
    ['bid_c', 'DOUBLE'],
    ['bid_size', 'DOUBLE'],
    ['ask_o', 'DOUBLE'],
    ['ask_h', 'DOUBLE'],
    ['ask_l', 'DOUBLE'],
    ['ask_c', 'DOUBLE'],
    ['ask_size', 'DOUBLE'],
  ],
  open_interest: [
    ['ticker', 'VARCHAR'],
    ['t', 'BIGINT'],
    ['open_interest', 'DOUBLE'],
  ],
  option_contracts: [
    ['ticker', 'VARCHAR'],
    ['underlying_ticker', 'VARCHAR'],
    ['contract_type', 'VARCHAR'],
    ['exercise_style', 'VARCHAR'],
    ['expiration_date', 'DATE'],
    ['strike_price', 'DOUBLE'],
    ['shares_per_contract', 'DOUBLE'],
    ['primary_exchange', 'VARCHAR'],
  ],
} as const;

/**
 * Columns the service's answers fill and no file does (futures fields, see migration 9), after a bulk
 * table's own: a staged line may end before them, which leaves them NULL.
 */
const ANSWER_COLUMNS: Partial<Record<keyof typeof BULK_COLUMNS, readonly (readonly [string, string])[]>> = {
  trades: [
    ['report_sequence', 'BIGINT'],
    ['channel', 'INTEGER'],
  ],
  quotes: [
    ['report_sequence', 'BIGINT'],
    ['channel', 'INTEGER'],
    ['bid_timestamp', 'BIGINT'],
    ['ask_timestamp', 'BIGINT'],
  ],
  bars: [['settlement_price', 'DOUBLE']],
};

/** A table filled in bulk from staged tab-separated lines. */
export type BulkTable = keyof typeof BULK_COLUMNS;
const BULK = Object.keys(BULK_COLUMNS) as BulkTable[];

/** A field of a staged line: tab-separated, empty for NULL. */
function field(v: string | number | bigint | null): string {
  return v === null ? '' : String(v);
}

/** Text fields must not break the tab-separated staging lines. */
function text(v: string | null): string {
  if (v === null) return '';
  return /[\t\n\r]/.test(v) ? v.replace(/[\t\n\r]/g, ' ') : v;
}

/**
 * Collects one file's rows, then writes them in one transaction together with the file's
 * `ingested_files` row, so a file lands whole or not at all.
 *
 * Rows come two ways. Ticks and flat files are loaded by DuckDB itself from the file on disk (a
 * `NativeSource`: `native-ticks.ts`, `flatfiles.ts`). Bars, quote bars, open interest and contracts
 * parsed here are staged as tab-separated text and loaded with DuckDB's CSV reader (explicit column
 * types, no sniffing), an order of magnitude faster than appending value by value from JavaScript.
 * The small reference tables use parameterised inserts.
 *
 * Merging keeps one row per key, the latest ingest winning. The bulk tables carry no index (an index
 * makes loading several times slower), so before inserting, stored rows with the same key are deleted:
 * (ticker, resolution, t) for bars and quote bars, (ticker, t) for open interest, (ticker,
 * sequence_number, sip_timestamp) for trades and quotes. A Lean tick file instead replaces every
 * stored tick of its ticker within its time range: it is the whole record of that ticker's day; so
 * does a flat file of ticks without sequence numbers, per ticker (their line numbers stand in for
 * sequence numbers, and would not match another file's).
 */
export class Staging implements RowSink {
  private files = emptyFiles();
  private counts = emptyCounts();
  private splits: SplitRow[] = [];
  private history: TickerHistoryRow[] = [];
  private tickers = new Map<string, { row: TickerRow; update: boolean }>();
  private contracts = new Set<string>();
  /** Keys of the bars, quote bars and open interest staged for the current file. */
  private keys = { bars: new Set<string>(), quote_bars: new Set<string>(), open_interest: new Set<string>() };
  /** Time range (ms) of the bars, quote bars and open interest staged for the current file. */
  private barRange = { bars: emptyBarRange(), quote_bars: emptyBarRange(), open_interest: emptyBarRange() };
  private natives: NativeSource[] = [];

  private constructor(
    private readonly store: DuckDbStore,
    private readonly dir: string,
    /** Tickers and contracts the store holds: most files name known ones, which then cost no SQL. */
    private readonly known: { tickers: Set<string>; contracts: Set<string> },
  ) {}

  /** Removes the folder if the process exits while it is open (`process.exit` on a second Ctrl-C). */
  private readonly removeOnExit = () => rmSync(this.dir, { recursive: true, force: true });

  /** Creates the staging folder (removed by `close`, or when the process exits before). */
  static async create(store: DuckDbStore): Promise<Staging> {
    const tickers = await store.all<{ ticker: string }>('SELECT ticker FROM tickers');
    const contracts = await store.all<{ ticker: string }>('SELECT ticker FROM option_contracts');
    const staging = new Staging(store, mkdtempSync(join(tmpdir(), 'mdq-ingest-')), {
      tickers: new Set(tickers.map((r) => r.ticker)),
      contracts: new Set(contracts.map((r) => r.ticker)),
    });
    process.on('exit', staging.removeOnExit);
    return staging;
  }

  bar(r: BarRow): void {
    this.unique('bars', `${r.ticker}\t${r.resolution}\t${r.t}`, r.t);
    this.write(
      'bars',
      `${text(r.ticker)}\t${r.resolution}\t${r.t}\t${r.o}\t${r.h}\t${r.l}\t${r.c}\t${r.v}\t${field(r.vw)}\t${field(r.n)}\n`,
    );
    this.counts.bars++;
  }

  quoteBar(r: QuoteBarRow): void {
    this.unique('quote_bars', `${r.ticker}\t${r.resolution}\t${r.t}`, r.t);
    this.write(
      'quote_bars',
      `${text(r.ticker)}\t${r.resolution}\t${r.t}\t${field(r.bid_o)}\t${field(r.bid_h)}\t${field(r.bid_l)}\t${field(r.bid_c)}\t${field(r.bid_size)}\t${field(r.ask_o)}\t${field(r.ask_h)}\t${field(r.ask_l)}\t${field(r.ask_c)}\t${field(r.ask_size)}\n`,
    );
    this.counts.quote_bars++;
  }

  openInterest(r: OpenInterestRow): void {
    this.unique('open_interest', `${r.ticker}\t${r.t}`, r.t);
    this.write('open_interest', `${text(r.ticker)}\t${r.t}\t${r.open_interest}\n`);
    this.counts.open_interest++;
  }

  split(r: SplitRow): void {
    this.splits.push(r);
    this.counts.splits++;
  }

  tickerHistory(r: TickerHistoryRow): void {
    this.history.push(r);
    this.counts.ticker_history++;
  }

  ticker(r: TickerRow, update = false): void {
    if (!update && this.known.tickers.has(r.ticker)) return;
    const seen = this.tickers.get(r.ticker);
    if (seen && (seen.update || !update)) return;
    this.tickers.set(r.ticker, { row: r, update });
  }

  contract(r: OptionContractRow): void {
    if (this.contracts.has(r.ticker) || this.known.contracts.has(r.ticker)) return;
    this.contracts.add(r.ticker);
    this.write(
      'option_contracts',
      `${text(r.ticker)}\t${text(r.underlying_ticker)}\t${r.contract_type}\t${r.exercise_style}\t${r.expiration_date}\t${r.strike_price}\t${r.shares_per_contract}\t${text(r.primary_exchange)}\n`,
    );
  }

  /** A file may hold one bar per ticker, resolution and start time. */
  private unique(table: 'bars' | 'quote_bars' | 'open_interest', key: string, t: number): void {
    const range = this.barRange[table];
    if (t < range.min) range.min = t;
    if (t > range.max) range.max = t;
    const keys = this.keys[table];
    if (keys.has(key)) throw new RowProblem(`a second row for ${key.replaceAll('\t', ' ')} in the same file`);
    keys.add(key);
  }

  native(source: NativeSource): void {
    this.natives.push(source);
  }

  stagedPath(name: string): string {
    return join(this.dir, name);
  }

  /** Drops whatever the current file staged. */
  async discard(): Promise<void> {
    await this.dropNatives();
    this.reset();
  }

  private async dropNatives(): Promise<void> {
    const natives = this.natives;
    this.natives = [];
    for (const source of natives) await source.cleanup(this.store);
  }

  /**
   * Writes the staged rows and the `ingested_files` row in one transaction and returns the rows
   * written per table (for `tickers` and `option_contracts`: rows new to the store). On failure
   * nothing is written and the error is rethrown.
   */
  async commit(file: IngestedFile): Promise<RowCounts> {
    const counts = { ...this.counts };
    try {
      // Native sources first: preparing them may name tickers and contracts, staged below.
      const prepared: [NativeSource, PreparedSource][] = [];
      for (const source of this.natives) prepared.push([source, await source.prepare(this.store)]);
      const sources: Partial<Record<BulkTable, string>> = {};
      for (const table of BULK) {
        const staged = this.files[table];
        if (!staged) continue;
        flushStaged(staged);
        closeSync(staged.fd);
        this.files[table] = undefined;
        sources[table] = readStaged(staged.path, table);
        if (table !== 'option_contracts') {
          // Loaded once into memory: the merge reads it twice (delete matching keys, insert).
          await this.store.run(
            `CREATE OR REPLACE TEMP TABLE stage_${table} AS SELECT * FROM ${sources[table]}`,
          );
        }
      }
      await this.store.transaction(async () => {
        for (const [source, p] of prepared) {
          if (p.rows === 0) continue;
          counts[source.table] += await this.mergeNative(source.table, p);
        }
        for (const table of ['bars', 'quote_bars', 'open_interest'] as const) {
          if (!sources[table]) continue;
          const stage = `temp.main.stage_${table}`;
          const key = KEYS[table];
          const time = key[key.length - 1] as string;
          const range = this.barRange[table];
          // The time bounds let DuckDB skip most stored row groups before the join.
          await this.store.run(
            `DELETE FROM main.${table} AS d USING ${stage} AS s
             WHERE d.${time} BETWEEN $1 AND $2 AND ${key.map((k) => `d.${k} = s.${k}`).join(' AND ')}`,
            [range.min, range.max],
          );
          await this.store.run(`INSERT INTO main.${table} SELECT * FROM ${stage}`);
        }
        if (sources.option_contracts) {
          await this.store.run(
            `INSERT INTO main.option_contracts SELECT * FROM ${sources.option_contracts} ON CONFLICT (ticker) DO NOTHING`,
          );
        }
        await this.mergeReference();
        counts.tickers = [...this.tickers.keys()].filter((t) => !this.known.tickers.has(t)).length;
        counts.option_contracts = this.contracts.size;
        const total =
          counts.trades +
          counts.quotes +
          counts.bars +
          counts.quote_bars +
          counts.open_interest +
          counts.splits +
          counts.ticker_history;
        await this.store.run(
          'INSERT INTO ingested_files (sha256, path, kind, rows, ingested_at) VALUES ($1, $2, $3, $4, current_timestamp::TIMESTAMP)',
          [file.sha256, file.path, file.kind, total],
        );
      });
      for (const t of this.tickers.keys()) this.known.tickers.add(t);
      for (const c of this.contracts) this.known.contracts.add(c);
    } finally {
      for (const table of BULK) await this.store.run(`DROP TABLE IF EXISTS temp.main.stage_${table}`);
      await this.dropNatives();
      this.reset();
    }
    return counts;
  }

  private async mergeReference(): Promise<void> {
    await insertRows(
      this.store,
      'INSERT OR REPLACE INTO splits (ticker, execution_date, split_from, split_to)',
      ['', '::DATE', '', ''],
      this.splits.map((r) => [r.ticker, r.execution_date, r.split_from, r.split_to]),
    );
    await insertRows(
      this.store,
      'INSERT OR REPLACE INTO ticker_history (ticker, date, symbol, exchange)',
      ['', '::DATE', '', ''],
      this.history.map((r) => [r.ticker, r.date, r.symbol, r.exchange]),
    );
    const tickerCols =
      '(ticker, name, market, locale, type, active, primary_exchange, currency_name, currency_symbol, base_currency_symbol, base_currency_name, list_date, delisted_utc)';
    const casts = ['', '', '', '', '', '', '', '', '', '', '', '::DATE', '::TIMESTAMP'];
    const tickerValues = (r: TickerRow): SqlValue[] => [
      r.ticker,
      r.name,
      r.market,
      r.locale,
      r.type,
      r.active,
      r.primary_exchange,
      r.currency_name,
      r.currency_symbol,
      r.base_currency_symbol,
      r.base_currency_name,
      r.list_date,
      r.delisted_utc,
    ];
    const all = [...this.tickers.values()];
    await insertRows(
      this.store,
      `INSERT INTO tickers ${tickerCols}`,
      casts,
      all.filter((x) => !x.update).map((x) => tickerValues(x.row)),
      'ON CONFLICT (ticker) DO NOTHING',
    );
    await insertRows(
      this.store,
      `INSERT INTO tickers ${tickerCols}`,
      casts,
      all.filter((x) => x.update).map((x) => tickerValues(x.row)),
      `ON CONFLICT (ticker) DO UPDATE SET active = excluded.active, primary_exchange = excluded.primary_exchange,
       list_date = excluded.list_date, delisted_utc = excluded.delisted_utc`,
    );
  }

  private async mergeNative(table: 'trades' | 'quotes' | 'bars', p: PreparedSource): Promise<number> {
    // A native source yields the table's own columns, none of the service's (ANSWER_COLUMNS).
    const own = `(${BULK_COLUMNS[table].map(([name]) => name).join(', ')})`;
    const key = KEYS[table];
    const time = key[key.length - 1] as string;
    if (p.replaces.kind === 'ticker-range') {
      const tickers = p.replaces.tickers;
      await this.store.run(
        `DELETE FROM main.${table} WHERE ticker IN (${tickers.map((_, i) => `$${i + 3}`).join(', ')})
           AND ${time} BETWEEN $1 AND $2`,
        [p.min, p.max, ...tickers],
      );
      const result = await this.store.connection.run(`INSERT INTO main.${table} ${own} ${p.select}`);
      return Number(result.rowsChanged);
    }
    if (p.replaces.kind === 'ticker-ranges') {
      // The overall bounds let DuckDB skip most stored row groups before the join.
      await this.store.run(
        `DELETE FROM main.${table} AS d USING (${p.replaces.sql}) AS r
         WHERE d.${time} BETWEEN $1 AND $2 AND d.ticker = r.ticker AND d.${time} BETWEEN r.lo AND r.hi`,
        [p.min, p.max],
      );
      const result = await this.store.connection.run(`INSERT INTO main.${table} ${own} ${p.select}`);
      return Number(result.rowsChanged);
    }
    await this.store.run(`CREATE OR REPLACE TEMP TABLE stage_native AS ${p.select}`);
    try {
      const columns = BULK_COLUMNS[table].map(([name]) => name);
      await this.store.run(
        `DELETE FROM main.${table} AS d USING temp.main.stage_native AS s
         WHERE d.${time} BETWEEN $1 AND $2 AND ${key.map((k) => `d.${k} = s.${k}`).join(' AND ')}`,
        [p.min, p.max],
      );
      const result = await this.store.connection.run(
        `INSERT INTO main.${table} ${own} SELECT ${columns.join(', ')} FROM temp.main.stage_native`,
      );
      return Number(result.rowsChanged);
    } finally {
      await this.store.run('DROP TABLE IF EXISTS temp.main.stage_native');
    }
  }

  /**
   * Appends one staged line. Lines are written out in small blocks as they come: lines held longer
   * survive young-generation collections and get copied and promoted, which cost more than the parsing.
   */
  private write(table: BulkTable, line: string): void {
    let staged = this.files[table];
    if (!staged) {
      const path = join(this.dir, `${table}.tsv`);
      staged = { path, fd: openSync(path, 'w'), pending: [] };
      this.files[table] = staged;
    }
    staged.pending.push(line);
    if (staged.pending.length >= 256) flushStaged(staged);
  }

  private reset(): void {
    for (const table of BULK) {
      const staged = this.files[table];
      if (staged) closeSync(staged.fd);
    }
    this.files = emptyFiles();
    this.counts = emptyCounts();
    this.splits = [];
    this.history = [];
    this.tickers.clear();
    this.contracts.clear();
    for (const keys of Object.values(this.keys)) keys.clear();
    this.barRange = { bars: emptyBarRange(), quote_bars: emptyBarRange(), open_interest: emptyBarRange() };
  }

  /** Removes the staging folder. */
  close(): void {
    process.off('exit', this.removeOnExit);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The key each bulk table keeps unique, time column last. */
const KEYS = {
  trades: ['ticker', 'sequence_number', 'sip_timestamp'],
  quotes: ['ticker', 'sequence_number', 'sip_timestamp'],
  bars: ['ticker', 'resolution', 't'],
  quote_bars: ['ticker', 'resolution', 't'],
  open_interest: ['ticker', 't'],
} as const;

function emptyBarRange(): { min: number; max: number } {
  return { min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY };
}

interface StagedFile {
  path: string;
  fd: number;
  pending: string[];
}

function flushStaged(staged: StagedFile): void {
  if (staged.pending.length === 0) return;
  writeSync(staged.fd, staged.pending.join(''));
  staged.pending = [];
}

function emptyFiles(): Record<BulkTable, StagedFile | undefined> {
  return {
    trades: undefined,
    quotes: undefined,
    bars: undefined,
    quote_bars: undefined,
    open_interest: undefined,
    option_contracts: undefined,
  };
}

/** A `read_csv` over a staged file with the table's column types; list columns are split back. */
export function readStaged(path: string, table: BulkTable): string {
  const cols = [...BULK_COLUMNS[table], ...(ANSWER_COLUMNS[table] ?? [])];
  const types = cols.map(([name, type]) => `'${name}': '${type === 'LIST' ? 'VARCHAR' : type}'`).join(', ');
  const select = cols
    .map(([name, type]) => (type === 'LIST' ? `string_split(${name}, ',')::INTEGER[] AS ${name}` : name))
    .join(', ');
  const literal = path.replaceAll("'", "''");
  return `(SELECT ${select} FROM read_csv('${literal}', delim = '\t', header = false, quote = '', escape = '', nullstr = '', null_padding = true, auto_detect = false, columns = {${types}}))`;
}

/** Multi-row `VALUES` inserts, a few hundred rows per statement. */
async function insertRows(
  store: DuckDbStore,
  head: string,
  casts: readonly string[],
  rows: readonly SqlValue[][],
  tail = '',
): Promise<void> {
  const width = casts.length;
  const perStatement = Math.max(1, Math.floor(2000 / width));
  for (let i = 0; i < rows.length; i += perStatement) {
    const batch = rows.slice(i, i + perStatement);
    const tuples = batch.map(
      (_, r) => `(${casts.map((cast, c) => `$${r * width + c + 1}${cast}`).join(', ')})`,
    );
    await store.run(`${head} VALUES ${tuples.join(', ')} ${tail}`, batch.flat());
  }
}
