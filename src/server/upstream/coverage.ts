import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import type { SqlValue } from '../store/store.js';
import type { CachedKind } from './cached-kind.js';

/**
 * The `coverage` table: which days of which ticker and kind the caching server has stored completely.
 * Days are market days (`YYYY-MM-DD` in the market's time zone), ranges inclusive.
 */

/**
 * Where a covered range's rows came from: the caching server stored them (`upstream`), or they were
 * ingested from files before it fetched the range (`files`), and are kept as they are.
 */
export type CoverageSource = 'upstream' | 'files';

/** A range of days, inclusive. */
export interface DayRange {
  first: string;
  last: string;
}

/** The name of a kind of data the caching server stores (see `CACHED_KINDS`). */
export type CoverageKind = string;

/** The range a kind of reference record covers. */
export const ALL_DAYS: DayRange = { first: '0001-01-01', last: '9999-12-31' };

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** The `YYYY-MM-DD` date of a day number. */
export const dayText = (n: number): string => {
  const d = new Date(n * DAY_MS);
  const y = d.getUTCFullYear();
  return `${String(y).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
};

/**
 * The parts of `wanted` that no usable coverage of `ticker` in `kinds` holds: final ranges, and others
 * fetched no earlier than `freshSince` (Unix ms).
 */
export async function missingRanges(
  store: Store,
  ticker: string,
  kinds: readonly CoverageKind[],
  wanted: DayRange,
  freshSince: number,
): Promise<DayRange[]> {
  const marks = kinds.map((_, i) => `$${i + 5}`).join(', ');
  const rows = await store.all<{ a: string; b: string }>(
    `SELECT first_day::VARCHAR AS a, last_day::VARCHAR AS b FROM coverage
      WHERE ticker = $1 AND last_day >= $2::DATE AND first_day <= $3::DATE
        AND (final OR fetched_at >= make_timestamp($4::BIGINT * 1000)) AND kind IN (${marks})
      ORDER BY first_day`,
    [ticker, wanted.first, wanted.last, freshSince, ...kinds] as SqlValue[],
  );
  const gaps: DayRange[] = [];
  let next = dayNumber(wanted.first);
  const end = dayNumber(wanted.last);
  for (const r of rows) {
    const a = dayNumber(r.a);
    const b = dayNumber(r.b);
    if (a > next) gaps.push({ first: dayText(next), last: dayText(Math.min(a - 1, end)) });
    next = Math.max(next, b + 1);
    if (next > end) break;
  }
  if (next <= end) gaps.push({ first: dayText(next), last: wanted.last });
  return gaps;
}

/**
 * Records that `range` of `ticker` and `kind` was fetched whole at `fetchedAt` (Unix ms): days before
 * `today`, the first day whose session had not ended (see `firstOpenDay`), as final, the rest as fresh until they age. Run inside the
 * transaction that stores the data. A kind covered every day at once is final only when `settled` (an
 * answer about a past period that had ended).
 */
export async function recordCoverage(
  store: Store,
  ticker: string,
  kind: Pick<CachedKind, 'name' | 'span'>,
  range: DayRange,
  fetchedAt: number,
  today: string,
  source: CoverageSource = 'upstream',
  settled = false,
): Promise<void> {
  await store.run(
    'DELETE FROM coverage WHERE ticker = $1 AND kind = $2 AND first_day >= $3::DATE AND last_day <= $4::DATE',
    [ticker, kind.name, range.first, range.last],
  );
  const insert = (r: DayRange, final: boolean) =>
    store.run(
      `INSERT INTO coverage (ticker, kind, first_day, last_day, fetched_at, final, source)
        VALUES ($1, $2, $3::DATE, $4::DATE, make_timestamp($5::BIGINT * 1000), $6, $7)`,
      [ticker, kind.name, r.first, r.last, fetchedAt, final, source] as SqlValue[],
    );
  const first = dayNumber(range.first);
  const last = dayNumber(range.last);
  const cut = dayNumber(today);
  if (kind.span === 'whole') return insert(range, settled);
  if (first >= cut) return insert(range, false);
  if (last < cut) return insert(range, true);
  await insert({ first: range.first, last: dayText(cut - 1) }, true);
  await insert({ first: today, last: range.last }, false);
}

/** One stored range, as `mdq cache status` lists it. */
export interface CoverageRow {
  ticker: string;
  kind: CoverageKind;
  first: string;
  last: string;
  fetchedAt: string;
  final: boolean;
  source: CoverageSource;
}

/** Every stored range, of `ticker` when given, by ticker, kind and day. */
export async function coverageRows(store: Store, ticker?: string): Promise<CoverageRow[]> {
  const rows = await store.all<{
    ticker: string;
    kind: CoverageKind;
    a: string;
    b: string;
    at: string;
    final: boolean;
    source: CoverageSource;
  }>(
    `SELECT ticker, kind, first_day::VARCHAR AS a, last_day::VARCHAR AS b,
        strftime(fetched_at, '%Y-%m-%dT%H:%M:%SZ') AS at, final, source
      FROM coverage ${ticker === undefined ? '' : 'WHERE ticker = $1'} ORDER BY ticker, kind, first_day`,
    ticker === undefined ? [] : [ticker],
  );
  return rows.map((r) => ({
    ticker: r.ticker,
    kind: r.kind,
    first: r.a,
    last: r.b,
    fetchedAt: r.at,
    final: r.final,
    source: r.source,
  }));
}
