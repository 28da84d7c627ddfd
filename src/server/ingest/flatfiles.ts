import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { startOfDay } from '../../dates/time-zone.js';
import type { Store } from '../store/store.js';
import { splitCsvLine } from './csv-fields.js';
import { IngestError, RowProblem } from './ingest-error.js';
import { eachLine } from './lines.js';
import { isoDate } from './local-time.js';
import { defaultExerciseStyle, parseOptionTicker } from './option-ticker.js';
import { tickerRowFor } from './reference.js';
import type { BarRow } from './rows.js';
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

function fail(reason: string): never {
  throw new RowProblem(reason);
}

/**
 * Ingests the provider's bulk CSV files (`.csv` or gzip-compressed `.csv.gz`, with a header row): day
 * and minute aggregates, trades and quotes of any asset class, times in Unix ns. The layout is read
 * from the header (`FLAT_FILE_LAYOUTS`). Each file is one transaction and is skipped when its content
 * was ingested before.
 *
 * @throws IngestError naming `file:line` for a bad header or malformed row (unless `continueOnError`).
 */
export async function ingestFlatFiles(
  store: Store,
  files: readonly string[],
  options: FlatFileOptions = {},
): Promise<IngestSummary> {
  const jobs: IngestJob[] = files.map((path) => ({
    path,
    kind: 'flatfiles',
    parse: (bytes, sink) => parseFlatFile(path, bytes, sink, options.resolution),
  }));
  return runIngestJobs(store, jobs, [], options);
}

/** Parses one flat file into `sink`. */
export function parseFlatFile(
  file: string,
  bytes: Uint8Array,
  sink: RowSink,
  resolution?: 'day' | 'minute',
): FlatFileLayout {
  let data = bytes;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      data = gunzipSync(bytes);
    } catch (e) {
      throw new IngestError({ file }, `not a readable gzip file (${(e as Error).message})`, { cause: e });
    }
  }
  const text = new TextDecoder().decode(data);
  let layout: FlatFileLayout | undefined;
  let index: Record<string, number> = {};
  const known = resolution ?? resolutionFromPath(file);
  const bars: { row: BarRow; line: number }[] = [];
  const seen = new Set<string>();
  let current = 0;
  try {
    eachLine(text, (line, n) => {
      current = n;
      if (n === 1) {
        const names = line
          .replace(/^\uFEFF/, '')
          .split(',')
          .map((s) => s.trim().toLowerCase());
        layout = layoutOf(names);
        if (!layout) {
          fail(
            `unknown header ${JSON.stringify(line)}; expected the columns of aggregates (${FLAT_FILE_LAYOUTS.aggregates.join(',')}), trades or quotes`,
          );
        }
        index = Object.fromEntries(names.map((name, i) => [name, i]));
        return;
      }
      if (line === '') fail('empty line');
      const f = splitCsvLine(line);
      if (!f) fail('unclosed quote');
      if (f.length !== Object.keys(index).length) {
        fail(`expected ${Object.keys(index).length} columns, found ${f.length}`);
      }
      // Columns a layout may lack read as empty.
      const get = (name: string): string => {
        const i = index[name];
        return i === undefined ? '' : (f[i] as string);
      };
      const ticker = get('ticker');
      if (ticker === '') fail('ticker is empty');
      if (!seen.has(ticker)) {
        seen.add(ticker);
        reference(ticker, sink);
      }
      if (layout === 'aggregates') {
        const windowStart = int(get('window_start'), 'window_start');
        const row: BarRow = {
          ticker,
          resolution: known ?? 'minute',
          t: Number(windowStart / 1_000_000n),
          o: float(get('open'), 'open'),
          h: float(get('high'), 'high'),
          l: float(get('low'), 'low'),
          c: float(get('close'), 'close'),
          v: float(get('volume'), 'volume'),
          vw: null,
          n: optInt(get('transactions'), 'transactions'),
        };
        // Without a known resolution the rows wait until the whole file has been seen.
        if (known) sink.bar(row);
        else bars.push({ row, line: n });
      } else if (layout === 'trades') {
        const participant = optBig(get('participant_timestamp'), 'participant_timestamp');
        sink.trade({
          ticker,
          sip_timestamp: tickTime(get('sip_timestamp'), participant),
          participant_timestamp: participant,
          sequence_number: sequence(get('sequence_number'), n),
          price: float(get('price'), 'price'),
          size: float(get('size'), 'size'),
          exchange: optInt(get('exchange'), 'exchange'),
          conditions: intList(get('conditions'), 'conditions'),
          id: get('id') === '' ? null : get('id'),
          tape: optInt(get('tape'), 'tape'),
          correction: optInt(get('correction'), 'correction'),
          trf_id: optInt(get('trf_id'), 'trf_id'),
          trf_timestamp: optBig(get('trf_timestamp'), 'trf_timestamp'),
        });
      } else {
        const participant = optBig(get('participant_timestamp'), 'participant_timestamp');
        sink.quote({
          ticker,
          sip_timestamp: tickTime(get('sip_timestamp'), participant),
          participant_timestamp: participant,
          sequence_number: sequence(get('sequence_number'), n),
          bid_price: optFloat(get('bid_price'), 'bid_price'),
          bid_size: optFloat(get('bid_size'), 'bid_size'),
          bid_exchange: optInt(get('bid_exchange'), 'bid_exchange'),
          ask_price: optFloat(get('ask_price'), 'ask_price'),
          ask_size: optFloat(get('ask_size'), 'ask_size'),
          ask_exchange: optInt(get('ask_exchange'), 'ask_exchange'),
          conditions: intList(get('conditions'), 'conditions'),
          indicators: intList(get('indicators'), 'indicators'),
          tape: optInt(get('tape'), 'tape'),
        });
      }
    });
  } catch (e) {
    if (e instanceof RowProblem) throw new IngestError({ file, line: current }, e.message);
    throw e;
  }
  if (!layout) throw new IngestError({ file }, 'the file is empty (no header row)');
  if (layout === 'aggregates' && !known) {
    const res = inferResolution(bars.map((b) => b.row));
    for (const { row, line } of bars) {
      try {
        sink.bar({ ...row, resolution: res });
      } catch (e) {
        if (e instanceof RowProblem) throw new IngestError({ file, line }, e.message);
        throw e;
      }
    }
  }
  return layout;
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

/** Day bars start at midnight of the market's zone; any other start means minute bars. */
function inferResolution(rows: readonly BarRow[]): 'day' | 'minute' {
  if (rows.length === 0) return 'day';
  for (const r of rows) {
    const utc = r.ticker.startsWith('C:') || r.ticker.startsWith('X:');
    const day = new Date(r.t).toISOString().slice(0, 10);
    const candidates = utc
      ? [Date.parse(`${day}T00:00:00Z`)]
      : [startOfDay(day, 'America/New_York'), startOfDay(nextDay(day), 'America/New_York')];
    if (!candidates.includes(r.t)) return 'minute';
  }
  return 'day';
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

/**
 * The tick's time: `sip_timestamp`, else (crypto and forex files have none) `participant_timestamp`.
 */
function tickTime(sip: string, participant: bigint | null): bigint {
  if (sip !== '') return int(sip, 'sip_timestamp');
  if (participant === null) fail('sip_timestamp and participant_timestamp are both empty');
  return participant;
}

/** `sequence_number`, else (files without one) the line number, which keeps ticks apart. */
function sequence(s: string, line: number): bigint {
  return s === '' ? BigInt(line) : int(s, 'sequence_number');
}

function int(s: string, what: string): bigint {
  if (!/^-?\d+$/.test(s)) fail(`${what} is not an integer: ${JSON.stringify(s)}`);
  return BigInt(s);
}

function optBig(s: string, what: string): bigint | null {
  return s === '' ? null : int(s, what);
}

function optInt(s: string, what: string): number | null {
  if (s === '') return null;
  const v = Number(int(s, what));
  if (!Number.isSafeInteger(v)) fail(`${what} is out of range: ${s}`);
  return v;
}

function float(s: string, what: string): number {
  const v = s === '' ? Number.NaN : Number(s);
  if (!Number.isFinite(v)) fail(`${what} is not a number: ${JSON.stringify(s)}`);
  return v;
}

function optFloat(s: string, what: string): number | null {
  return s === '' ? null : float(s, what);
}

/** `12,37` (or `[12, 37]`) → [12, 37]; empty → null. */
function intList(s: string, what: string): number[] | null {
  const body = s.trim().replace(/^\[/, '').replace(/\]$/, '').trim();
  if (body === '') return null;
  return body.split(',').map((x) => {
    const v = x.trim();
    if (!/^-?\d+$/.test(v)) fail(`${what} is not a list of integers: ${JSON.stringify(s)}`);
    return Number(v);
  });
}
