import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringifyJson } from '../../core/json.js';
import { parseJsonRecords, recordRows, writeRecordRows } from '../ingest/json.js';
import { type BulkTable, readStaged } from '../ingest/staging.js';
import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import type { SqlValue } from '../store/store.js';
import { dayStartMs } from '../validate.js';
import { type CoverageKind, type DayRange, isLiveKind, isRecordKind, recordCoverage } from './coverage.js';

/**
 * Writes what was fetched from upstream for one ticker, kind and range of days into the store's own
 * tables, in one transaction with its coverage: the range's stored rows are replaced by the fetched
 * ones (so a refresh takes corrections), or, on failure, nothing changes.
 */

type Json = Record<string, unknown>;

/** What {@link storeFetched} is given. */
export interface Fetched {
  ticker: string;
  kind: CoverageKind;
  range: DayRange;
  /** The market's time zone, whose days `range` counts. */
  tz: string;
  /** Every page's body, in order. */
  pages: readonly Json[];
  /** When the first page was asked for (Unix ms). */
  fetchedAt: number;
  /** The first market day whose session had not ended at `fetchedAt`: days before it are final. */
  today: string;
}

const results = (pages: readonly Json[]): Json[] =>
  pages.flatMap((p) => (Array.isArray(p.results) ? (p.results as Json[]) : []));

/** A number or integer field, or null (written as an empty staged field). */
const num = (v: unknown): string => (typeof v === 'number' || typeof v === 'bigint' ? String(v) : '');
const list = (v: unknown): string => (Array.isArray(v) && v.length > 0 ? v.map(String).join(',') : '');
const text = (v: unknown): string => (typeof v === 'string' ? v.replace(/[\t\n\r]/g, ' ') : '');

/** Staged lines of a table from the fetched records (column order of `BULK_COLUMNS`). */
function lines(f: Fetched): { table: BulkTable; lines: string[] } | undefined {
  const t = f.ticker;
  if (f.kind.startsWith('bars:')) {
    const resolution = f.kind.slice(5);
    return {
      table: 'bars',
      lines: results(f.pages).map(
        (b) =>
          // Index bars carry no volume.
          `${t}\t${resolution}\t${num(b.t)}\t${num(b.o)}\t${num(b.h)}\t${num(b.l)}\t${num(b.c)}\t${num(b.v) || '0'}\t${num(b.vw)}\t${num(b.n)}`,
      ),
    };
  }
  // Crypto ticks carry no sequence number: their order in the answer stands in for one.
  if (f.kind === 'trades') {
    return {
      table: 'trades',
      lines: results(f.pages).map(
        (r, i) =>
          `${t}\t${num(r.sip_timestamp)}\t${num(r.participant_timestamp)}\t${num(r.sequence_number) || i}\t${num(r.price)}\t${num(r.size)}\t${num(r.exchange)}\t${list(r.conditions)}\t${text(r.id)}\t${num(r.tape)}\t${num(r.correction)}\t${num(r.trf_id)}\t${num(r.trf_timestamp)}`,
      ),
    };
  }
  if (f.kind === 'quotes') {
    return {
      table: 'quotes',
      lines: results(f.pages).map(
        (r, i) =>
          `${t}\t${num(r.sip_timestamp)}\t${num(r.participant_timestamp)}\t${num(r.sequence_number) || i}\t${num(r.bid_price)}\t${num(r.bid_size)}\t${num(r.bid_exchange)}\t${num(r.ask_price)}\t${num(r.ask_size)}\t${num(r.ask_exchange)}\t${list(r.conditions)}\t${list(r.indicators)}\t${num(r.tape)}`,
      ),
    };
  }
  return undefined;
}

/**
 * The statement that removes the stored rows of a ticker, kind and range of days (in `tz`); for a kind
 * of record, the records stored under the ticker.
 */
export function coveredRows(f: Pick<Fetched, 'ticker' | 'kind' | 'range' | 'tz'>): {
  sql: string;
  params: SqlValue[];
} {
  // Ranges reach far in time (splits: every day); rows are never stored out there.
  const from = f.range.first < '1900-01-01' ? -(2 ** 53) : dayStartMs(f.range.first, f.tz, 0);
  const to = f.range.last > '2999-12-31' ? 2 ** 53 : dayStartMs(f.range.last, f.tz, 1);
  if (f.kind.startsWith('bars:')) {
    return {
      sql: 'DELETE FROM bars WHERE ticker = $1 AND resolution = $2 AND t >= $3 AND t < $4',
      params: [f.ticker, f.kind.slice(5), from, to],
    };
  }
  if (f.kind === 'splits') return { sql: 'DELETE FROM splits WHERE ticker = $1', params: [f.ticker] };
  // Records are replaced by id (a news article of several tickers is stored once, under its first).
  if (isRecordKind(f.kind)) {
    return {
      sql: 'DELETE FROM reference_records WHERE kind = $1 AND ticker = $2',
      params: [f.kind, f.ticker],
    };
  }
  const ns = 1_000_000n;
  return {
    sql: `DELETE FROM ${f.kind} WHERE ticker = $1 AND sip_timestamp >= $2 AND sip_timestamp < $3`,
    params: [f.ticker, BigInt(from) * ns, BigInt(to) * ns],
  };
}

/** Stores a complete fetch with its coverage, in one transaction; returns the rows written. */
export async function storeFetched(store: Store, f: Fetched): Promise<number> {
  const staged = lines(f);
  const kind = f.kind;
  const file = `upstream ${kind} of ${f.ticker}`;
  // A live record is the answer itself; its request id is set afresh for each answer from it.
  const live = isLiveKind(kind) ? { ...f.pages[0], request_id: '' } : undefined;
  const recordRowsOf =
    isRecordKind(kind) && !isLiveKind(kind)
      ? recordRows(
          f.pages
            .filter((p) => (Array.isArray(p.results) ? p.results.length > 0 : typeof p.results === 'object'))
            .flatMap((p) => parseJsonRecords(stringifyJson(p), file)),
          file,
          kind,
        )
      : undefined;
  let dir: string | undefined;
  try {
    let source: string | undefined;
    if (staged && staged.lines.length > 0) {
      dir = mkdtempSync(join(tmpdir(), 'mdq-upstream-'));
      const path = join(dir, `${staged.table}.tsv`);
      const fd = openSync(path, 'w');
      try {
        writeSync(fd, `${staged.lines.join('\n')}\n`);
      } finally {
        closeSync(fd);
      }
      source = readStaged(path, staged.table);
    }
    const remove = coveredRows(f);
    await store.transaction(async () => {
      // Splits and live records are replaced whole; other records may be shared with other tickers.
      if (!isRecordKind(kind) || kind === 'splits' || isLiveKind(kind))
        await store.run(remove.sql, remove.params);
      if (live !== undefined) {
        await store.run('INSERT INTO reference_records VALUES ($1, $2, $2, NULL, $3)', [
          kind,
          f.ticker,
          stringifyJson(live),
        ]);
      }
      if (staged && source) await store.run(`INSERT INTO ${staged.table} SELECT * FROM ${source}`);
      if (recordRowsOf) await writeRecordRows(store, recordRowsOf);
      await recordCoverage(store, f.ticker, f.kind, f.range, f.fetchedAt, f.today);
    });
    return (
      staged?.lines.length ?? (recordRowsOf ? recordRowsOf.splits.length + recordRowsOf.records.length : 0)
    );
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
