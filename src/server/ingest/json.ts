import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { listValue } from '@duckdb/node-api';
import { AbortError } from '../../core/errors.js';
import type { DuckDbStore } from '../store/duckdb-store.js';
import type { SqlValue } from '../store/store.js';
import { IngestError, isIngestError } from './ingest-error.js';
import { RECORD_FIELD_COLUMNS, type RecordFields, recordFields } from './record-fields.js';
import type { IngestOptions, IngestSummary } from './run-jobs.js';
import { emptyCounts, type RowCounts } from './staging.js';
import { missingTickerField, TICKER_RECORD_COLUMNS, TICKER_RECORD_REQUIRED } from './ticker-records.js';

/**
 * Loading reference data that has no file source (dividends, news, financials, ticker details, related
 * companies, IPOs, splits, ticker events, the tickers listing) from saved API responses, so that the
 * server answers them.
 */

import { JSON_KIND_FIELDS, JSON_KINDS, type JsonKind } from './json-kinds.js';

export { JSON_KIND_FIELDS, JSON_KINDS, type JsonKind };

/** Options of {@link ingestJson}. */
export interface JsonIngestOptions extends IngestOptions {
  /** The kind of every file's records; inferred from each file's content when absent. */
  kind?: JsonKind;
}

/** What {@link ingestJson} did: the ingest summary, with the reference records written. */
export interface JsonIngestSummary extends IngestSummary {
  rows: RowCounts & { reference_records: number };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const has = (r: Json, ...keys: string[]) => keys.every((k) => Object.hasOwn(r, k));

/** The kind of a record from its fields, or undefined. */
function kindOfRecord(r: Json): JsonKind | undefined {
  if (has(r, 'execution_date') && (has(r, 'split_from') || has(r, 'split_to'))) return 'splits';
  if (has(r, 'ex_dividend_date') || (has(r, 'cash_amount') && has(r, 'ticker'))) return 'dividends';
  if (has(r, 'article_url') || (has(r, 'published_utc') && has(r, 'publisher'))) return 'news';
  if (isObject(r.financials)) return 'financials';
  if (has(r, 'ipo_status') || has(r, 'issuer_name')) return 'ipos';
  if (Array.isArray(r.events)) return 'ticker_events';
  if (has(r, 'ticker') && (has(r, 'market') || has(r, 'name') || has(r, 'locale'))) return 'ticker_details';
  return undefined;
}

/** A record and the kind the file's content gives it. */
export interface Found {
  kind: JsonKind | undefined;
  record: Json;
}

/**
 * The records of one response body: `results` (a list, or one object for details and events), or the
 * body itself as a record. A related-companies body (`{ticker | stock_symbol, results: [{ticker}]}`) is
 * one record.
 * @throws IngestError for a `results` list that holds anything but objects.
 */
function recordsOfBody(body: Json, file: string): Found[] {
  const results = body.results;
  // The service names the ticker asked about `ticker` or `stock_symbol`.
  const parent = text(body.ticker) ?? text(body.stock_symbol);
  if (
    parent !== null &&
    Array.isArray(results) &&
    results.every((r) => isObject(r) && Object.keys(r).every((k) => k === 'ticker'))
  ) {
    return [{ kind: 'related_companies', record: { ticker: parent, results } }];
  }
  if (Array.isArray(results)) {
    // Dropping what is not a record would load part of the file and say nothing of the rest.
    const stray = results.findIndex((r) => !isObject(r));
    if (stray >= 0) {
      const value = JSON.stringify(results[stray]) ?? String(results[stray]);
      throw new IngestError({ file }, `holds results[${stray}] = ${value.slice(0, 80)}, not a JSON object`);
    }
    // Details answer one object: ticker records listed in `results` are a page of the tickers listing.
    return results.map((record) => ({
      kind: kindOfRecord(record as Json) === 'ticker_details' ? 'tickers' : undefined,
      record: record as Json,
    }));
  }
  if (isObject(results)) return [{ kind: undefined, record: results }];
  return [{ kind: undefined, record: body }];
}

/**
 * The records a file holds: a response body (`{results: …}`), a list of pages (bodies) or of records,
 * or ndjson (one record or body per line).
 */
export function parseJsonRecords(text: string, file: string): Found[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new IngestError({ file }, 'is empty');
  let values: unknown[];
  const beyond = new BeyondDouble();
  try {
    const whole: unknown = JSON.parse(trimmed, beyond.reviver);
    values = Array.isArray(whole) ? whole : [whole];
    beyond.check(file, undefined);
  } catch (e) {
    if (isIngestError(e)) throw e;
    values = [];
    for (const [i, line] of trimmed.split(/\r?\n/).entries()) {
      if (line.trim() === '') continue;
      try {
        values.push(JSON.parse(line, beyond.reviver));
      } catch (e) {
        throw new IngestError({ file, line: i + 1 }, `is neither JSON nor ndjson (${(e as Error).message})`);
      }
      beyond.check(file, i + 1);
    }
  }
  const out: Found[] = [];
  for (const v of values) {
    if (!isObject(v)) throw new IngestError({ file }, 'holds a value that is not a JSON object');
    if (Object.hasOwn(v, 'results') || Object.hasOwn(v, 'status')) out.push(...recordsOfBody(v, file));
    else out.push({ kind: undefined, record: v });
  }
  return out;
}

/**
 * Notes a number beyond a double's range (`1e400`): JSON.parse makes it Infinity, which would be stored,
 * and answered, as null.
 */
class BeyondDouble {
  #field: string | undefined;
  readonly reviver = (key: string, value: unknown): unknown => {
    if (typeof value === 'number' && !Number.isFinite(value)) this.#field ??= key;
    return value;
  };

  /** Throws naming the field once such a number was met. */
  check(file: string, line: number | undefined): void {
    if (this.#field === undefined) return;
    throw new IngestError(
      line === undefined ? { file } : { file, line },
      `holds a number beyond the range of a double in field ${JSON.stringify(this.#field)}; it would be stored as null`,
    );
  }
}

/** One row of `reference_records`. */
export interface RecordRow {
  kind: JsonKind;
  id: string;
  ticker: string | null;
  date: string | null;
  body: string;
  /** The fields listings filter and sort on. */
  fields: RecordFields;
}

const digest = (s: string) => createHash('sha256').update(s).digest('hex');

/** The ticker and date a record is listed by, per kind. */
function keysOf(kind: JsonKind, r: Json): { ticker: string | null; date: string | null } {
  const firstTicker = Array.isArray(r.tickers) ? text(r.tickers[0]) : null;
  switch (kind) {
    case 'dividends':
      return { ticker: text(r.ticker), date: text(r.ex_dividend_date) };
    case 'news':
      return { ticker: firstTicker, date: text(r.published_utc) };
    case 'financials':
      return { ticker: firstTicker, date: text(r.filing_date) };
    case 'ipos':
      return { ticker: text(r.ticker), date: text(r.listing_date) };
    case 'ticker_events': {
      const events = Array.isArray(r.events) ? r.events.filter(isObject) : [];
      const newest = [...events].sort((a, b) => String(b.date).localeCompare(String(a.date)))[0];
      const change = newest && isObject(newest.ticker_change) ? text(newest.ticker_change.ticker) : null;
      return { ticker: change, date: newest ? text(newest.date) : null };
    }
    case 'ticker_details':
      return { ticker: text(r.ticker), date: text(r.list_date) };
    default:
      return { ticker: text(r.ticker), date: text(r.execution_date) };
  }
}

/**
 * The row of a record: its id is its own `id` (news, dividends, splits), the ticker for details,
 * related companies and events (one per ticker: a newer file replaces it), else a digest of its content.
 */
function rowOf(kind: JsonKind, r: Json): RecordRow {
  const body = JSON.stringify(r);
  const keys = keysOf(kind, r);
  const perTicker = kind === 'ticker_details' || kind === 'related_companies' || kind === 'ticker_events';
  const own = r.id === undefined || r.id === null ? null : text(String(r.id));
  const id = perTicker ? keys.ticker : own;
  return { kind, id: id ?? digest(body), ...keys, body, fields: recordFields(kind, r) };
}

/** A split record as the `splits` table stores it. */
function splitOf(r: Json, file: string): [string, string, number, number] {
  const ticker = text(r.ticker);
  const date = text(r.execution_date);
  const from = Number(r.split_from);
  const to = Number(r.split_to);
  if (!ticker || !date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !(from > 0) || !(to > 0)) {
    throw new IngestError(
      { file },
      `has a split without a ticker, an execution_date (YYYY-MM-DD) and positive split_from and split_to: ${JSON.stringify(r).slice(0, 200)}`,
    );
  }
  return [ticker, date, from, to];
}

/** A record of the tickers listing, checked for the fields its row needs. */
function tickerOf(r: Json, file: string): Json {
  const missing = missingTickerField(r);
  if (missing !== undefined) {
    throw new IngestError(
      { file },
      `has a ticker record without ${missing} (a ticker record needs ${TICKER_RECORD_REQUIRED.join(', ')}): ${JSON.stringify(r).slice(0, 200)}`,
    );
  }
  return r;
}

/**
 * The rows of reference records: splits for the `splits` table, records of the tickers listing for the
 * `tickers` table, the rest for `reference_records`.
 */
export interface RecordRows {
  records: RecordRow[];
  splits: [string, string, number, number][];
  tickers?: Json[];
}

/** The first field names of a record, for messages. */
const someFields = (r: Json) => {
  const keys = Object.keys(r);
  return `${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}` || 'no fields';
};

/**
 * The rows of `found` records, each of `kind` when given, else of the kind its file or fields give it.
 * @throws IngestError for a record whose kind cannot be told, one without a field its kind needs
 *   ({@link JSON_KIND_FIELDS}: a file of another kind given as this one), or a split without its fields.
 */
export function recordRows(found: readonly Found[], file: string, kind?: JsonKind): RecordRows {
  const out: RecordRows = { records: [], splits: [], tickers: [] };
  for (const [i, f] of found.entries()) {
    const k = kind ?? f.kind ?? kindOfRecord(f.record);
    if (!k) {
      throw new IngestError(
        { file },
        `holds a record whose kind cannot be told from its fields (${someFields(f.record)}); give --kind, one of ${JSON_KINDS.join(', ')}`,
      );
    }
    const needs = JSON_KIND_FIELDS[k];
    const missing = needs.filter((n) => f.record[n] === undefined || f.record[n] === null);
    if (missing.length > 0) {
      throw new IngestError(
        { file },
        `record ${i + 1} of ${found.length} (fields ${someFields(f.record)}) lacks ${missing.join(', ')}; ` +
          `a ${k} record needs ${needs.join(', ')}${kind ? ' (is --kind right?)' : ''}`,
      );
    }
    if (k === 'splits') out.splits.push(splitOf(f.record, file));
    else if (k === 'tickers') out.tickers?.push(tickerOf(f.record, file));
    else out.records.push(rowOf(k, f.record));
  }
  return out;
}

/** Reference records written by one statement: its parameters stay a few thousand. */
const RECORDS_PER_STATEMENT = 100;

/**
 * Writes reference rows, replacing stored records with the same kind and id and splits of the same
 * ticker and date. Run inside the caller's transaction.
 */
export async function writeRecordRows(store: DuckDbStore, rows: RecordRows): Promise<void> {
  const columns = ['kind', 'id', 'ticker', 'date', 'body', ...RECORD_FIELD_COLUMNS];
  const tuple = (i: number) => `(${columns.map((_, j) => `$${i * columns.length + j + 1}`).join(', ')})`;
  // A record listed twice is written once, as last listed (a statement may not replace a row twice).
  const records = [...new Map(rows.records.map((r) => [`${r.kind}\n${r.id}`, r])).values()];
  // Many records a statement: one statement a record takes seconds for a thousand.
  for (let i = 0; i < records.length; i += RECORDS_PER_STATEMENT) {
    const chunk = records.slice(i, i + RECORDS_PER_STATEMENT);
    await store.run(
      `INSERT OR REPLACE INTO reference_records (${columns.join(', ')}) VALUES ${chunk.map((_, j) => tuple(j)).join(', ')}`,
      chunk.flatMap((r) => [
        r.kind,
        r.id,
        r.ticker,
        r.date,
        r.body,
        ...RECORD_FIELD_COLUMNS.map((c) => {
          const value = r.fields[c];
          return Array.isArray(value) ? listValue(value) : value;
        }),
      ]) as SqlValue[],
    );
  }
  if (rows.tickers && rows.tickers.length > 0) await writeTickerRecords(store, rows.tickers);
  for (const s of rows.splits) {
    await store.run(
      `INSERT INTO splits VALUES ($1, $2::DATE, $3, $4) ON CONFLICT (ticker, execution_date)
        DO UPDATE SET split_from = excluded.split_from, split_to = excluded.split_to`,
      s,
    );
  }
}

/** Writes records of the tickers listing as rows of `tickers`, replacing the stored rows of their tickers. */
async function writeTickerRecords(store: DuckDbStore, records: readonly Json[]): Promise<void> {
  const columns = TICKER_RECORD_COLUMNS;
  const insert = `INSERT OR REPLACE INTO tickers (${columns.map((c) => c.name).join(', ')})
    VALUES (${columns.map((c, i) => `$${i + 1}${c.cast ? `::${c.cast}` : ''}`).join(', ')})`;
  for (const r of records)
    await store.run(
      insert,
      columns.map((c) => c.value(r)),
    );
}

/**
 * Loads saved API responses into the store, each file in one transaction: all its records land, or
 * none do. Content already ingested (by sha256) is skipped; a record already stored (same kind and
 * id) is replaced, so loading overlapping files twice leaves one copy. Splits go to the `splits` table
 * (used for adjusting bars too), everything else to `reference_records`.
 *
 * @throws IngestError for a file that cannot be read, is not JSON, or whose kind cannot be told (give
 *   `kind`); with `continueOnError` such files are listed in the summary instead.
 */
export async function ingestJson(
  store: DuckDbStore,
  files: readonly string[],
  options: JsonIngestOptions = {},
): Promise<JsonIngestSummary> {
  const started = performance.now();
  const summary: JsonIngestSummary = {
    filesSeen: files.length,
    filesIngested: 0,
    filesSkipped: 0,
    filesFailed: 0,
    unrecognised: [],
    passedOver: [],
    errors: [],
    rows: { ...emptyCounts(), reference_records: 0 },
    elapsedMs: 0,
  };
  let rows = 0;
  for (const [i, file] of files.entries()) {
    if (options.signal?.aborted)
      throw new AbortError('ingest was cancelled', { cause: options.signal.reason });
    try {
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (e) {
        throw new IngestError({ file }, `cannot read the file (${(e as Error).message})`, { cause: e });
      }
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      // Checked before the skip: content stored under another kind is refused as this one, not skipped.
      const found = parseJsonRecords(bytes.toString('utf8'), file);
      const rowsOf = recordRows(found, file, options.kind);
      if ((await store.all('SELECT 1 FROM ingested_files WHERE sha256 = $1', [sha256])).length > 0) {
        summary.filesSkipped++;
      } else {
        const { records, splits, tickers = [] } = rowsOf;
        await store.transaction(async () => {
          await writeRecordRows(store, rowsOf);
          await store.run('INSERT INTO ingested_files VALUES ($1, $2, $3, $4, now()::TIMESTAMP)', [
            sha256,
            file,
            `json:${options.kind ?? 'inferred'}`,
            BigInt(records.length + splits.length + tickers.length),
          ]);
        });
        summary.rows.reference_records += records.length;
        summary.rows.splits += splits.length;
        summary.rows.tickers += tickers.length;
        rows += records.length + splits.length + tickers.length;
        summary.filesIngested++;
      }
    } catch (e) {
      if (!options.continueOnError || !isIngestError(e)) throw e;
      summary.filesFailed++;
      summary.errors.push(e);
    }
    options.onProgress?.({ filesDone: i + 1, filesTotal: files.length, file, rows });
  }
  summary.elapsedMs = Math.round(performance.now() - started);
  return summary;
}
