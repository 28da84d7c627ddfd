import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringifyJson } from '../../core/json.js';
import { dayOf } from '../../dates/time-zone.js';
import { parseJsonRecords, recordRows, writeRecordRows } from '../ingest/json.js';
import type { JsonKind } from '../ingest/json-kinds.js';
import { type BulkTable, readStaged } from '../ingest/staging.js';
import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import type { SqlValue } from '../store/store.js';
import { dayStartMs } from '../validate.js';
import type { Covered, Fetched, Statement, Storage } from './cached-kind.js';
import { type CoverageSource, type DayRange, dayNumber, dayText, recordCoverage } from './coverage.js';
import { storableRows } from './store-listing.js';

/**
 * The ways a kind's fetched pages are written into the store's own tables ({@link Storage}), each in
 * one transaction with its coverage. Rows ingested from files are never replaced: days (or a ticker's
 * records) that held them keep them, and their coverage says so (source `files`).
 */

type Json = Record<string, unknown>;

const results = (pages: readonly Json[]): Json[] =>
  pages.flatMap((p) => (Array.isArray(p.results) ? (p.results as Json[]) : []));

/** A number or integer field, or null (written as an empty staged field). */
export const num = (v: unknown): string => (typeof v === 'number' || typeof v === 'bigint' ? String(v) : '');
/** A list field, comma-separated, or null. */
export const list = (v: unknown): string => (Array.isArray(v) && v.length > 0 ? v.map(String).join(',') : '');
/** A text field on one staged line, or null. */
export const text = (v: unknown): string => (typeof v === 'string' ? v.replace(/[\t\n\r]/g, ' ') : '');

/** The bounds (Unix ms) of a range of days; ranges reach far in time (splits: every day), rows never do. */
function rangeMs(at: Covered, days?: DayClock): [number, number] {
  const start = (day: string, next: 0 | 1) =>
    days ? days.startMs(dayText(dayNumber(day) + next)) : dayStartMs(day, at.tz, next);
  const from = at.range.first < '1900-01-01' ? -(2 ** 53) : start(at.range.first, 0);
  const to = at.range.last > '2999-12-31' ? 2 ** 53 : start(at.range.last, 1);
  return [from, to];
}

/** Writes staged lines of a bulk table to a file of a fresh directory; returns the staging and the directory. */
function stage(table: BulkTable, lines: readonly string[]): { staging: string; dir: string } | undefined {
  if (lines.length === 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'mdq-upstream-'));
  const path = join(dir, `${table}.tsv`);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, `${lines.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
  return { staging: readStaged(path, table), dir };
}

/** How a kind of bulk rows (bars of a resolution, trades, quotes) is read and stored. */
export interface TableRows {
  table: BulkTable;
  /** The table's time column: bar starts in ms (`t`) or tick times in ns (`sip_timestamp`). */
  time: 't' | 'sip_timestamp';
  /** The bars' resolution, for the `bars` table. */
  resolution?: string;
  /** The time of a fetched record, Unix ms. */
  timeMs(record: Json): number;
  /** The staged line of a fetched record (column order of `BULK_COLUMNS`); `index` counts the fetch's records. */
  line(ticker: string, record: Json, index: number): string;
  /** The days its coverage counts, when not the market's midnight to midnight (see {@link DayClock}). */
  days?: DayClock;
}

/** Where a kind's covered days start and which day an instant belongs to (futures count trading dates). */
export interface DayClock {
  /** The first instant (Unix ms) of `day`; the day ends where the next one starts. */
  startMs(day: string): number;
  /** The day of an instant (Unix ms). */
  of(ms: number): string;
}

/**
 * Bulk rows stored by day: each fetched day's rows replace the stored ones, except on days that held
 * rows ingested from files.
 */
export function tableStorage(rows: TableRows): Storage {
  const scale = rows.time === 't' ? 1n : 1_000_000n;
  const clock = (tz: string): DayClock =>
    rows.days ?? { startMs: (d) => dayStartMs(d, tz, 0), of: (ms) => dayOf(ms, tz) };
  /** The condition on the ticker (and resolution) of rows of table alias `a`. */
  const where = (a = '') =>
    rows.resolution === undefined ? `${a}ticker = $1` : `${a}ticker = $1 AND ${a}resolution = $2`;
  const keys = (ticker: string): SqlValue[] =>
    rows.resolution === undefined ? [ticker] : [ticker, rows.resolution];
  const removal = (at: Covered): Statement => {
    const [from, to] = rangeMs(at, rows.days);
    const params = keys(at.ticker);
    const n = params.length;
    return {
      sql: `DELETE FROM ${rows.table} WHERE ${where()} AND ${rows.time} >= $${n + 1} AND ${rows.time} < $${n + 2}`,
      params: [...params, BigInt(from) * scale, BigInt(to) * scale],
    };
  };

  /**
   * The days of a fetch whose stored rows were ingested from files: days holding rows of the ticker
   * and kind that no coverage of the caching server's own (source `upstream`) accounts for.
   */
  const daysHoldingFiles = async (store: Store, f: Fetched): Promise<Set<string>> => {
    const own = await store.all<{ a: string; b: string }>(
      `SELECT first_day::VARCHAR AS a, last_day::VARCHAR AS b FROM coverage
        WHERE ticker = $1 AND kind = $2 AND source = 'upstream' AND last_day >= $3::DATE AND first_day <= $4::DATE`,
      [f.ticker, f.kind.name, f.range.first, f.range.last],
    );
    const days = daysOf(f.range).filter((d) => !own.some((r) => r.a <= d && d <= r.b));
    if (days.length === 0) return new Set();
    // Day bounds are numbers this module computed: written into the text as a table of days.
    const table = days
      .map(
        (d, i) =>
          `(${i}, ${BigInt(clock(f.tz).startMs(d)) * scale}, ${BigInt(clock(f.tz).startMs(dayText(dayNumber(d) + 1))) * scale})`,
      )
      .join(', ');
    const held = await store.all<{ i: number }>(
      `SELECT DISTINCT d.i FROM (VALUES ${table}) d(i, s, e) JOIN ${rows.table} r
        ON ${where('r.')} AND r.${rows.time} >= d.s AND r.${rows.time} < d.e`,
      keys(f.ticker),
    );
    return new Set(held.map((r) => days[Number(r.i)] as string));
  };

  return {
    remove: (at) => [removal(at)],
    size: (at) => rowsRemoved(removal(at)),
    async write(store, f) {
      const files = await daysHoldingFiles(store, f);
      const lines = results(f.pages)
        .filter((r) => files.size === 0 || !files.has(clock(f.tz).of(rows.timeMs(r))))
        .map((r, i) => rows.line(f.ticker, r, i));
      const staged = stage(rows.table, lines);
      try {
        await store.transaction(async () => {
          for (const run of runs(f.range, files)) {
            if (run.source === 'files') continue;
            const r = removal({ ...f, range: run.range });
            await store.run(r.sql, r.params);
          }
          // The staging holds the table's columns in its order, those a line leaves out NULL.
          if (staged) await store.run(`INSERT INTO ${rows.table} SELECT * FROM ${staged.staging}`);
          for (const run of runs(f.range, files))
            await recordCoverage(store, f.ticker, f.kind, run.range, f.fetchedAt, f.today, run.source);
        });
        return lines.length;
      } finally {
        if (staged) rmSync(staged.dir, { recursive: true, force: true });
      }
    },
  };
}

/** The count of the rows a `DELETE FROM … WHERE …` statement removes (a storage's `size`). */
function rowsRemoved(removal: Statement): Statement {
  return { sql: removal.sql.replace(/^DELETE FROM/, 'SELECT count(*) AS rows FROM'), params: removal.params };
}

/** Kinds fetched as one record of a ticker (or id) asked for. */
const ONE_PER_TICKER: ReadonlySet<JsonKind> = new Set(['related_companies', 'ticker_events']);

/**
 * A ticker's reference records of a kind, stored by the path of `mdq ingest json`: splits in their own
 * table, replaced whole; other records by id, as one record (a news article of several tickers) may be
 * listed under several. A ticker whose records were ingested from files keeps them.
 */
export function recordStorage(kind: JsonKind): Storage {
  const removal = (at: Covered): Statement =>
    kind === 'splits'
      ? { sql: 'DELETE FROM splits WHERE ticker = $1', params: [at.ticker] }
      : { sql: 'DELETE FROM reference_records WHERE kind = $1 AND ticker = $2', params: [kind, at.ticker] };

  /** Whether the ticker's stored records were ingested from files (stored, with no own coverage). */
  const fromFiles = async (store: Store, f: Fetched): Promise<boolean> => {
    const own = await store.all(
      "SELECT 1 FROM coverage WHERE ticker = $1 AND kind = $2 AND source = 'upstream' LIMIT 1",
      [f.ticker, f.kind.name],
    );
    if (own.length > 0) return false;
    const held =
      kind === 'splits'
        ? await store.all('SELECT 1 FROM splits WHERE ticker = $1 LIMIT 1', [f.ticker])
        : await store.all('SELECT 1 FROM reference_records WHERE kind = $1 AND ticker = $2 LIMIT 1', [
            kind,
            f.ticker,
          ]);
    return held.length > 0;
  };

  return {
    remove: (at) => [removal(at)],
    size: (at) => rowsRemoved(removal(at)),
    async write(store, f) {
      const files = await fromFiles(store, f);
      const file = `upstream ${kind} of ${f.ticker}`;
      const rows = files
        ? undefined
        : storableRows(() =>
            recordRows(
              f.pages
                // A ticker's related companies are one record, however few: none is an answer too.
                .filter((p) =>
                  Array.isArray(p.results)
                    ? p.results.length > 0 || kind === 'related_companies'
                    : typeof p.results === 'object',
                )
                .flatMap((p) => parseJsonRecords(stringifyJson(p), file)),
              file,
              kind,
            ),
          );
      // A ticker's one record is stored under what was asked: events asked by an earlier symbol, a
      // CUSIP or a FIGI would otherwise be stored under the company's latest symbol.
      if (rows && ONE_PER_TICKER.has(kind))
        rows.records = rows.records.map((r) => ({ ...r, id: f.ticker, ticker: f.ticker }));
      await store.transaction(async () => {
        if (rows) {
          if (kind === 'splits') {
            const r = removal(f);
            await store.run(r.sql, r.params);
          }
          await writeRecordRows(store, rows);
        }
        await recordCoverage(
          store,
          f.ticker,
          f.kind,
          f.range,
          f.fetchedAt,
          f.today,
          files ? 'files' : 'upstream',
        );
      });
      return rows ? rows.splits.length + rows.records.length : 0;
    },
  };
}

/**
 * A ticker's current state (its snapshot, last trade or quote) stored as the answer that brought it,
 * under its kind's name and the ticker; its request id, when it has one, is set afresh for each answer
 * from it.
 */
export function answerStorage(kind: string): Storage {
  const removal = (at: Covered): Statement => ({
    sql: 'DELETE FROM reference_records WHERE kind = $1 AND ticker = $2',
    params: [kind, at.ticker],
  });
  return {
    remove: (at) => [removal(at)],
    size: (at) => ({
      sql: 'SELECT count(*) AS rows, sum(strlen(body)) AS bytes FROM reference_records WHERE kind = $1 AND ticker = $2',
      params: [kind, at.ticker],
    }),
    async write(store, f) {
      await store.transaction(() => writeAnswer(store, kind, f));
      return 0;
    },
  };
}

/**
 * Writes the answer of a fetch (its one page) under `kind` and its ticker, with its coverage, replacing
 * the one stored; run inside a transaction.
 */
export async function writeAnswer(store: Store, kind: string, f: Fetched): Promise<void> {
  const page = f.pages[0] ?? {};
  const body = 'request_id' in page ? { ...page, request_id: '' } : page;
  await store.run('DELETE FROM reference_records WHERE kind = $1 AND ticker = $2', [kind, f.ticker]);
  await store.run(
    'INSERT INTO reference_records (kind, id, ticker, date, body) VALUES ($1, $2, $2, NULL, $3)',
    [kind, f.ticker, stringifyJson(body)],
  );
  await recordCoverage(
    store,
    f.ticker,
    f.kind,
    f.range,
    f.fetchedAt,
    f.today,
    'upstream',
    f.settled === true,
  );
}

/** The days of a range, in order. */
function daysOf(range: DayRange): string[] {
  const out: string[] = [];
  for (let n = dayNumber(range.first); n <= dayNumber(range.last); n++) out.push(dayText(n));
  return out;
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
 * A whole market's daily bars of one day (a grouped daily answer, unadjusted), covered under the
 * market's ticker pattern: each ticker's bar is stored as its own daily bar, covered as `bars:day`. A
 * ticker that already holds a daily bar of the day keeps it (ingested from files or stored before). The
 * market's day owns no rows of its own: its tickers' bars are removed with their own coverage.
 */
export const groupedStorage: Storage = {
  remove: () => [],
  async write(store, f) {
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
    const lines = bars.map(
      (b) =>
        `${text(b.T)}\tday\t${from}\t${num(b.o)}\t${num(b.h)}\t${num(b.l)}\t${num(b.c)}\t${num(b.v) || '0'}\t${num(b.vw)}\t${num(b.n)}`,
    );
    const staged = stage('bars', lines);
    try {
      await store.transaction(async () => {
        if (staged) {
          await store.run(`INSERT INTO bars SELECT * FROM ${staged.staging}`);
          await store.run(
            `INSERT INTO coverage (ticker, kind, first_day, last_day, fetched_at, final, source)
              SELECT DISTINCT ticker, 'bars:day', $1::DATE, $1::DATE, make_timestamp($2::BIGINT * 1000), $3, 'upstream'
              FROM ${staged.staging}`,
            [day, f.fetchedAt, day < f.today] as SqlValue[],
          );
        }
        await recordCoverage(store, f.ticker, f.kind, f.range, f.fetchedAt, f.today);
      });
      return lines.length;
    } finally {
      if (staged) rmSync(staged.dir, { recursive: true, force: true });
    }
  },
};
