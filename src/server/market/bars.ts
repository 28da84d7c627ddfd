import { listValue } from '@duckdb/node-api';
import { NEW_YORK } from '../../dates/time-zone.js';
import { nyseHolidays } from '../calendar/index.js';
import type { Columns, SqlDialect, SqlValue, Store } from '../store/store.js';
import { storeFact } from './facts.js';
import { type SplitStep, splitFactorAt, splitFactorSql, splitSteps, splitStepsOf } from './splits.js';
import { marketTimeZone, type OffsetSegment, offsetSegments, offsetSql } from './time-zone.js';
import {
  type BarTimespan,
  DAY_MS,
  firstInstantFrom,
  INTRADAY_MS,
  isIntraday,
  localDay,
  localMidnight,
  localToUtc,
  periodIndex,
  periodStartDay,
} from './windows.js';

/** One aggregate bar as the service writes it; `t` is the window start in Unix ms. */
export interface Bar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  /** Volume-weighted average price (see {@link queryBars} for where it comes from). */
  vw?: number;
  /** Number of trades, when the source knows it (ticks, or bars that carry a count). */
  n?: number;
}

/** What {@link queryBars} aggregates. */
export interface BarQuery {
  ticker: string;
  /** Window size in timespans. */
  multiplier: number;
  timespan: BarTimespan;
  /** Start of the range (Unix ms); snapped back to the start of its timespan (its minute, its day…). */
  fromMs: number;
  /** End of the range, inclusive (Unix ms); snapped forward to the end of its timespan. */
  toMs: number;
  /** Apply splits (prices ÷ cumulative ratio of later splits, volume ×). */
  adjusted: boolean;
  sort: 'asc' | 'desc';
  /** Number of base aggregates (seconds, minutes or days) scanned, as the service counts `limit`. */
  limit: number;
}

/** One page of bars. */
export interface BarPage {
  bars: Bar[];
  /** Base aggregates the bars were built from. */
  queryCount: number;
  /** Ascending pages: the next page starts at this window start (Unix ms). */
  nextFromMs?: number;
  /** Descending pages: the next page ends with the window holding this instant (Unix ms). */
  nextToMs?: number;
}

type SourceKind = 'trades' | 'second' | 'minute' | 'hour' | 'day';

/**
 * Sources usable for a timespan, finest first: each day takes all its values from the finest source
 * that has it (ticks, then second, minute and hour bars, then a stored daily bar).
 */
function sourcesFor(timespan: BarTimespan): SourceKind[] {
  if (timespan === 'second') return ['trades', 'second'];
  if (timespan === 'minute') return ['trades', 'second', 'minute'];
  if (timespan === 'hour') return ['trades', 'second', 'minute', 'hour'];
  return ['trades', 'second', 'minute', 'hour', 'day'];
}

/** One base aggregate, as the SQL selects it (a type, not an interface, to be read as `Columns`). */
type BaseRow = {
  bkey: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  pv: number;
  n: number | null;
  alln: boolean;
};

/**
 * Orders the ticks inside one base aggregate (never longer than a day). The sequence number is unique
 * and increasing per ticker per day, as the service defines it, and unlike the timestamp it has no ties
 * (the vendor's ticks share milliseconds).
 */
const TICK_ORDER = 'sequence_number';

/**
 * Aggregate bars of a ticker, built in DuckDB from the finest data stored for each day: trade ticks,
 * then second, minute and hour bars, then (day and longer windows) the stored daily bars. A day takes
 * every value from one source, never prices from one and volume or counts from another.
 *
 * - Windows: second/minute/hour windows are aligned on the wall clock of the market's time zone
 *   (multiples of the window length since 1970-01-01 local time, so 5-minute bars start at :00, :05…;
 *   windows that divide an hour are keyed on the UTC clock, which is the same alignment, so the hour
 *   repeated when DST ends gives two bars);
 *   day windows start at local midnight, weeks on Sunday, months, quarters and years on their first day.
 *   Multi-day (and multi-week, -month…) windows are counted from the period holding `fromMs`.
 *   The range is snapped out to whole timespans (its first and last minute, day…), not windows: a
 *   window that starts before it or ends after it holds only its part inside, `t` still its start.
 * - Day bars of US stocks: `o/h/l/c` from the regular session (09:30 to the close) when anything traded
 *   in it, else from the whole day; `v`, `vw` and `n` from the whole day, extended hours included (the
 *   service's rule: extended-hours trades update a day's volume, not its prices).
 * - `vw`: Σ price × size over ticks; over bars, their stored `vw`, else their typical price
 *   (h + l + c) / 3, volume weighted (an approximation, as the sources lack it).
 * - `n`: the trade count from ticks, or the stored count; omitted when unknown.
 * - `limit` counts base aggregates (seconds for second windows, minutes for minute and hour windows,
 *   days otherwise); a window cut by the limit is dropped and the page says where the next one starts.
 */
export async function queryBars(store: Store, q: BarQuery): Promise<BarPage> {
  const tz = marketTimeZone(q.ticker);
  const frame = barFrame(tz, q.timespan, q.multiplier, q.fromMs, q.toMs);
  if (!frame) return { bars: [], queryCount: 0 };
  const { intraday, utcKeys, baseMs, size, anchor, segments, rangeStart, rangeEnd, keys } = frame;
  const steps = q.adjusted ? await splitSteps(store, q.ticker) : [];
  const choice = await sourceChoice(store, q.ticker, frame);
  const sql = barBaseSql(store.dialect, {
    frame,
    tickers: 'one',
    choice,
    session: sessionSplitOf(q.ticker, q.timespan),
    steps,
    sort: q.sort,
    limit: true,
  });

  const windowOf = intraday
    ? (bkey: number) => Math.floor((bkey * baseMs) / size)
    : (bkey: number) =>
        anchor + Math.floor((periodIndex(q.timespan, bkey) - anchor) / q.multiplier) * q.multiplier;
  // A window much longer than the range starts far outside it, where the zone may have had another
  // offset: its start is converted with the offsets of its own time.
  const segmentsAt = (localMs: number) =>
    localMs > rangeStart - DAY_MS && localMs < rangeEnd + DAY_MS
      ? segments
      : offsetSegments(tz, pin(localMs, EARLIEST_MS) - 2 * DAY_MS, pin(localMs, LATEST_MS) + 2 * DAY_MS);
  const windowStart = utcKeys
    ? (w: number) => w * size
    : intraday
      ? (w: number) => localToUtc(segmentsAt(w * size), w * size)
      : (w: number) => localMidnight(tz, periodStartDay(q.timespan, w));
  // Where the keys of intraday window `w` begin, as an instant (a page's cursor): the first instant the
  // wall clock shows its start (its start itself on the UTC clock).
  const windowFrom = utcKeys ? (w: number) => w * size : (w: number) => firstInstantFrom(segments, w * size);

  // A page reads only the days its limit can reach: a span of whole local days from the start of the
  // range (its end, descending), grown until it holds one base aggregate past the limit or covers the
  // range. Whole days hold whole base aggregates and the per-day choice of source sees whole days.
  const firstDay = localDay(segments, rangeStart);
  const days = localDay(segments, rangeEnd - 1) - firstDay + 1;
  const spanOf = (spanDays: number): [number, number] =>
    spanDays >= days
      ? [rangeStart, rangeEnd]
      : q.sort === 'desc'
        ? [Math.max(rangeStart, localToUtc(segments, (firstDay + days - spanDays) * DAY_MS)), rangeEnd]
        : [rangeStart, Math.min(rangeEnd, localToUtc(segments, (firstDay + spanDays) * DAY_MS))];
  let scan = q.limit;
  const barKinds = barKindsFor(q.timespan);
  let spanDays = await firstSpanDays(store, q.ticker, choice.only, barKinds, [rangeStart, rangeEnd], {
    days,
    baseMs,
    rows: scan + 1,
  });
  for (;;) {
    const [lo, hi] = spanOf(spanDays);
    const base = await store.columns<BaseRow>(sql, [
      ...baseParams(q.ticker, [lo, hi], keys),
      BigInt(scan + 1),
    ]);
    // One row past the limit tells whether there is a next page, and where it starts.
    const cut = base.bkey.length > scan;
    if (!cut && spanDays < days) {
      // The span ran out before the limit did: widen it by what its density says is missing.
      const wanted = Math.ceil((spanDays * SPAN_MARGIN * (scan + 1)) / Math.max(1, base.bkey.length));
      spanDays = Math.min(days, Math.max(2 * spanDays, wanted));
      continue;
    }
    const runs = windowRuns(base.bkey, cut ? scan : base.bkey.length, windowOf);
    if (!cut) return page(base, runs, windowStart);
    const extraWindow = windowOf(base.bkey[scan] as number);
    if (runs.length > 0 && runs[runs.length - 1]?.window === extraWindow) {
      // A window cut by the limit is dropped; the next page starts with it.
      runs.pop();
      if (runs.length === 0) {
        // A single window holds more base aggregates than the limit: scan it whole rather than loop.
        scan *= 4;
        continue;
      }
    }
    const p = page(base, runs, windowStart);
    // The next page starts (ascending) or ends (descending) with the cut window: its first or its last
    // timespan.
    if (q.sort === 'asc') p.nextFromMs = intraday ? windowFrom(extraWindow) : windowStart(extraWindow);
    else
      p.nextToMs = intraday ? windowFrom(extraWindow + 1) - 1 : windowStart(extraWindow + q.multiplier) - 1;
    return p;
  }
}

/**
 * The windows of a bar query over one time zone, as its SQL reads them: the instants read, the base
 * aggregates (a second, a minute or a day each) and the keys that bound them.
 */
interface BarFrame {
  tz: string;
  timespan: BarTimespan;
  intraday: boolean;
  /** Windows that divide an hour, keyed on the UTC clock; longer intraday ones on the wall clock. */
  utcKeys: boolean;
  /** Length of a base aggregate (ms). */
  baseMs: number;
  /** Length of a window (ms), for intraday windows. */
  size: number;
  /** Day and longer windows: the period their windows are counted from. */
  anchor: number;
  /** The instants read, `[rangeStart, rangeEnd)` (Unix ms), which hold the range snapped out to whole timespans. */
  rangeStart: number;
  rangeEnd: number;
  /** The base keys of the range's first timespan and one past its last, which bound the query exactly. */
  keys: [number, number];
  /** The zone's offsets over the range, a day either side. */
  segments: readonly OffsetSegment[];
}

/** The frame of `multiplier` × `timespan` windows over `[fromMs, toMs]` in `tz`; undefined when empty. */
function barFrame(
  tz: string,
  timespan: BarTimespan,
  multiplier: number,
  fromMs: number,
  toMs: number,
): BarFrame | undefined {
  // Instants far outside any market data (or not numbers at all) are pinned to a span the calendar
  // arithmetic handles; nothing is stored out there anyway.
  const from = pin(fromMs, EARLIEST_MS);
  const to = pin(toMs, LATEST_MS);
  const intraday = isIntraday(timespan);
  const cover = offsetSegments(tz, from - 2 * DAY_MS, to + 2 * DAY_MS);
  const unit = INTRADAY_MS[timespan] ?? DAY_MS;
  const size = unit * multiplier;

  // Windows that divide an hour are the same on the UTC clock as on the market's (its offsets are whole
  // hours) and are keyed in UTC, which keeps the repeated hour of an autumn DST change two windows.
  // Longer intraday windows are counted from local midnight on the wall clock.
  const utcKeys = intraday && HOUR_MS % size === 0;
  const baseMs = timespan === 'second' ? 1000 : intraday ? 60_000 : DAY_MS;
  let rangeStart: number;
  let rangeEnd: number;
  let keys: [number, number];
  let anchor = 0;
  // The range is snapped out to whole timespans, as the service snaps `from` and `to`, not to whole
  // windows: the windows at its edges hold only their part inside it (a window of years holds the
  // range's data alone), and what a request reads is bounded by its range whatever the multiplier.
  if (utcKeys) {
    rangeStart = Math.floor(from / unit) * unit;
    rangeEnd = (Math.floor(to / unit) + 1) * unit;
    keys = [rangeStart / baseMs, rangeEnd / baseMs];
  } else if (intraday) {
    const startLocal = Math.floor((from + offsetAtMs(cover, from)) / unit) * unit;
    const endLocal = (Math.floor((to + offsetAtMs(cover, to)) / unit) + 1) * unit;
    // On the wall clock a window can hold instants on both sides of a change of offset (the hour the
    // clock repeats in autumn), so the instants read span every offset the zone has here.
    const offsets = cover.map((s) => s.offset);
    rangeStart = startLocal - Math.max(...offsets);
    rangeEnd = endLocal - Math.min(...offsets);
    keys = [startLocal / baseMs, endLocal / baseMs];
  } else {
    anchor = periodIndex(timespan, localDay(cover, from));
    const endIndex = periodIndex(timespan, localDay(cover, to)) + 1;
    rangeStart = localMidnight(tz, periodStartDay(timespan, anchor));
    rangeEnd = localMidnight(tz, periodStartDay(timespan, endIndex));
    keys = [periodStartDay(timespan, anchor), periodStartDay(timespan, endIndex)];
  }
  if (!(rangeStart < rangeEnd)) return undefined;
  const segments = offsetSegments(tz, rangeStart - DAY_MS, rangeEnd + DAY_MS);
  return { tz, timespan, intraday, utcKeys, baseMs, size, anchor, rangeStart, rangeEnd, keys, segments };
}

/** The stored bar resolutions usable for `timespan`, finest first. */
function barKindsFor(timespan: BarTimespan): SourceKind[] {
  return sourcesFor(timespan).filter((s) => s !== 'trades');
}

/** The resolution of stored bars that are a `timespan` query's base aggregates as they are. */
function baseKindOf(timespan: BarTimespan): 'second' | 'minute' {
  return timespan === 'second' ? 'second' : 'minute';
}

/** Whether `ticker`'s `timespan` bars take their prices from the regular session: day and longer, US stocks. */
function sessionSplitOf(ticker: string, timespan: BarTimespan): boolean {
  return !isIntraday(timespan) && regularSessionSplit(ticker);
}

/** Which sources a bar query reads, and how (see {@link sourceChoice}). */
interface SourceChoice {
  /** Only the ticks, only the stored bars, or both (each day then takes the finest that has it). */
  only: 'ticks' | 'bars' | 'both';
  /** Every day takes its base aggregates from one source: no choice to make per day. */
  single: boolean;
  /** The stored bars are base aggregates already: the query passes them through. */
  asStored: boolean;
}

/** Every source, the finest chosen per day in SQL: what a query over a list of tickers reads. */
const EVERY_SOURCE: SourceChoice = { only: 'both', single: false, asStored: false };

/**
 * The sources that answer `ticker` over `frame`, as far as a read-only store knows them (a writable
 * store reads every source): a query that can use only one source skips reading the other.
 */
async function sourceChoice(store: Store, ticker: string, frame: BarFrame): Promise<SourceChoice> {
  const { intraday, segments, rangeStart, rangeEnd, timespan } = frame;
  const only = intraday ? await tickCoverage(store, ticker, segments, rangeStart, rangeEnd) : 'both';
  const barKinds = barKindsFor(timespan);
  // With a single source, every day takes its base aggregates from it: no choice to make per day.
  const kinds =
    only === 'bars'
      ? (await storedKinds(store, ticker))?.filter((k) => (barKinds as string[]).includes(k))
      : undefined;
  const single = only === 'ticks' || kinds?.length === 1;
  // Bars stored at the base resolution, each at the start of its second or minute, are base aggregates
  // already (ingest keeps one bar per ticker, resolution and t): the query passes them through. Only
  // with keys on the UTC clock: on the local one, the hour repeated when DST ends holds two bars per key.
  const baseKind = baseKindOf(timespan);
  const asStored =
    frame.utcKeys &&
    kinds?.length === 1 &&
    kinds[0] === baseKind &&
    (await barsOnTheirStarts(store, ticker, baseKind, frame.baseMs));
  return { only, single, asStored };
}

/** What {@link barBaseSql} builds. */
interface BaseSql {
  frame: BarFrame;
  /** `one`: `$1` is a ticker; `list`: `$1` is a list of tickers, and each row names its ticker (`tk`). */
  tickers: 'one' | 'list';
  choice: SourceChoice;
  /** Day rows take their prices from the regular session (see {@link sessionSplitOf}). */
  session: boolean;
  /** Splits applied in the query (one ticker's). */
  steps: readonly SplitStep[];
  sort: 'asc' | 'desc';
  /** At most `$8` rows. */
  limit: boolean;
}

/**
 * The one query that reads bars' base aggregates (`BaseRow`s ordered by key, with `tk` for a list)
 * from the sources of `frame`'s timespan: trade ticks, then second, minute and hour bars, then stored
 * daily bars, each day of each ticker taking every value from the finest source that has it. Its
 * parameters are {@link baseParams}, then the limit when there is one. Only numbers and names computed
 * here enter the text.
 */
function barBaseSql(d: SqlDialect, spec: BaseSql): string {
  const { frame, choice, steps } = spec;
  const { intraday, utcKeys, baseMs, segments, rangeStart, rangeEnd } = frame;
  const sources = sourcesFor(frame.timespan);
  const rank = (s: SourceKind) => sources.indexOf(s);
  const barKinds = barKindsFor(frame.timespan);
  const baseKind = baseKindOf(frame.timespan);
  // A list's rows are keyed by ticker too.
  const list = spec.tickers === 'list';
  const per = list ? 'ticker, ' : '';
  const tickerIs = list ? d.inList('ticker', '$1') : 'ticker = $1';
  const keyOf = (column: string, scale: number) =>
    utcKeys
      ? d.intDiv(column, `${BigInt(baseMs) * BigInt(scale)}`)
      : d.intDiv(`${column} + ${offsetSql(segments, column, scale)}`, `${BigInt(baseMs) * BigInt(scale)}`);
  const dayOfKey = utcKeys
    ? d.intDiv(`k * ${baseMs} + ${offsetSql(segments, `k * ${baseMs}`)}`, `${DAY_MS}`)
    : intraday
      ? d.intDiv(`k * ${baseMs}`, `${DAY_MS}`)
      : 'k';
  // The subqueries name their columns apart from the stored ones (k, ko, kh…), as ClickHouse reads an
  // alias equal to a column name inside its own expression as the alias.
  const adjust = (column: string, op: '/' | '*', f: string) =>
    steps.length === 0 ? column : `${column} ${op} ${f}`;
  // A US stock's day takes its open, high, low and close from the regular session when anything traded
  // in it (extended-hours trades update only the volume), its volume, vw and count from the whole day.
  const session = spec.session ? sessionSql(d, segments, rangeStart, rangeEnd) : undefined;
  const price = (agg: string, inSession: string) => (session ? d.preferWhere(agg, inSession) : agg);
  const tickInSession = session ? session('sip_timestamp', 1_000_000, '1') : '';
  const barInSession = session ? session('t', 1, RESOLUTION_LENGTH_SQL) : '';
  const ticks = `
      SELECT ${per}${rank('trades')} AS rk, ${keyOf('sip_timestamp', 1_000_000)} AS k,
             ${price(d.argMin('price', TICK_ORDER), tickInSession)} AS ko,
             ${price('max(price)', tickInSession)} AS kh, ${price('min(price)', tickInSession)} AS kl,
             ${price(d.argMax('price', TICK_ORDER), tickInSession)} AS kc, sum(size) AS kv,
             sum(price * size) AS kpv, ${d.double('count(*)')} AS kn, 1 = 1 AS kall
        FROM trades WHERE ${tickerIs} AND sip_timestamp >= $2 AND sip_timestamp < $3
       GROUP BY ${per}k`;
  const stored = choice.asStored
    ? `
      SELECT ${per}${rank(baseKind)} AS rk, ${keyOf('t', 1)} AS k, o AS ko, h AS kh, l AS kl, c AS kc, v AS kv,
             coalesce(vw, (h + l + c) / 3) * v AS kpv, ${d.double('n')} AS kn, n IS NOT NULL AS kall
        FROM bars WHERE ${tickerIs} AND resolution = '${baseKind}' AND t >= $4 AND t < $5`
    : `
      SELECT ${per}CASE ${barKinds.map((k) => `WHEN resolution = '${k}' THEN ${rank(k)}`).join(' ')} END AS rk,
             ${keyOf('t', 1)} AS k, ${price(d.argMin('o', 't'), barInSession)} AS ko,
             ${price('max(h)', barInSession)} AS kh, ${price('min(l)', barInSession)} AS kl,
             ${price(d.argMax('c', 't'), barInSession)} AS kc,
             sum(v) AS kv, sum(coalesce(vw, (h + l + c) / 3) * v) AS kpv, ${d.double('sum(n)')} AS kn,
             count(n) = count(*) AS kall
        FROM bars WHERE ${tickerIs} AND resolution IN (${barKinds.map((k) => `'${k}'`).join(', ')})
         AND t >= $4 AND t < $5
       GROUP BY ${per}rk, k`;
  // Each source is reduced to base aggregates first; splits fall on day boundaries, so the factor is
  // constant within a base aggregate and applies to the few aggregated rows, not to every tick. A query
  // that needs one source reads only it.
  // Both range pairs stay bound when one source is left out: DuckDB wants every parameter used.
  const source =
    choice.only === 'ticks'
      ? `SELECT * FROM (${ticks}) WHERE $4 <= $5`
      : choice.only === 'bars'
        ? `SELECT * FROM (${stored}) WHERE $2 <= $3`
        : `${ticks} UNION ALL ${stored}`;
  const base = `SELECT *${steps.length === 0 ? '' : `, ${splitFactorSql(steps, dayOfKey)} AS f`} FROM (${source})
              WHERE k >= $6 AND k < $7`;
  const chosen = choice.single ? base : d.leastRankPer(base, `${per}${dayOfKey}`);
  return `
    SELECT ${list ? 'ch.ticker AS tk, ' : ''}${d.double('ch.k')} AS bkey, ${adjust('ch.ko', '/', 'ch.f')} AS o, ${adjust('ch.kh', '/', 'ch.f')} AS h,
           ${adjust('ch.kl', '/', 'ch.f')} AS l, ${adjust('ch.kc', '/', 'ch.f')} AS c, ${adjust('ch.kv', '*', 'ch.f')} AS v,
           ch.kpv AS pv, ch.kn AS n, ch.kall AS alln
      FROM (${chosen}) ch
     ORDER BY ${per.replace('ticker', 'ch.ticker')}ch.k ${spec.sort === 'desc' ? 'DESC' : 'ASC'}${spec.limit ? '\n     LIMIT $8' : ''}`;
}

/**
 * The parameters `$1`–`$7` of {@link barBaseSql}: the ticker or list of tickers, the instants
 * `[lo, hi)` read (as nanoseconds, then ms) and the keys that bound the windows.
 */
function baseParams(tickers: SqlValue, [lo, hi]: [number, number], keys: [number, number]): SqlValue[] {
  return [
    tickers,
    BigInt(lo) * 1_000_000n,
    BigInt(hi) * 1_000_000n,
    BigInt(lo),
    BigInt(hi),
    BigInt(keys[0]),
    BigInt(keys[1]),
  ];
}

const HOUR_MS = 3_600_000;

/** How much more than its share of the range's rows a page's first span takes (and a widened span). */
const SPAN_MARGIN = 1.25;

/**
 * The whole local days (of `days`) a page's first query reads: all of them when the range cannot hold
 * more than four pages' worth of base aggregates (`baseMs` long) or holds fewer than `rows` rows of
 * the sources that answer; else the share of its days that holds `rows` rows at the range's mean
 * density, with a margin. A base aggregate is made of one row or more, so at that density the share
 * holds `rows` base aggregates at most; a query that finds too few widens its span.
 */
async function firstSpanDays(
  store: Store,
  ticker: string,
  only: 'ticks' | 'bars' | 'both',
  barKinds: readonly string[],
  [start, end]: [number, number],
  { days, baseMs, rows }: { days: number; baseMs: number; rows: number },
): Promise<number> {
  if (days <= 2 || days * Math.ceil(DAY_MS / baseMs) <= 4 * rows) return days;
  const ns = [BigInt(start) * 1_000_000n, BigInt(end) * 1_000_000n];
  const ms = [BigInt(start), BigInt(end)];
  const ticks =
    'SELECT count(*) FROM trades WHERE ticker = $1 AND sip_timestamp >= $2 AND sip_timestamp < $3';
  const bars = (p: number) =>
    `SELECT count(*) FROM bars WHERE ticker = $1 AND resolution IN (${barKinds.map((k) => `'${k}'`).join(', ')})
        AND t >= $${p} AND t < $${p + 1}`;
  const [sql, params] =
    only === 'ticks'
      ? [ticks, ns]
      : only === 'bars'
        ? [bars(2), ms]
        : [`SELECT (${ticks}) + (${bars(4)})`, [...ns, ...ms]];
  const c = await store.columns<{ n: number }>(`SELECT ${store.dialect.double(`(${sql})`)} AS n`, [
    ticker,
    ...params,
  ]);
  const stored = c.n[0] ?? 0;
  if (stored < rows) return days;
  return Math.min(days, Math.max(1, Math.ceil((days * SPAN_MARGIN * rows) / stored)));
}

/** The UTC hours (Unix ms ÷ 1 hour) holding a trade of `ticker`, ascending (kept: `storeFact`). */
function tickHours(store: Store, ticker: string): Promise<readonly number[]> {
  return storeFact(store, `tick hours ${ticker}`, async () => {
    const c = await store.columns<{ h: number }>(
      `SELECT DISTINCT ${store.dialect.double(store.dialect.intDiv('sip_timestamp', '3600000000000'))} AS h
         FROM trades WHERE ticker = $1 ORDER BY h`,
      [ticker],
    );
    return c.h;
  });
}

/**
 * The resolutions of the bars stored for `ticker`, kept for a read-only store (`storeFact`); undefined
 * for a writable store, whose data may change between two queries.
 */
async function storedKinds(store: Store, ticker: string): Promise<readonly string[] | undefined> {
  if (!store.readOnly) return undefined;
  return storeFact(store, `bar resolutions ${ticker}`, async () => {
    const c = await store.columns<{ resolution: string }>(
      'SELECT DISTINCT resolution FROM bars WHERE ticker = $1',
      [ticker],
    );
    return c.resolution;
  });
}

/**
 * Whether every `resolution` bar of `ticker` starts on a multiple of `ms` (a second or a minute), so
 * that each is its own base aggregate; kept for a read-only store (`storeFact`).
 */
function barsOnTheirStarts(store: Store, ticker: string, resolution: string, ms: number): Promise<boolean> {
  return storeFact(store, `${resolution} bars on their starts ${ticker}`, async () => {
    const c = await store.columns<{ ok: boolean }>(
      `SELECT coalesce(${store.dialect.boolAnd('t % $2 = 0')}, 1 = 1) AS ok FROM bars WHERE ticker = $1 AND resolution = $3`,
      [ticker, BigInt(ms), resolution],
    );
    return c.ok[0] === true;
  });
}

/** Index of the first of the ascending `values` at or above `x`. */
function lowerBound(values: readonly number[], x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Which sources an intraday query over `[start, end)` needs, as far as a read-only store can tell
 * without reading them: `bars` when no trade falls in the range; `ticks` when every local day of the
 * range has a whole hour inside the range holding a trade (its stored bars would lose to its ticks);
 * else `both` (a writable store always answers `both`). The query then gives the same answer either way.
 */
export async function tickCoverage(
  store: Store,
  ticker: string,
  segments: readonly OffsetSegment[],
  start: number,
  end: number,
): Promise<'ticks' | 'bars' | 'both'> {
  if (!store.readOnly) return 'both';
  const hours = await tickHours(store, ticker);
  // Hours that overlap the range at all.
  const first = lowerBound(hours, Math.floor(start / HOUR_MS));
  if (first >= hours.length || (hours[first] as number) * HOUR_MS >= end) return 'bars';
  for (let day = localDay(segments, start); ; day++) {
    const dayStart = Math.max(start, localToUtc(segments, day * DAY_MS));
    if (dayStart >= end) return 'ticks';
    const dayEnd = Math.min(end, localToUtc(segments, (day + 1) * DAY_MS));
    // A whole hour [h, h + 1) inside [dayStart, dayEnd) that holds a trade.
    const h = hours[lowerBound(hours, Math.ceil(dayStart / HOUR_MS))];
    if (h === undefined || (h + 1) * HOUR_MS > dayEnd) return 'both';
  }
}

/** Bounds of the instants queries consider: 1800-01-01 and 2300-01-01 UTC. */
const EARLIEST_MS = Date.UTC(1800, 0, 1);
const LATEST_MS = Date.UTC(2300, 0, 1);

function pin(ms: number, fallback: number): number {
  if (Number.isNaN(ms)) return fallback;
  return Math.min(Math.max(ms, EARLIEST_MS), LATEST_MS);
}

function offsetAtMs(segments: readonly { from: number; offset: number }[], ms: number): number {
  let offset = (segments[0] as { offset: number }).offset;
  for (const s of segments) if (s.from <= ms) offset = s.offset;
  return offset;
}

/** The base aggregates `[start, end)` (row indices) that make up one window's bar. */
interface WindowRun {
  window: number;
  start: number;
  end: number;
}

/** Splits the first `count` rows (ordered by `bkey`) into runs of the same window. */
function windowRuns(
  bkeys: readonly number[],
  count: number,
  windowOf: (bkey: number) => number,
): WindowRun[] {
  const runs: WindowRun[] = [];
  let current: WindowRun | undefined;
  for (let i = 0; i < count; i++) {
    const w = windowOf(bkeys[i] as number);
    if (current?.window === w) current.end = i + 1;
    else {
      current = { window: w, start: i, end: i + 1 };
      runs.push(current);
    }
  }
  return runs;
}

function page(
  base: Columns<BaseRow>,
  runs: readonly WindowRun[],
  windowStart: (w: number) => number,
): BarPage {
  let queryCount = 0;
  const bars = runs.map((run) => {
    queryCount += run.end - run.start;
    return combine(windowStart(run.window), base, run);
  });
  return { bars, queryCount };
}

/** Merges the base aggregates of one window (in either order) into its bar. */
function combine(t: number, b: Columns<BaseRow>, run: WindowRun): Bar {
  let first = run.start;
  let last = first;
  let h = -Infinity;
  let l = Infinity;
  let v = 0;
  let weighted = 0;
  let plain = 0;
  let n: number | undefined = 0;
  for (let i = run.start; i < run.end; i++) {
    const bkey = b.bkey[i] as number;
    if (bkey < (b.bkey[first] as number)) first = i;
    if (bkey > (b.bkey[last] as number)) last = i;
    const hi = b.h[i] as number;
    const lo = b.l[i] as number;
    const vi = b.v[i] as number;
    if (hi > h) h = hi;
    if (lo < l) l = lo;
    v += vi;
    const vw = rowVw(b, i);
    weighted += vw * vi;
    plain += vw;
    const ni = b.n[i] as number | null;
    n = n === undefined || !b.alln[i] || ni === null ? undefined : n + ni;
  }
  const bar: Bar = { t, o: b.o[first] as number, h, l, c: b.c[last] as number, v };
  const vw = v > 0 ? weighted / v : plain / (run.end - run.start);
  if (Number.isFinite(vw)) bar.vw = vw;
  if (n !== undefined) bar.n = n;
  return bar;
}

/**
 * The base aggregate's vw: Σ price × size over its ticks, or over its bars with their stored vw (the
 * typical price (h + l + c) / 3 of a bar without one); the typical price when it has no volume.
 */
function rowVw(b: Columns<BaseRow>, i: number): number {
  const v = b.v[i] as number;
  if (v > 0) return (b.pv[i] as number) / v;
  return ((b.h[i] as number) + (b.l[i] as number) + (b.c[i] as number)) / 3;
}

/** The length in ms of a stored bar, by its resolution (`CASE resolution WHEN` gives NULL in ClickHouse 18.16). */
const RESOLUTION_LENGTH_SQL = `CASE WHEN resolution = 'second' THEN 1000 WHEN resolution = 'minute' THEN 60000
  WHEN resolution = 'hour' THEN 3600000 ELSE 86400000 END`;

/** Whether `ticker`'s days have a regular session apart from extended hours: US stocks. */
function regularSessionSplit(ticker: string): boolean {
  return marketTimeZone(ticker) === NEW_YORK && !/^[A-Z]:/.test(ticker);
}

/**
 * A builder of SQL conditions "the row overlaps the regular session of its day" (09:30 to 16:00 New
 * York, 13:00 on the early closes of the calendar) for rows starting at `column` and lasting `length`
 * (both in units of `scale` ms: a tick lasts one unit), over the instants `[start, end)`. Only numbers computed here enter the
 * text.
 */
function sessionSql(
  d: SqlDialect,
  segments: readonly OffsetSegment[],
  start: number,
  end: number,
): (column: string, scale: number, length: string) => string {
  const early: number[] = [];
  const firstYear = new Date(start).getUTCFullYear();
  const lastYear = new Date(end).getUTCFullYear();
  for (let y = Math.max(firstYear, 1800); y <= Math.min(lastYear, 2300); y++) {
    for (const h of nyseHolidays(y))
      if (h.status === 'early-close') early.push(Date.parse(`${h.date}T00:00:00Z`) / DAY_MS);
  }
  return (column, scale, length) => {
    const day = BigInt(DAY_MS) * BigInt(scale);
    const local = `(${column} + ${offsetSql(segments, column, scale)})`;
    const tod = `(${local} % ${day})`;
    const ms = (x: number) => (BigInt(x) * BigInt(scale)).toString();
    const close =
      early.length === 0
        ? ms(16 * HOUR_MS)
        : `CASE WHEN ${d.intDiv(local, `${day}`)} IN (${early.join(', ')}) THEN ${ms(13 * HOUR_MS)} ELSE ${ms(16 * HOUR_MS)} END`;
    return `(${tod} + ${length} > ${ms(9.5 * HOUR_MS)} AND ${tod} < ${close})`;
  };
}

/** What {@link barsOfTickers} builds: one-timespan windows, unadjusted, ascending, of each ticker listed. */
export interface TickersBarQuery {
  timespan: 'minute' | 'day';
  /** Start of the range (Unix ms); snapped back to the start of its window. */
  fromMs: number;
  /** End of the range, inclusive (Unix ms); snapped forward to the end of its window. */
  toMs: number;
  /**
   * Apply splits, as {@link queryBars} does (day windows only).
   * @default false
   */
  adjusted?: boolean;
}

/**
 * The bars {@link queryBars} gives for each of `tickers` (multiplier 1, ascending, no limit:
 * a snapshot's span of a few days), built the same way from the same sources, in a fixed number of
 * queries for the whole list: one per time zone and day rule among the tickers (a US stock's day takes
 * its prices from the regular session, an index's or an option's from the whole day). A ticker alone in
 * its group is asked for as {@link queryBars} asks (`ticker = $1`). Tickers without bars map to an
 * empty list.
 */
export async function barsOfTickers(
  store: Store,
  tickers: readonly string[],
  q: TickersBarQuery,
): Promise<Map<string, Bar[]>> {
  const out = new Map<string, Bar[]>(tickers.map((t) => [t, []]));
  const groups = new Map<string, { tz: string; split: boolean; tickers: string[] }>();
  for (const t of new Set(tickers)) {
    const tz = marketTimeZone(t);
    const split = q.timespan === 'day' && regularSessionSplit(t);
    const key = `${tz}|${split}`;
    const group = groups.get(key) ?? { tz, split, tickers: [] };
    group.tickers.push(t);
    groups.set(key, group);
  }
  await Promise.all([...groups.values()].map((g) => groupBars(store, g, q, out)));
  return out;
}

/** {@link barsOfTickers} of tickers sharing a time zone and a day rule, into `out`. */
async function groupBars(
  store: Store,
  group: { tz: string; split: boolean; tickers: readonly string[] },
  q: TickersBarQuery,
  out: Map<string, Bar[]>,
): Promise<void> {
  const { tz } = group;
  const frame = barFrame(tz, q.timespan, 1, q.fromMs, q.toMs);
  if (!frame) return;
  // A list of one is asked as `ticker = $1`, as queryBars asks for its ticker, without the list and
  // its grouping by ticker. It still reads every source: choosing one (sourceChoice) would cost a
  // ticker's first snapshot more queries than a page's.
  const [one] = group.tickers.length === 1 ? group.tickers : [];
  const sql = barBaseSql(store.dialect, {
    frame,
    tickers: one === undefined ? 'list' : 'one',
    choice: EVERY_SOURCE,
    session: group.split,
    steps: [],
    sort: 'asc',
    limit: false,
  });
  const [read, steps] = await Promise.all([
    store.columns<BaseRow>(
      sql,
      baseParams(one ?? listValue([...group.tickers]), [frame.rangeStart, frame.rangeEnd], frame.keys),
    ),
    q.adjusted && !frame.intraday ? splitStepsOf(store, group.tickers) : undefined,
  ]);
  // The list's query names each row's ticker; one ticker's rows are all its own.
  const named =
    one === undefined
      ? (read as Columns<BaseRow & { tk: string }>)
      : { ...read, tk: read.bkey.map(() => one) };
  const rows = steps ? adjustDays(named, steps) : named;
  // One base aggregate per window: a minute window is its base aggregate, a day window its day.
  const windowStart = frame.intraday ? (k: number) => k * frame.baseMs : (k: number) => localMidnight(tz, k);
  for (let i = 0; i < rows.tk.length; i++) {
    const k = rows.bkey[i] as number;
    out.get(rows.tk[i] as string)?.push(combine(windowStart(k), rows, { window: k, start: i, end: i + 1 }));
  }
}

/**
 * Day rows (`bkey` the local day) with their prices divided by the split factor of their ticker's day
 * and their volume multiplied by it, as queryBars adjusts them in SQL; `pv` stays as read (a bar's vw
 * is Σ pv over the adjusted volume). Rows of tickers without splits keep their values.
 */
function adjustDays<T extends BaseRow & { tk: string }>(
  rows: Columns<T>,
  steps: ReadonlyMap<string, readonly SplitStep[]>,
): Columns<T> {
  const factors = rows.tk.map((tk, i) => {
    const s = steps.get(tk) ?? [];
    return s.length === 0 ? undefined : splitFactorAt(s, rows.bkey[i] as number);
  });
  const by = (values: readonly number[], op: '/' | '*') =>
    values.map((x, i) => {
      const f = factors[i];
      return f === undefined ? x : op === '/' ? x / f : x * f;
    });
  return {
    ...rows,
    o: by(rows.o, '/'),
    h: by(rows.h, '/'),
    l: by(rows.l, '/'),
    c: by(rows.c, '/'),
    v: by(rows.v, '*'),
  };
}
