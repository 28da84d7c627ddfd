import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync, constants as zlibConstants } from 'node:zlib';
import { startOfDay } from '../../dates/time-zone.js';
import type { DuckDbStore } from '../store/duckdb-store.js';
import { IngestError } from './ingest-error.js';
import { isoDate } from './local-time.js';
import { csvError, type PreparedSource } from './native-ticks.js';
import { defaultExerciseStyle, parseOptionTicker } from './option-ticker.js';
import { tickerRowFor } from './reference.js';
import { type IngestJob, type IngestOptions, type IngestSummary, runIngestJobs } from './run-jobs.js';
import type { RowSink } from './staging.js';

/**
 * The provider's flat-file layouts: every column a layout may have (the stocks files have them all).
 * Other asset classes' files carry a subset (options trades have no `id` or `sequence_number`, crypto
 * trades no `sip_timestamp`, forex quotes no sizes); `FLAT_FILE_REQUIRED` lists what each must have.
 */
export const FLAT_FILE_LAYOUTS = {
  aggregates: ['ticker', 'volume', 'open', 'close', 'high', 'low', 'window_start', 'transactions'],
  trades: [
    'ticker',
    'conditions',
    'correction',
    'exchange',
    'id',
    'participant_timestamp',
    'price',
    'sequence_number',
    'sip_timestamp',
    'size',
    'tape',
    'trf_id',
    'trf_timestamp',
  ],
  quotes: [
    'ticker',
    'ask_exchange',
    'ask_price',
    'ask_size',
    'bid_exchange',
    'bid_price',
    'bid_size',
    'conditions',
    'indicators',
    'participant_timestamp',
    'sequence_number',
    'sip_timestamp',
    'tape',
    'trf_timestamp',
  ],
} as const;

/** Columns each layout must have; a timestamp column is also needed for ticks (see `parseFlatFile`). */
export const FLAT_FILE_REQUIRED = {
  aggregates: ['ticker', 'volume', 'open', 'close', 'high', 'low', 'window_start'],
  trades: ['ticker', 'price', 'size'],
  quotes: ['ticker', 'ask_price', 'bid_price'],
} as const satisfies Record<keyof typeof FLAT_FILE_LAYOUTS, readonly string[]>;

/** A flat-file layout name. */
export type FlatFileLayout = keyof typeof FLAT_FILE_LAYOUTS;

/** Options of `ingestFlatFiles`. */
export interface FlatFileOptions extends IngestOptions {
  /**
   * Resolution of aggregate files. By default it is read from the file's path (`day_aggs`,
   * `minute_aggs`, or the words day / minute), else from the data: a file whose every `window_start`
   * is the start of a day (New York for US markets, UTC for forex and crypto) holds day bars.
   */
  resolution?: 'day' | 'minute';
}

/** Type DuckDB reads each flat-file column as. */
const COLUMN_TYPES: Readonly<Record<string, string>> = {
  ticker: 'VARCHAR',
  volume: 'DOUBLE',
  open: 'DOUBLE',
  close: 'DOUBLE',
  high: 'DOUBLE',
  low: 'DOUBLE',
  window_start: 'BIGINT',
  transactions: 'BIGINT',
  conditions: 'VARCHAR',
  indicators: 'VARCHAR',
  correction: 'INTEGER',
  exchange: 'INTEGER',
  id: 'VARCHAR',
  participant_timestamp: 'BIGINT',
  price: 'DOUBLE',
  sequence_number: 'BIGINT',
  sip_timestamp: 'BIGINT',
  size: 'DOUBLE',
  tape: 'INTEGER',
  trf_id: 'INTEGER',
  trf_timestamp: 'BIGINT',
  ask_exchange: 'INTEGER',
  ask_price: 'DOUBLE',
  ask_size: 'DOUBLE',
  bid_exchange: 'INTEGER',
  bid_price: 'DOUBLE',
  bid_size: 'DOUBLE',
};

/**
 * Ingests the provider's bulk CSV files (`.csv` or gzip-compressed `.csv.gz`, with a header row): day
 * and minute aggregates, trades and quotes of any asset class, times in Unix ns. The layout is read
 * from the header (`FLAT_FILE_LAYOUTS`). Each file is one transaction and is skipped when its content
 * was ingested before.
 *
 * The files can hold tens of millions of rows, so they are never read into JavaScript: DuckDB's CSV
 * reader loads them (explicit column types, gzip read as a stream) and one `SELECT` maps them onto the
 * store's tables. Ticks without `sip_timestamp` (crypto, forex) use `participant_timestamp`; ticks
 * without `sequence_number` (crypto, forex, options trades) use their line number, and such a file
 * replaces the stored ticks of each of its tickers over the time it covers (so ingesting the same
 * ticks again from another file never duplicates them).
 *
 * @throws IngestError naming `file:line` for a bad header or malformed row (unless `continueOnError`).
 */
export async function ingestFlatFiles(
  store: DuckDbStore,
  files: readonly string[],
  options: FlatFileOptions = {},
): Promise<IngestSummary> {
  const jobs: IngestJob[] = files.map((path) => ({
    path,
    kind: 'flatfiles',
    streamed: true,
    parse: (_bytes, sink) => stageFlatFile(path, sink, options.resolution),
  }));
  return runIngestJobs(store, jobs, [], options);
}

/** The header line of a flat file (gzip or plain), read from its first 64 KiB. */
function readHeader(file: string): { header: string; gzip: boolean } {
  const fd = openSync(file, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(65_536);
    head = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    closeSync(fd);
  }
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  let text: Buffer = head;
  if (gzip) {
    const whole = head.length < 65_536;
    try {
      // A prefix of the stream: flush what it decodes to instead of asking for the end; a whole file
      // must reach its end.
      text = gunzipSync(head, whole ? {} : { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    } catch (e) {
      throw gzipError(file, e);
    }
  }
  const decoded = text.toString('utf8');
  const newline = decoded.indexOf('\n');
  const header = (newline === -1 ? decoded : decoded.slice(0, newline))
    .replace(/\r$/, '')
    .replace(/^\uFEFF/, '');
  return { header, gzip };
}

/** The error of a gzip file zlib cannot read to its end. */
function gzipError(file: string, e: unknown): IngestError {
  const message = (e as Error).message;
  return message === 'unexpected end of file'
    ? new IngestError({ file }, 'is cut short: its gzip stream ends early', { cause: e })
    : new IngestError({ file }, `not a readable gzip file (${message})`, { cause: e });
}

/** Whether a gzip file reads to its end; else the error that says why not. */
async function gzipEnds(file: string): Promise<IngestError | undefined> {
  try {
    await pipeline(createReadStream(file), createGunzip(), new Writable({ write: (_c, _e, done) => done() }));
    return undefined;
  } catch (e) {
    return gzipError(file, e);
  }
}

/** Checks the header and stages the file for DuckDB to load at commit. Returns the layout. */
export function stageFlatFile(file: string, sink: RowSink, resolution?: 'day' | 'minute'): FlatFileLayout {
  const { header, gzip } = readHeader(file);
  if (header.trim() === '') throw new IngestError({ file }, 'the file is empty (no header row)');
  // A header in UTF-16 (NUL characters) or with bytes UTF-8 does not allow is no unknown header.
  if (/[\u0000\ufffd]/.test(header)) throw new IngestError({ file, line: 1 }, 'is not UTF-8 text');
  const names = header.split(',').map((s) => s.trim().toLowerCase());
  const layout = layoutOf(names);
  if (!layout) {
    throw new IngestError(
      { file, line: 1 },
      `unknown header ${JSON.stringify(header)}; expected the columns of aggregates (${FLAT_FILE_LAYOUTS.aggregates.join(',')}), trades or quotes`,
    );
  }
  const raw = `raw_flat_${++counter}`;
  sink.native({
    table: layout === 'aggregates' ? 'bars' : layout,
    prepare: (store) => prepare(store, { file, gzip, names, layout, raw, sink, resolution }),
    cleanup: (store) => store.run(`DROP TABLE IF EXISTS temp.main.${raw}`),
  });
  return layout;
}

let counter = 0;

interface FlatSource {
  file: string;
  gzip: boolean;
  names: string[];
  layout: FlatFileLayout;
  raw: string;
  sink: RowSink;
  resolution: 'day' | 'minute' | undefined;
}

async function prepare(store: DuckDbStore, src: FlatSource): Promise<PreparedSource> {
  const { file, names, layout, sink } = src;
  const raw = `temp.main.${src.raw}`;
  const types = names.map((n) => `'${n}': '${COLUMN_TYPES[n] ?? 'VARCHAR'}'`).join(', ');
  try {
    // Row numbers follow the file's order (DuckDB keeps insertion order); + 1 for the header line.
    await store.run(
      `CREATE OR REPLACE TEMP TABLE ${src.raw} AS SELECT row_number() OVER () + 1 AS line, *
       FROM read_csv('${file.replaceAll("'", "''")}', header = true, delim = ',', quote = '"', escape = '"',
         auto_detect = false, strict_mode = true, compression = '${src.gzip ? 'gzip' : 'none'}', columns = {${types}})`,
    );
  } catch (e) {
    // A stream cut short reads as a last row cut short: say what is wrong with the file instead.
    throw (src.gzip && (await gzipEnds(file))) || csvError(e, { file }, false);
  }
  const has = (n: string) => names.includes(n);
  const col = (n: string) => (has(n) ? n : 'NULL');
  const checks: [string, string][] = [["ticker IS NULL OR ticker = ''", 'ticker is empty']];
  for (const n of FLAT_FILE_REQUIRED[layout])
    if (n !== 'ticker') checks.push([`${n} IS NULL`, `${n} is empty`]);
  for (const n of ['conditions', 'indicators']) {
    if (has(n))
      checks.push([
        `NOT regexp_full_match(coalesce(${n}, ''), '${INT_LIST}')`,
        `${n} is not a list of integers`,
      ]);
  }
  // NaN, infinities and negative prices, sizes or volumes are not market data (DuckDB reads "nan"
  // and "inf"); a time must be one the server can show.
  for (const n of names) {
    if (COLUMN_TYPES[n] === 'DOUBLE')
      checks.push([`NOT (isfinite(${n}) AND ${n} >= 0)`, `${n} is not a finite number ≥ 0`]);
    else if (NS_COLUMNS.has(n))
      checks.push([`NOT (${n} BETWEEN 0 AND ${MAX_NS})`, `${n} is not a time in ns from 1970 to 2200`]);
  }
  let time: string;
  if (layout === 'aggregates') time = 'window_start // 1000000';
  else {
    time = `coalesce(${col('sip_timestamp')}, ${col('participant_timestamp')})`;
    checks.push([`${time} IS NULL`, 'sip_timestamp and participant_timestamp are both empty']);
  }
  const [summary] = await store.all<Record<string, bigint | null>>(
    `SELECT ${checks.map(([bad], i) => `min(line) FILTER (WHERE ${bad}) AS bad${i}`).join(', ')},
       min(${time}) AS lo, max(${time}) AS hi, count(*) AS n FROM ${raw}`,
  );
  let first: { line: number; reason: string } | undefined;
  checks.forEach(([, reason], i) => {
    const line = summary?.[`bad${i}`];
    if (line !== null && line !== undefined && (!first || Number(line) < first.line))
      first = { line: Number(line), reason };
  });
  if (first) throw new IngestError({ file, line: first.line }, first.reason);

  const tickers = await store.all<{ ticker: string }>(`SELECT DISTINCT ticker FROM ${raw}`);
  for (const { ticker } of tickers) reference(ticker, sink);

  const list = (n: string) =>
    has(n)
      ? `CASE WHEN trim(${n}, '[] ') = '' THEN NULL ELSE list_transform(string_split(trim(${n}, '[] '), ','), x -> trim(x)::INTEGER) END`
      : 'NULL::INTEGER[]';
  let select: string;
  if (layout === 'aggregates') {
    const res = src.resolution ?? resolutionFromPath(file) ?? (await inferResolution(store, raw));
    const [dupe] = await store.all<{ line: bigint | null; ticker: string | null }>(
      `SELECT line, ticker FROM (SELECT line, ticker, row_number() OVER (PARTITION BY ticker, window_start ORDER BY line) AS k
       FROM ${raw}) WHERE k > 1 ORDER BY line LIMIT 1`,
    );
    if (dupe?.line !== null && dupe?.line !== undefined) {
      throw new IngestError(
        { file, line: Number(dupe.line) },
        `a second row for ${dupe.ticker} at this window_start`,
      );
    }
    select = `SELECT ticker, '${res}' AS resolution, window_start // 1000000 AS t, open AS o, high AS h, low AS l,
        close AS c, volume AS v, NULL::DOUBLE AS vw, ${col('transactions')} AS n FROM ${raw} ORDER BY line`;
  } else if (layout === 'trades') {
    select = `SELECT ticker, ${time} AS sip_timestamp, ${col('participant_timestamp')} AS participant_timestamp,
        coalesce(${col('sequence_number')}, line) AS sequence_number, price, size, ${col('exchange')} AS exchange,
        ${list('conditions')} AS conditions, ${col('id')} AS id, ${col('tape')} AS tape, ${col('correction')} AS correction,
        ${col('trf_id')} AS trf_id, ${col('trf_timestamp')} AS trf_timestamp FROM ${raw} ORDER BY line`;
  } else {
    select = `SELECT ticker, ${time} AS sip_timestamp, ${col('participant_timestamp')} AS participant_timestamp,
        coalesce(${col('sequence_number')}, line) AS sequence_number, bid_price, ${col('bid_size')} AS bid_size,
        ${col('bid_exchange')} AS bid_exchange, ask_price, ${col('ask_size')} AS ask_size, ${col('ask_exchange')} AS ask_exchange,
        ${list('conditions')} AS conditions, ${list('indicators')} AS indicators, ${col('tape')} AS tape FROM ${raw} ORDER BY line`;
  }
  // Ticks without sequence numbers get their line numbers, which another file of the same ticks (in
  // another order, or with more of them) would not repeat: such a file replaces what the store holds
  // of each of its tickers over the span it covers, rather than adding to it.
  const byLine = layout !== 'aggregates' && !has('sequence_number');
  return {
    select,
    min: summary?.lo ?? 0n,
    max: summary?.hi ?? -1n,
    rows: Number(summary?.n ?? 0n),
    replaces: byLine
      ? {
          kind: 'ticker-ranges',
          sql: `SELECT ticker, min(${time}) AS lo, max(${time}) AS hi FROM ${raw} GROUP BY ticker`,
        }
      : { kind: 'keys' },
  };
}

/** Columns holding Unix ns. */
const NS_COLUMNS = new Set(['window_start', 'participant_timestamp', 'sip_timestamp', 'trf_timestamp']);
/** 2200-01-01 in Unix ns: later times are typing errors (and out of the range of a JS `Date` in ms). */
const MAX_NS = 7_258_118_400_000_000_000n;

/** `12,37`, `[12, 37]` or empty. */
const INT_LIST = '^\\[?\\s*(-?[0-9]+\\s*(,\\s*-?[0-9]+\\s*)*)?\\]?$';

/** Day bars start at midnight of the market's zone; any other start means minute bars. */
async function inferResolution(store: DuckDbStore, raw: string): Promise<'day' | 'minute'> {
  const limit = 5000;
  const starts = await store.all<{ t: bigint; utc: boolean }>(
    `SELECT DISTINCT window_start // 1000000 AS t, (ticker LIKE 'C:%' OR ticker LIKE 'X:%') AS utc FROM ${raw} LIMIT ${limit + 1}`,
  );
  // More distinct starts than a day file could have.
  if (starts.length > limit) return 'minute';
  for (const { t, utc } of starts) {
    const ms = Number(t);
    const day = new Date(ms).toISOString().slice(0, 10);
    const candidates = utc
      ? [Date.parse(`${day}T00:00:00Z`)]
      : [startOfDay(day, 'America/New_York'), startOfDay(nextDay(day), 'America/New_York')];
    if (!candidates.includes(ms)) return 'minute';
  }
  return 'day';
}

function layoutOf(names: string[]): FlatFileLayout | undefined {
  if (new Set(names).size !== names.length) return undefined;
  for (const layout of Object.keys(FLAT_FILE_LAYOUTS) as FlatFileLayout[]) {
    const allowed: readonly string[] = FLAT_FILE_LAYOUTS[layout];
    if (!names.every((n) => allowed.includes(n))) continue;
    if (!FLAT_FILE_REQUIRED[layout].every((c) => names.includes(c))) continue;
    if (
      layout !== 'aggregates' &&
      !names.includes('sip_timestamp') &&
      !names.includes('participant_timestamp')
    )
      continue;
    return layout;
  }
  return undefined;
}

function resolutionFromPath(file: string): 'day' | 'minute' | undefined {
  const name = file.toLowerCase();
  if (/minute/.test(name)) return 'minute';
  if (/day|daily/.test(basename(name)) || /day_aggs/.test(name)) return 'day';
  return undefined;
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function reference(ticker: string, sink: RowSink): void {
  if (ticker.startsWith('O:')) {
    const c = parseOptionTicker(ticker);
    if (!c) return;
    sink.contract({
      ticker,
      underlying_ticker: c.underlying,
      contract_type: c.right,
      exercise_style: defaultExerciseStyle(c.underlying),
      expiration_date: isoDate(c.expiry),
      strike_price: c.strikeThousandths / 1000,
      shares_per_contract: 100,
      primary_exchange: null,
    });
    return;
  }
  const row = tickerRowFor(ticker);
  // Only the known ETFs are classified; a flat file does not say what other stock tickers are.
  if (row) sink.ticker({ ...row, type: row.type === 'CS' ? null : row.type });
}
