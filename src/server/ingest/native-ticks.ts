import { writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import type { DuckDbStore } from '../store/duckdb-store.js';
import { IngestError, type IngestLocation } from './ingest-error.js';
import { exchangeSqlCase, saleConditions } from './lean-codes.js';
import { type LeanDate, wallClockOffsets } from './local-time.js';
import { entryDamage, gzipOfDeflated, inflateFailure, type RawZipEntry } from './zip-entries.js';

/**
 * Tick files are the bulk of the Lean folder (1.9 M SPY trades alone), so they are parsed by DuckDB's
 * CSV reader instead of JavaScript: the entry is written to a temporary file (still deflated, as gzip,
 * when it comes from a zip; else with each line's number as an extra first column), loaded into a
 * temporary table with explicit column types, checked, and turned into store rows by one `SELECT`.
 * Line numbers give the sequence numbers and the error locations.
 */

/** Rows that DuckDB builds itself from a file on disk; see `Staging.native`. */
export interface NativeSource {
  table: 'trades' | 'quotes' | 'bars';
  /** Loads and checks the staged file, returning a SELECT that yields the table's columns in order. */
  prepare(store: DuckDbStore): Promise<PreparedSource>;
  /** Drops what `prepare` created. */
  cleanup(store: DuckDbStore): Promise<void>;
}

/** A checked source: its SELECT, the time range it covers, and what it replaces in the store. */
export interface PreparedSource {
  /** Yields the table's columns in table order. */
  select: string;
  /** Time range of the rows (ns for ticks, ms for bars). */
  min: bigint;
  max: bigint;
  rows: number;
  /**
   * `ticker-range`: every stored row of `tickers` within [min, max] is replaced (a Lean tick file is
   * the whole record of its ticker's day); `ticker-ranges`: every stored row of each ticker within that
   * ticker's own range, as the query `sql` gives them (`ticker`, `lo`, `hi`), is replaced; `keys`:
   * stored rows with the same key are replaced.
   */
  replaces:
    | { kind: 'ticker-range'; tickers: string[] }
    | { kind: 'ticker-ranges'; sql: string }
    | { kind: 'keys' };
}

/** Lean's intraday kinds handled natively. */
export type NativeTickKind = 'trade-ticks' | 'quote-ticks' | 'fx-quote-ticks' | 'future-trade-ticks';

/** Lean's futures trade ticks: equity trade columns, prices as plain decimals, no exchange or condition. */
const FUTURE_TRADE_COLUMNS = [
  ['ms', 'DOUBLE'],
  ['price', 'DOUBLE'],
  ['size', 'DOUBLE'],
  ['exchange', 'VARCHAR'],
  ['cond', 'VARCHAR'],
  ['suspicious', 'VARCHAR'],
] as const;

const COLUMNS: Record<NativeTickKind, readonly (readonly [string, string])[]> = {
  'trade-ticks': [
    ['ms', 'DOUBLE'],
    ['price', 'DOUBLE'],
    ['size', 'DOUBLE'],
    ['exchange', 'VARCHAR'],
    ['cond', 'VARCHAR'],
    ['suspicious', 'VARCHAR'],
  ],
  'quote-ticks': [
    ['ms', 'DOUBLE'],
    ['bid_price', 'DOUBLE'],
    ['bid_size', 'DOUBLE'],
    ['ask_price', 'DOUBLE'],
    ['ask_size', 'DOUBLE'],
    ['exchange', 'VARCHAR'],
    ['cond', 'VARCHAR'],
    ['suspicious', 'VARCHAR'],
  ],
  'fx-quote-ticks': [
    ['ms', 'DOUBLE'],
    ['bid_price', 'DOUBLE'],
    ['ask_price', 'DOUBLE'],
  ],
  'future-trade-ticks': FUTURE_TRADE_COLUMNS,
};

let counter = 0;

/**
 * Stages one Lean CSV entry for DuckDB and returns the source that loads it. Empty lines are refused.
 *
 * - A deflated zip entry is written as a gzip member around its deflate stream, which DuckDB's CSV
 *   reader inflates itself; the rows get their line numbers from their order (a table keeps the order
 *   in which a single-threaded read inserted them). Meanwhile zlib inflates the entry off the main
 *   thread, only to look for an empty line, which the CSV reader would skip.
 * - Bytes (an entry of any other archive) are written as `<line>,<row>` lines.
 */
export function stageTickEntry(
  kind: NativeTickKind,
  path: string,
  content: Uint8Array | RawZipEntry,
  where: IngestLocation,
  ticker: string,
  date: LeanDate,
  tz: string,
): NativeSource {
  const raw = `temp.main.raw_ticks_${++counter}`;
  const table = kind === 'trade-ticks' || kind === 'future-trade-ticks' ? 'trades' : 'quotes';
  let staged: StagedTicks;
  if (content instanceof Uint8Array) {
    const numbered = numberLines(content);
    if (typeof numbered === 'number') throw new IngestError({ ...where, line: numbered }, 'empty line');
    writeFileSync(path, numbered);
    staged = { path, numbered: true };
  } else {
    const gz = `${path}.gz`;
    writeFileSync(gz, Buffer.concat(gzipOfDeflated(content)));
    staged = { path: gz, numbered: false, deflated: content };
  }
  return {
    table,
    prepare: (store) => prepare(store, kind, staged, raw, where, ticker, date, tz),
    cleanup: async (store) => {
      if (staged.numbered) await store.run(`DROP TABLE IF EXISTS ${raw}`);
      else {
        await store.run(`DROP VIEW IF EXISTS ${raw}`);
        await store.run(`DROP TABLE IF EXISTS ${raw}_rows`);
      }
    },
  };
}

/** A staged tick file: numbered lines, or a gzip member of a zip entry's deflate stream. */
type StagedTicks =
  | { path: string; numbered: true }
  | { path: string; numbered: false; deflated: RawZipEntry };

async function prepare(
  store: DuckDbStore,
  kind: NativeTickKind,
  staged: StagedTicks,
  raw: string,
  where: IngestLocation,
  ticker: string,
  date: LeanDate,
  tz: string,
): Promise<PreparedSource> {
  const columns = staged.numbered ? [['line', 'BIGINT'] as const, ...COLUMNS[kind]] : COLUMNS[kind];
  const types = columns.map(([name, type]) => `'${name}': '${type}'`).join(', ');
  const name = raw.slice('temp.main.'.length);
  const file = `'${staged.path.replaceAll("'", "''")}'${staged.numbered ? '' : ", compression = 'gzip'"}`;
  // Started before the load, so that both run at once: zlib inflates the entry to check it against
  // its declared size and CRC-32 (DuckDB's reader checks neither) and to find an empty line.
  const inspected = staged.numbered ? undefined : inspectDeflated(staged.deflated);
  const empty = async () => {
    const found = await inspected;
    if (found?.damage) throw new IngestError(where, found.damage);
    return found?.emptyLine;
  };
  try {
    await store.run(
      `CREATE OR REPLACE TEMP TABLE ${staged.numbered ? name : `${name}_rows`} AS SELECT * FROM read_csv(${file}, delim = ',', header = false,
         quote = '', escape = '', auto_detect = false, strict_mode = true, columns = {${types}})`,
    );
    if (!staged.numbered) {
      await store.run(
        `CREATE OR REPLACE TEMP VIEW ${name} AS SELECT rowid + 1 AS line, * FROM temp.main.${name}_rows`,
      );
    }
  } catch (e) {
    // Damage, then an empty line come first, as with numbered lines.
    const line = await empty();
    if (line !== undefined) throw new IngestError({ ...where, line }, 'empty line');
    throw csvError(e, where, staged.numbered);
  }
  const line = await empty();
  if (line !== undefined) throw new IngestError({ ...where, line }, 'empty line');
  const checks: [string, string][] = [
    ['ms IS NULL', 'time is missing'],
    [`NOT (ms >= 0 AND ms < ${DAY_MS_LIMIT})`, 'time is not milliseconds of the day (0 to 25 hours)'],
  ];
  let values: readonly string[];
  const trade = kind === 'trade-ticks' || kind === 'future-trade-ticks';
  if (kind === 'future-trade-ticks') {
    // Lean writes the market ("usa") as the exchange and no sale condition for futures.
    checks.push(["cond IS NOT NULL AND cond <> ''", 'sale condition is not empty']);
  }
  if (trade) {
    checks.push(["coalesce(suspicious, '') NOT IN ('0', '1')", 'suspicious flag is not 0 or 1']);
    checks.push(['price IS NULL OR size IS NULL', 'price or size is missing']);
    values = ['price', 'size'];
  } else {
    values =
      kind === 'quote-ticks'
        ? ['bid_price', 'bid_size', 'ask_price', 'ask_size']
        : ['bid_price', 'ask_price'];
    checks.push([values.map((c) => `${c} IS NULL`).join(' OR '), 'a price or size is missing']);
  }
  // NaN, infinities and negative prices or sizes are not market data (DuckDB reads "nan" and "inf").
  for (const c of values)
    checks.push([`NOT (isfinite(${c}) AND ${c} >= 0)`, `${c} is not a finite number ≥ 0`]);
  const sip = nanosSql(date, tz);
  // The time range is taken over valid times only (a CASE, which DuckDB evaluates only for the rows
  // it selects, unlike a FILTER): another time would not convert to nanoseconds.
  const validMs = `ms >= 0 AND ms < ${DAY_MS_LIMIT}`;
  const t = `'${ticker.replaceAll("'", "''")}'`;
  // One scan: per condition mask (a file holds a few dozen), the first line failing each check, the
  // first line, and the time range. The masks themselves are checked here, once each.
  const withCond = kind === 'trade-ticks' || kind === 'quote-ticks';
  const groups = await store.all<Record<string, bigint | string | null>>(
    `SELECT ${withCond ? 'cond, min(line) AS first, ' : ''}${checks.map(([bad], i) => `min(line) FILTER (WHERE ${bad}) AS bad${i}`).join(', ')},
       min(CASE WHEN ${validMs} THEN ${sip} END) AS lo, max(CASE WHEN ${validMs} THEN ${sip} END) AS hi, count(*) AS n
       FROM ${raw}${withCond ? ' GROUP BY cond' : ''}`,
  );
  let first: { line: number; reason: string } | undefined;
  const fail = (line: bigint | string | null | undefined, reason: string) => {
    if (line !== null && line !== undefined && (!first || Number(line) < first.line)) {
      first = { line: Number(line), reason };
    }
  };
  const range = { lo: null as bigint | null, hi: null as bigint | null, n: 0n };
  for (const g of groups) {
    if (withCond && !HEX_MASK.test((g.cond as string | null) ?? '')) {
      fail(g.first, 'condition is not a hexadecimal mask');
    }
    for (const [i, [, reason]] of checks.entries()) fail(g[`bad${i}`], reason);
    const lo = g.lo as bigint | null;
    const hi = g.hi as bigint | null;
    if (lo !== null && (range.lo === null || lo < range.lo)) range.lo = lo;
    if (hi !== null && (range.hi === null || hi > range.hi)) range.hi = hi;
    range.n += g.n as bigint;
  }
  if (first) throw new IngestError({ ...where, line: first.line }, first.reason);
  let select: string;
  if (kind === 'trade-ticks') {
    const values = groups.map(({ cond }) => {
      const list = saleConditions(cond as string);
      return `('${cond}', ${list ? `[${list.join(', ')}]` : 'NULL'}::INTEGER[])`;
    });
    select = `SELECT ${t}, ${sip}, NULL, r.line, r.price / 10000, r.size, ${exchangeSqlCase('r.exchange')}, m.conditions,
        NULL, NULL, NULL, NULL, NULL
      FROM ${raw} r LEFT JOIN (VALUES ${values.length > 0 ? values.join(', ') : '(NULL, NULL::INTEGER[])'}) m(cond, conditions)
        ON r.cond = m.cond ORDER BY r.line`;
  } else if (kind === 'future-trade-ticks') {
    select = `SELECT ${t}, ${sip}, NULL, line, price, size, NULL, NULL, NULL, NULL, NULL, NULL, NULL
      FROM ${raw} ORDER BY line`;
  } else if (kind === 'fx-quote-ticks') {
    select = `SELECT ${t}, ${sip}, NULL, line, bid_price, NULL, NULL, ask_price, NULL, NULL, NULL, NULL, NULL
      FROM ${raw} ORDER BY line`;
  } else {
    select = nbboSelect(raw, t, sip);
  }
  return {
    select,
    min: range.lo ?? 0n,
    max: range.hi ?? -1n,
    rows: Number(range.n),
    replaces: { kind: 'ticker-range', tickers: [ticker] },
  };
}

/**
 * Lean's NBBO ticks come as a bid-only row followed by an ask-only row with the same time; each such
 * pair becomes one quote, stamped and numbered by its first row. Any other row with a side becomes a
 * quote of its own, the missing side carried from the latest row that had it (NULL before the first).
 * Rows with neither side are dropped. Prices are deci-cents.
 */
function nbboSelect(raw: string, ticker: string, sip: string): string {
  const exchange = exchangeSqlCase('exchange');
  return `WITH k AS (
      SELECT line, ms, bid_price / 10000 AS bp, bid_size AS bs, ask_price / 10000 AS ap, ask_size AS az,
             (bid_price <> 0 OR bid_size <> 0) AS hb, (ask_price <> 0 OR ask_size <> 0) AS ha, ${exchange} AS ex
      FROM ${raw} WHERE bid_price <> 0 OR bid_size <> 0 OR ask_price <> 0 OR ask_size <> 0),
    w AS (
      SELECT *,
        hb AND NOT ha AND coalesce(lead(ha) OVER o AND NOT lead(hb) OVER o AND lead(ms) OVER o = ms, false) AS paired,
        ha AND NOT hb AND coalesce(lag(hb) OVER o AND NOT lag(ha) OVER o AND lag(ms) OVER o = ms, false) AS absorbed,
        lead(ap) OVER o AS nap, lead(az) OVER o AS naz, lead(ex) OVER o AS nex,
        last_value(CASE WHEN hb THEN {'p': bp, 's': bs, 'e': ex} END IGNORE NULLS)
          OVER (o ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cb,
        last_value(CASE WHEN ha THEN {'p': ap, 's': az, 'e': ex} END IGNORE NULLS)
          OVER (o ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS ca
      FROM k WINDOW o AS (ORDER BY line))
    SELECT ${ticker}, ${sip}, NULL, line,
      CASE WHEN paired THEN bp ELSE cb.p END, CASE WHEN paired THEN bs ELSE cb.s END, CASE WHEN paired THEN ex ELSE cb.e END,
      CASE WHEN paired THEN nap ELSE ca.p END, CASE WHEN paired THEN naz ELSE ca.s END, CASE WHEN paired THEN nex ELSE ca.e END,
      NULL, NULL, NULL
    FROM w WHERE NOT absorbed ORDER BY line`;
}

const inflate = promisify(inflateRaw);

/**
 * A zip entry inflated and checked: what is damaged (it does not inflate, or not to its declared size
 * and CRC-32), else the number of its first empty line, if any.
 */
async function inspectDeflated(entry: RawZipEntry): Promise<{ damage?: string; emptyLine?: number }> {
  let text: Buffer;
  try {
    text =
      entry.method === 8
        ? await inflate(entry.data, { maxOutputLength: Math.max(1, entry.size) })
        : Buffer.from(entry.data);
  } catch (e) {
    return { damage: inflateFailure(entry, e) };
  }
  const damage = entryDamage(entry, text);
  if (damage) return { damage };
  const emptyLine = firstEmptyLine(text);
  return emptyLine === undefined ? {} : { emptyLine };
}

/**
 * The number of the first empty line of a text (as `numberLines` counts: LF or CRLF, a final newline
 * optional), or undefined.
 */
function firstEmptyLine(text: Buffer): number | undefined {
  const candidates = [text.indexOf('\n\n'), text.indexOf('\n\r\n')].filter((i) => i >= 0);
  if (text[0] === NL || (text[0] === CR && text[1] === NL)) return 1;
  if (candidates.length === 0) return undefined;
  const at = Math.min(...candidates);
  // The empty line follows the newline at `at`: its number is one more than the lines up to there.
  let lines = 0;
  for (let i = text.indexOf(NL); i >= 0 && i <= at; i = text.indexOf(NL, i + 1)) lines++;
  return lines + 1;
}

/** Milliseconds of the longest local day (25 hours, when clocks go back): a tick's time is below. */
const DAY_MS_LIMIT = 25 * 3_600_000;

/** A sale-condition mask as Lean writes it. */
const HEX_MASK = /^[0-9a-fA-F]{1,8}$/;

const NL = 10;
const CR = 13;
const COMMA = 44;

/**
 * `data` with each line prefixed by its 1-based number and a comma, CRLF and a missing final newline
 * normalised to LF; or the number of the first empty line. Works on bytes, in one pass: a tick file is
 * tens of megabytes, and decoding it to a string and splitting it would mostly feed the garbage
 * collector.
 */
export function numberLines(data: Uint8Array): Uint8Array | number {
  const length = data.length;
  // Room for lines of 8 bytes or more with 7-digit numbers; grown when shorter lines need more.
  let out = new Uint8Array(length + (length >> 3) * 9 + 32);
  let o = 0;
  let n = 0;
  let start = 0;
  while (start < length) {
    let end = data.indexOf(NL, start);
    if (end === -1) end = length;
    const stop = end > start && data[end - 1] === CR ? end - 1 : end;
    n++;
    if (stop === start) return n;
    if (o + 18 + (stop - start) > out.length) {
      const grown = new Uint8Array(Math.max(out.length * 2, o + 18 + (stop - start)));
      grown.set(out.subarray(0, o));
      out = grown;
    }
    // The line number, most significant digit first.
    const width = n < 10 ? 1 : Math.floor(Math.log10(n)) + 1;
    let digits = n;
    for (let k = o + width - 1; k >= o; k--) {
      out[k] = 48 + (digits % 10);
      digits = Math.floor(digits / 10);
    }
    o += width;
    out[o++] = COMMA;
    out.set(data.subarray(start, stop), o);
    o += stop - start;
    out[o++] = NL;
    start = end + 1;
  }
  return out.subarray(0, o);
}

/** SQL for Unix ns of the row's `ms` (ms since midnight of `date`, wall clock in `tz`). */
function nanosSql(date: LeanDate, tz: string): string {
  const { naiveMidnight, changes } = wallClockOffsets(date, tz);
  // The offset only changes on a DST day; otherwise this is one constant.
  let offset = String(changes[0]?.offset ?? 0);
  for (const change of changes.slice(1)) {
    offset = `CASE WHEN ms < ${change.fromMs} THEN ${offset} ELSE ${change.offset} END`;
  }
  const whole = `(${naiveMidnight} + CAST(floor(ms) AS BIGINT) - (${offset}))`;
  return `(${whole} * 1000000 + CAST(round((ms - floor(ms)) * 1000000) AS BIGINT))`;
}

/** What each column type DuckDB reads a CSV field as allows, for error messages. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  BIGINT: 'an integer from -2^63 to 2^63 - 1',
  INTEGER: 'an integer from -2^31 to 2^31 - 1',
  DOUBLE: 'a number',
};

/**
 * DuckDB's CSV error as an `IngestError` at the line it names. With `numbered`, each line of the file
 * read starts with its source line number (and has one column more than the source).
 */
export function csvError(e: unknown, where: IngestLocation, numbered: boolean): IngestError {
  const message = e instanceof Error ? e.message : String(e);
  // A staged line starts with its source line number, so "Original Line" gives it exactly.
  const original = numbered ? /Original Line: (\d+),/.exec(message) : null;
  const reported = /CSV Error on Line: (\d+)/.exec(message);
  const line = original ? Number(original[1]) : reported ? Number(reported[1]) : undefined;
  const converting = /Error when converting column "([^"]+)"\. (.*)/.exec(message);
  const counts = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(message);
  const extra = numbered ? 1 : 0;
  const unconvertible =
    converting && /Could not convert string "([^"]*)" to '(\w+)'/.exec(converting[2] as string);
  const expected = Number(counts?.[1]) - extra;
  const found = Number(counts?.[2]) - extra;
  // UTF-16 text reads as fields full of NUL characters (DuckDB writes them `\0`).
  const nul = unconvertible && /\\0|\u0000/.test(unconvertible[1] as string);
  const detail = nul
    ? 'is not UTF-8 text'
    : unconvertible
      ? `${converting?.[1]} is not ${TYPE_NAMES[unconvertible[2] as string] ?? `a ${unconvertible[2]}`}: ${JSON.stringify(unconvertible[1])}`
      : converting
        ? `column ${converting[1]}: ${converting[2]}`
        : counts
          ? // The reader stops counting one past what it expects: a longer row reads as one column more.
            `expected ${expected} columns, found ${found > expected ? 'more' : found}`
          : /not utf-8 encoded/i.test(message)
            ? 'is not UTF-8 text'
            : (message.split('\n')[0] as string);
  return new IngestError(line === undefined ? where : { ...where, line }, detail, { cause: e });
}
