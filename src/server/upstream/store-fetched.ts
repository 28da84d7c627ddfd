import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringifyJson } from '../../core/json.js';
import { dayOf } from '../../dates/time-zone.js';
import { parseJsonRecords, recordRows, writeRecordRows } from '../ingest/json.js';
import { type BulkTable, readStaged } from '../ingest/staging.js';
import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import type { SqlValue } from '../store/store.js';
import { dayStartMs } from '../validate.js';
import {
  type CoverageKind,
  type CoverageSource,
  type DayRange,
  dayNumber,
  dayText,
  isLiveKind,
  isRecordKind,
  recordCoverage,
} from './coverage.js';

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
function lines(f: Fetched, keep: (ms: number) => boolean): { table: BulkTable; lines: string[] } | undefined {
  const t = f.ticker;
  const tickMs = (r: Json) => Number(r.sip_timestamp) / 1e6;
  if (f.kind.startsWith('bars:')) {
    const resolution = f.kind.slice(5);
    return {
      table: 'bars',
      lines: results(f.pages)
        .filter((b) => keep(Number(b.t)))
        .map(
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
      lines: results(f.pages)
        .filter((r) => keep(tickMs(r)))
        .map(
          (r, i) =>
            `${t}\t${num(r.sip_timestamp)}\t${num(r.participant_timestamp)}\t${num(r.sequence_number) || i}\t${num(r.price)}\t${num(r.size)}\t${num(r.exchange)}\t${list(r.conditions)}\t${text(r.id)}\t${num(r.tape)}\t${num(r.correction)}\t${num(r.trf_id)}\t${num(r.trf_timestamp)}`,
        ),
    };
  }
  if (f.kind === 'quotes') {
    return {
      table: 'quotes',
      lines: results(f.pages)
        .filter((r) => keep(tickMs(r)))
        .map(
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

/** The days of a range, in order. */
function daysOf(range: DayRange): string[] {
  const out: string[] = [];
  for (let n = dayNumber(range.first); n <= dayNumber(range.last); n++) out.push(dayText(n));
  return out;
}

/**
 * The days of a bar or tick fetch whose stored rows were ingested from files: days holding rows of the
 * ticker and kind that no coverage of the caching server's own (source `upstream`) accounts for.
 */
async function daysHoldingFiles(store: Store, f: Fetched): Promise<Set<string>> {
  const own = await store.all<{ a: string; b: string }>(
    `SELECT first_day::VARCHAR AS a, last_day::VARCHAR AS b FROM coverage
      WHERE ticker = $1 AND kind = $2 AND source = 'upstream' AND last_day >= $3::DATE AND first_day <= $4::DATE`,
    [f.ticker, f.kind, f.range.first, f.range.last],
  );
  const days = daysOf(f.range).filter((d) => !own.some((r) => r.a <= d && d <= r.b));
  if (days.length === 0) return new Set();
  const scale = f.kind.startsWith('bars:') ? 1n : 1_000_000n;
  // Day bounds are numbers this module computed: written into the text as a table of days.
  const table = days
    .map(
      (d, i) =>
        `(${i}, ${BigInt(dayStartMs(d, f.tz, 0)) * scale}, ${BigInt(dayStartMs(d, f.tz, 1)) * scale})`,
    )
    .join(', ');
  const [sql, params]: [string, SqlValue[]] = f.kind.startsWith('bars:')
    ? [
        `SELECT DISTINCT d.i FROM (VALUES ${table}) d(i, s, e) JOIN bars r
          ON r.ticker = $1 AND r.resolution = $2 AND r.t >= d.s AND r.t < d.e`,
        [f.ticker, f.kind.slice(5)],
      ]
    : [
        `SELECT DISTINCT d.i FROM (VALUES ${table}) d(i, s, e) JOIN ${f.kind === 'trades' ? 'trades' : 'quotes'} r
          ON r.ticker = $1 AND r.sip_timestamp >= d.s AND r.sip_timestamp < d.e`,
        [f.ticker],
      ];
  const rows = await store.all<{ i: number }>(sql, params);
  return new Set(rows.map((r) => days[Number(r.i)] as string));
}

/** Whether a ticker's stored records of a kind were ingested from files (stored, with no own coverage). */
async function recordsFromFiles(store: Store, f: Fetched): Promise<boolean> {
  const own = await store.all(
    "SELECT 1 FROM coverage WHERE ticker = $1 AND kind = $2 AND source = 'upstream' LIMIT 1",
    [f.ticker, f.kind],
  );
  if (own.length > 0) return false;
  const held =
    f.kind === 'splits'
      ? await store.all('SELECT 1 FROM splits WHERE ticker = $1 LIMIT 1', [f.ticker])
      : await store.all('SELECT 1 FROM reference_records WHERE kind = $1 AND ticker = $2 LIMIT 1', [
          f.kind,
          f.ticker,
        ]);
  return held.length > 0;
}

/** Runs of consecutive days with the same source, in order. */
function runs(range: DayRange, files: Set<string>): { range: DayRange; source: CoverageSource }[] {
  const out: { range: DayRange; source: CoverageSource }[] = [];
  for (const d of daysOf(range)) {
    const source: CoverageSource = files.has(d) ? 'files' : 'upstream';
    const last = out[out.length - 1];
    if (last && last.source === source) last.range.last = d;
    else out.push({ range: { first: d, last: d }, source });
  }
  return out;
}

/**
 * Stores a complete fetch with its coverage, in one transaction; returns the rows written. Rows
 * ingested from files are never replaced: days (or a ticker's records) that held them keep them, and
 * their coverage says so (source `files`).
 */
export async function storeFetched(store: Store, f: Fetched): Promise<number> {
  const kind = f.kind;
  const record = isRecordKind(kind);
  const live = isLiveKind(kind);
  const fromFiles = record && !live && (await recordsFromFiles(store, f));
  const files = record ? new Set<string>() : await daysHoldingFiles(store, f);
  const filesDay = (ms: number) => files.has(dayOf(ms, f.tz));
  const staged = lines(f, (ms) => files.size === 0 || !filesDay(ms));
  const file = `upstream ${kind} of ${f.ticker}`;
  // A live record is the answer itself; its request id is set afresh for each answer from it.
  const liveBody = live ? { ...f.pages[0], request_id: '' } : undefined;
  const recordRowsOf =
    record && !live && !fromFiles
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
    let staging: string | undefined;
    if (staged && staged.lines.length > 0) {
      dir = mkdtempSync(join(tmpdir(), 'mdq-upstream-'));
      const path = join(dir, `${staged.table}.tsv`);
      const fd = openSync(path, 'w');
      try {
        writeSync(fd, `${staged.lines.join('\n')}\n`);
      } finally {
        closeSync(fd);
      }
      staging = readStaged(path, staged.table);
    }
    await store.transaction(async () => {
      if (record) {
        // Splits and live records are replaced whole; other records may be shared with other tickers.
        if (!fromFiles && (kind === 'splits' || live)) {
          const remove = coveredRows(f);
          await store.run(remove.sql, remove.params);
        }
      } else {
        for (const run of runs(f.range, files)) {
          if (run.source === 'files') continue;
          const remove = coveredRows({ ...f, range: run.range });
          await store.run(remove.sql, remove.params);
        }
      }
      if (liveBody !== undefined) {
        await store.run(
          'INSERT INTO reference_records (kind, id, ticker, date, body) VALUES ($1, $2, $2, NULL, $3)',
          [kind, f.ticker, stringifyJson(liveBody)],
        );
      }
      if (staged && staging) await store.run(`INSERT INTO ${staged.table} SELECT * FROM ${staging}`);
      if (recordRowsOf) await writeRecordRows(store, recordRowsOf);
      if (record) {
        await recordCoverage(
          store,
          f.ticker,
          kind,
          f.range,
          f.fetchedAt,
          f.today,
          fromFiles ? 'files' : 'upstream',
        );
      } else {
        for (const run of runs(f.range, files))
          await recordCoverage(store, f.ticker, kind, run.range, f.fetchedAt, f.today, run.source);
      }
    });
    return (
      staged?.lines.length ?? (recordRowsOf ? recordRowsOf.splits.length + recordRowsOf.records.length : 0)
    );
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Stores a whole market's daily bars of one day (a grouped daily answer, unadjusted) with their
 * coverage, in one transaction: each ticker's bar as its own daily bar covered as `bars:day`, and the
 * market's day as `grouped`. A ticker that already holds a daily bar of the day keeps it (ingested
 * from files or stored before). Returns the bars written.
 */
export async function storeGrouped(store: Store, f: Fetched): Promise<number> {
  const day = f.range.first;
  const from = dayStartMs(day, f.tz, 0);
  const to = dayStartMs(day, f.tz, 1);
  const held = new Set(
    (
      await store.all<{ ticker: string }>(
        "SELECT DISTINCT ticker FROM bars WHERE resolution = 'day' AND t >= $1 AND t < $2",
        [from, to],
      )
    ).map((r) => r.ticker),
  );
  // The answer stamps each bar within its day; daily bars are stored at the day's start.
  const bars = results(f.pages).filter((b) => typeof b.T === 'string' && b.T !== '' && !held.has(b.T));
  const staged = bars.map(
    (b) =>
      `${text(b.T)}\tday\t${from}\t${num(b.o)}\t${num(b.h)}\t${num(b.l)}\t${num(b.c)}\t${num(b.v) || '0'}\t${num(b.vw)}\t${num(b.n)}`,
  );
  let dir: string | undefined;
  try {
    let staging: string | undefined;
    if (staged.length > 0) {
      dir = mkdtempSync(join(tmpdir(), 'mdq-upstream-'));
      const path = join(dir, 'bars.tsv');
      const fd = openSync(path, 'w');
      try {
        writeSync(fd, `${staged.join('\n')}\n`);
      } finally {
        closeSync(fd);
      }
      staging = readStaged(path, 'bars');
    }
    await store.transaction(async () => {
      if (staging) {
        await store.run(`INSERT INTO bars SELECT * FROM ${staging}`);
        await store.run(
          `INSERT INTO coverage (ticker, kind, first_day, last_day, fetched_at, final, source)
            SELECT DISTINCT ticker, 'bars:day', $1::DATE, $1::DATE, make_timestamp($2::BIGINT * 1000), $3, 'upstream'
            FROM ${staging}`,
          [day, f.fetchedAt, day < f.today] as SqlValue[],
        );
      }
      await recordCoverage(store, f.ticker, 'grouped', f.range, f.fetchedAt, f.today);
    });
    return staged.length;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
