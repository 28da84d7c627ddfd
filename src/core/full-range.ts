/**
 * Full-range aggregate bars: a long range is split into chunks small enough for the service's
 * 50 000-bar cap, the chunks are fetched (in parallel under a semaphore, or one after another) and the
 * bars merged into one list: chronological, without duplicates, trimmed to the requested range.
 */

import { readRangeBound } from '../dates/range-bounds.js';
import {
  CHUNKED_TIMESPANS,
  chunkLengthOf,
  type DateRangeChunk,
  splitBounds,
} from '../dates/split-date-range.js';
import { isTimeZone } from '../dates/time-zone.js';
import {
  type BarColumns,
  barAt,
  ColumnsBuilder,
  concatColumns,
  reverseColumns,
  selectColumns,
  sortColumnsByT,
  toColumns,
} from './bar-columns.js';
import { AbortError, InvalidParameterError } from './errors.js';
import { onAbort } from './on-abort.js';
import type { DateInput } from './operation.js';
import { Semaphore } from './semaphore.js';

/** One aggregate bar; `t` is the start of its window in Unix ms. */
export interface FullRangeBar {
  t: number;
  [field: string]: unknown;
}

/** Progress of a full-range fetch, reported after every chunk. */
export interface FullRangeProgress {
  /** Chunks answered so far. */
  chunksDone: number;
  /** Chunks of the whole range. */
  chunksTotal: number;
  /**
   * Distinct bars inside the range received so far, counting those of each chunk's own range (a few
   * from outside it may join at the end): never decreasing, the last report is the result's length.
   */
  bars: number;
}

/** What the client asks of {@link fetchFullRange}. */
export interface FullRangeRequest {
  /** Start of the range as the caller gave it: a day (from its midnight in `timeZone`) or Unix ms. */
  from: DateInput | number;
  /** End of the range as the caller gave it: a day (up to the next midnight) or Unix ms (included). */
  to: DateInput | number;
  /** Bar timespan; picks the chunk length (see `splitDateRange`). */
  timespan: string;
  /** Bar multiplier (a positive integer); the chunk length does not depend on it. */
  multiplier: number;
  /** Order of the returned bars by `t`. */
  sort: 'asc' | 'desc';
  /** Fetch chunks concurrently (up to `maxConcurrentWorkers`) instead of one after another. */
  runParallel: boolean;
  /** Most chunks in flight at once when `runParallel`; a positive integer. */
  maxConcurrentWorkers: number;
  /** Smaller chunks, for symbols that would hit the 50 000-bar cap. */
  highVolatility: boolean;
  /** Log an `info` line for each chunk that had no data. */
  info: boolean;
  /** Log a `warn` line for a chunk answered with an unexpected status or that failed. */
  warnings: boolean;
  /** Time zone of the market's day boundaries (America/New_York for stocks and options). */
  timeZone: string;
  /** Where messages go; nothing is printed without it. */
  log?: (level: 'info' | 'warn', message: string) => void;
  /** Called after every chunk. */
  onProgress?: (progress: FullRangeProgress) => void;
  /** Cancels the fetch: the chunks in flight are aborted and the call rejects with `AbortError` at once. */
  signal?: AbortSignal;
}

/**
 * Fetches every bar of [fromMs, toMs] (inclusive ms bounds, as the API's path takes them), following
 * next_url itself. `signal` aborts once the chunk is no longer wanted (another chunk failed, or the
 * caller's signal aborted): pass it on to the requests so that they are cancelled, not waited for.
 * The bars come as objects (`bars`) or, for a columnar fetch, as columns decoded straight from the
 * response (`columns`).
 */
export type FetchChunk = (
  fromMs: number,
  toMs: number,
  signal: AbortSignal,
) => Promise<{ bars?: FullRangeBar[]; columns?: BarColumns; status?: string; response?: unknown }>;

/** Which chunk a full-range fetch failed on; attached to the rethrown error as `fullRangeChunk`. */
export interface FailedChunk {
  /** First instant of the chunk, Unix ms. */
  fromMs: number;
  /** Last instant of the chunk (inclusive), Unix ms. */
  toMs: number;
  /** Position of the chunk, oldest first. */
  index: number;
}

const FAILED_CHUNK = 'fullRangeChunk';
const QUIET_STATUSES = new Set([undefined, 'OK', 'DELAYED']);

/** The chunk a full-range fetch failed on, when `error` was rethrown by {@link fetchFullRange}. */
export function failedChunkOf(error: unknown): FailedChunk | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  return (error as Record<string, unknown>)[FAILED_CHUNK] as FailedChunk | undefined;
}

/**
 * Fetches every bar of a long range in chunks and merges them.
 *
 * Chunks come from the range split of `splitDateRange` (oldest first) and are requested as
 * `[start, end - 1]`. The result holds each `t` once, only bars inside the requested range (a bar at
 * exactly `from` included), in `sort` order. When two chunks answer the same `t`, the bar of the chunk
 * whose range contains `t` wins. A chunk without bars is not an error (an `info` line is logged).
 *
 * A failing chunk settles the call at once: it rejects with the chunk's own error (its class and message
 * unchanged; {@link failedChunkOf} tells which chunk failed, and a `warn` line is logged), no further
 * chunk is started and the chunks in flight are aborted through the signal {@link FetchChunk} receives,
 * so one slow chunk does not hold back the error of another. An aborted `signal` likewise rejects at once
 * with `AbortError` and aborts the chunks in flight.
 *
 * @throws InvalidParameterError for invalid bounds, timespan, time zone, multiplier or concurrency.
 */
export function fetchFullRange(req: FullRangeRequest, fetchChunk: FetchChunk): Promise<FullRangeBar[]> {
  return fetchMerged(req, fetchChunk, false) as Promise<FullRangeBar[]>;
}

/**
 * {@link fetchFullRange} returning the same bars as {@link BarColumns}: each chunk's bars are turned
 * into columns as it arrives, so the bar objects of the whole range are never held at once.
 */
export function fetchFullRangeColumns(req: FullRangeRequest, fetchChunk: FetchChunk): Promise<BarColumns> {
  return fetchMerged(req, fetchChunk, true) as Promise<BarColumns>;
}

async function fetchMerged(
  req: FullRangeRequest,
  fetchChunk: FetchChunk,
  columnar: boolean,
): Promise<FullRangeBar[] | BarColumns> {
  const chunks = planChunks(req);
  const semaphore = new Semaphore(req.runParallel ? req.maxConcurrentWorkers : 1, 'maxConcurrentWorkers');
  const { log, signal } = req;
  const info = (message: string) => req.info && log?.('info', message);
  const warn = (message: string) => req.warnings && log?.('warn', message);
  if (signal?.aborted) {
    throw new AbortError(`Full-range fetch aborted before its first chunk`, { cause: signal.reason });
  }

  const rangeStart = (chunks[0] as DateRangeChunk)[0];
  const rangeEnd = (chunks[chunks.length - 1] as DateRangeChunk)[1];
  // The bars each chunk answered inside the requested range, merged once every chunk is in.
  const received: (ChunkBars | undefined)[] = new Array(chunks.length);
  let barsOwned = 0;
  let chunksDone = 0;
  // Columnar: each chunk's columns join the result as soon as the chunks before it have, so the result
  // grows in place and the chunks' own columns are let go at once (see ColumnsBuilder).
  const builder = columnar ? new ColumnsBuilder(maxBarsIn(rangeStart, rangeEnd, req)) : undefined;
  let appended = 0;

  // Settling early (a chunk failed, or the caller aborted) aborts `stop`, which cancels every chunk still
  // in flight; whatever those chunks answer or throw afterwards is ignored.
  const stop = new AbortController();
  const chunkSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let settled = false;
  let rejectEarly: (error: unknown) => void = () => {};
  const early = new Promise<never>((_, reject) => {
    rejectEarly = reject;
  });
  const settle = (error: unknown) => {
    if (settled) return;
    settled = true;
    stop.abort(new AbortError('Full-range fetch settled before this chunk finished'));
    rejectEarly(error);
  };
  const fail = (error: unknown, chunk: FailedChunk) => {
    warn(
      `Chunk ${chunk.index + 1} of ${chunks.length} (${describe(chunk.fromMs, chunk.toMs + 1)}) failed: ${messageOf(error)}`,
    );
    if (typeof error === 'object' && error !== null && Object.isExtensible(error)) {
      Object.defineProperty(error, FAILED_CHUNK, { value: chunk, enumerable: false, configurable: true });
    }
    settle(error);
  };
  const unsubscribe = signal
    ? onAbort(signal, () =>
        settle(
          new AbortError(`Full-range fetch aborted after ${chunksDone} of ${chunks.length} chunks`, {
            cause: signal.reason,
          }),
        ),
      )
    : undefined;

  /** Files a chunk's own bars (see {@link ChunkBars}) and joins the columns ready to be appended. */
  const file = (index: number, own: readonly FullRangeBar[] | BarColumns, strays: FullRangeBar[]) => {
    received[index] = { own: columnar && Array.isArray(own) ? toColumns(own) : own, strays };
    if (builder) {
      for (let next = received[appended]; next; next = received[appended]) {
        builder.append(next.own as BarColumns);
        received[appended++] = { own: NO_COLUMNS, strays: next.strays };
      }
    }
    // Bars at distinct t of the chunk's own range: no other chunk's count holds them.
    barsOwned += own.length;
  };

  const keepColumns = (bars: BarColumns, index: number, lo: number, hi: number) => {
    const { t, length } = bars;
    const own: number[] = [];
    const strays: FullRangeBar[] = [];
    let malformed = 0;
    let increasing = true;
    let last = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < length; i++) {
      const ti = t[i] as number;
      if (!Number.isFinite(ti)) malformed++;
      else if (ti >= lo && ti < hi) {
        if (ti <= last) increasing = false;
        last = ti;
        own.push(i);
      } else if (ti >= rangeStart && ti < rangeEnd) strays.push(barAt(bars, i));
    }
    if (malformed > 0) warn(`${malformed} bars without a numeric t ignored in ${describe(lo, hi)}`);
    if (increasing && own.length === length) file(index, bars, strays);
    else file(index, selectColumns(bars, increasing ? own : firstIndexOfEachT(t, own)), strays);
  };

  const keep = (bars: readonly FullRangeBar[], index: number, lo: number, hi: number) => {
    let own: FullRangeBar[] = [];
    const strays: FullRangeBar[] = [];
    let malformed = 0;
    let increasing = true;
    let last = Number.NEGATIVE_INFINITY;
    for (const bar of bars) {
      const t = bar?.t;
      if (typeof t !== 'number' || !Number.isFinite(t)) malformed++;
      else if (t >= lo && t < hi) {
        if (t <= last) increasing = false;
        last = t;
        own.push(bar);
      } else if (t >= rangeStart && t < rangeEnd) strays.push(bar);
    }
    if (malformed > 0) warn(`${malformed} bars without a numeric t ignored in ${describe(lo, hi)}`);
    if (!increasing) own = firstOfEachT(own);
    file(index, own, strays);
  };

  const schedule = async () => {
    const running: Promise<void>[] = [];
    for (let index = 0; index < chunks.length; index++) {
      const release = await semaphore.acquire();
      if (settled) {
        release();
        break;
      }
      const [lo, hi] = chunks[index] as DateRangeChunk;
      running.push(
        (async () => {
          try {
            const result = await fetchChunk(lo, hi - 1, chunkSignal);
            if (settled) return;
            const bars = result.columns ?? result.bars ?? [];
            if (bars.length === 0) {
              if (QUIET_STATUSES.has(result.status)) info(`No data for ${describe(lo, hi)}`);
              else warn(`No data for ${describe(lo, hi)} (status ${result.status})`);
            }
            if (Array.isArray(bars)) keep(bars, index, lo, hi);
            else keepColumns(bars as BarColumns, index, lo, hi);
            chunksDone++;
            // The last report, with the merged count, follows the merge.
            if (chunksDone < chunks.length) {
              req.onProgress?.({ chunksDone, chunksTotal: chunks.length, bars: barsOwned });
            }
          } catch (error) {
            if (!settled) fail(error, { fromMs: lo, toMs: hi - 1, index });
          } finally {
            release();
          }
        })(),
      );
    }
    await Promise.all(running);
  };
  try {
    // `early` rejects the moment the fetch settles early; the chunks still in flight then finish in the
    // background (aborted), their outcome ignored.
    await Promise.race([schedule(), early]);
  } finally {
    unsubscribe?.();
  }

  if (builder) {
    const columns = withStrays(builder.finish(), received);
    req.onProgress?.({ chunksDone, chunksTotal: chunks.length, bars: columns.length });
    return req.sort === 'desc' ? reverseColumns(columns) : columns;
  }
  const bars = mergeChunks(received);
  req.onProgress?.({ chunksDone, chunksTotal: chunks.length, bars: bars.length });
  return req.sort === 'desc' ? bars.reverse() : bars;
}

/** A chunk's bars inside the requested range, split by whether their `t` is in the chunk's own range. */
interface ChunkBars {
  /**
   * At `t`s of the chunk's own range: ascending, each `t` once (the first the chunk answered); as
   * columns with `columnar`.
   */
  own: readonly FullRangeBar[] | BarColumns;
  /** Elsewhere in the requested range (a week or month window that starts before the chunk), as answered. */
  strays: readonly FullRangeBar[];
}

/**
 * The bars of every chunk in one ascending list, each `t` once. A chunk owns the `t`s of its own range:
 * its bars there come first, in chunk order, which is already the order of `t` since the ranges follow
 * each other. A stray bar fills a `t` no chunk owns a bar at, the earliest chunk's first.
 */
function mergeChunks(received: readonly (ChunkBars | undefined)[]): FullRangeBar[] {
  const out: FullRangeBar[] = [];
  for (const chunk of received) if (chunk) for (const bar of chunk.own as FullRangeBar[]) out.push(bar);
  if (!received.some((chunk) => chunk && chunk.strays.length > 0)) return out;
  const taken = new Set(out.map((bar) => bar.t));
  for (const chunk of received) {
    for (const bar of chunk?.strays ?? []) {
      if (taken.has(bar.t)) continue;
      taken.add(bar.t);
      out.push(bar);
    }
  }
  return out.sort((a, b) => a.t - b.t);
}

/**
 * The merged columns of every chunk's own bars, plus the stray bars at `t`s no chunk owns a bar at (the
 * earliest chunk's first), as {@link mergeChunks} has it.
 */
function withStrays(columns: BarColumns, received: readonly (ChunkBars | undefined)[]): BarColumns {
  const strays = received.flatMap((chunk) => (chunk ? [...chunk.strays] : []));
  if (strays.length === 0) return columns;
  const taken = new Set<number>(columns.t);
  const extra: FullRangeBar[] = [];
  for (const bar of strays) {
    if (taken.has(bar.t)) continue;
    taken.add(bar.t);
    extra.push(bar);
  }
  return sortColumnsByT(concatColumns([columns, toColumns(extra)]));
}

const NO_COLUMNS = toColumns([]);

/** Shortest window of each timespan in ms (a day of 23 hours at a DST change, a month of 28 days). */
const SHORTEST_WINDOW_MS: Readonly<Record<string, number>> = {
  second: 1000,
  minute: 60_000,
  min: 60_000,
  hour: 3_600_000,
  day: 23 * 3_600_000,
  week: 7 * 86_400_000 - 3_600_000,
  month: 28 * 86_400_000 - 3_600_000,
  quarter: 89 * 86_400_000 - 3_600_000,
  year: 365 * 86_400_000 - 3_600_000,
};

/** The most bars at distinct window starts that [start, end) has room for: what the columns reserve. */
function maxBarsIn(start: number, end: number, req: FullRangeRequest): number {
  const window = (SHORTEST_WINDOW_MS[req.timespan] ?? 1000) * req.multiplier;
  return Math.floor((end - start) / window) + 2;
}

/** `bars` ordered by `t` (a stable sort), keeping the first bar of each `t`. */
function firstOfEachT(bars: readonly FullRangeBar[]): FullRangeBar[] {
  const out: FullRangeBar[] = [];
  for (const bar of [...bars].sort((a, b) => a.t - b.t))
    if (out.length === 0 || bar.t > (out[out.length - 1] as FullRangeBar).t) out.push(bar);
  return out;
}

/** The indexes of `at`, ordered by their `t` (a stable sort), keeping the first of each `t`. */
function firstIndexOfEachT(t: Float64Array, at: readonly number[]): number[] {
  const out: number[] = [];
  for (const i of [...at].sort((a, b) => (t[a] as number) - (t[b] as number)))
    if (out.length === 0 || (t[i] as number) > (t[out[out.length - 1] as number] as number)) out.push(i);
  return out;
}

/** Validates the request and splits its range, oldest chunk first. */
function planChunks(req: FullRangeRequest): DateRangeChunk[] {
  const length = chunkLengthOf(req.timespan, req.highVolatility);
  if (!length) {
    throw new InvalidParameterError(
      'timespan',
      req.timespan,
      `expected one of ${CHUNKED_TIMESPANS.join(', ')}`,
    );
  }
  if (!Number.isSafeInteger(req.multiplier) || req.multiplier < 1) {
    throw new InvalidParameterError('multiplier', req.multiplier, 'expected a positive integer');
  }
  if (req.sort !== 'asc' && req.sort !== 'desc') {
    throw new InvalidParameterError('sort', req.sort, "expected 'asc' or 'desc'");
  }
  if (!Number.isSafeInteger(req.maxConcurrentWorkers) || req.maxConcurrentWorkers < 1) {
    throw new InvalidParameterError(
      'maxConcurrentWorkers',
      req.maxConcurrentWorkers,
      'expected a positive integer',
    );
  }
  if (!isTimeZone(req.timeZone)) {
    throw new InvalidParameterError('timeZone', req.timeZone, 'expected UTC or an IANA time zone name');
  }
  return splitBounds(readRangeBound(req.from, 'from'), readRangeBound(req.to, 'to'), length, req.timeZone, [
    'from',
    'to',
  ]);
}

/** `start..end` of a half-open chunk, as ISO instants (the end shown inclusive). */
function describe(lo: number, hi: number): string {
  return `${new Date(lo).toISOString()}..${new Date(hi - 1).toISOString()}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
