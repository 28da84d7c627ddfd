import type { SqlDialect, Store } from '../store/store.js';
import { FUTURES_TICKER_PATTERN, isStoredFuturesTicker } from './futures-tickers.js';

/** The asset classes, each with a "now" of its own. */
export type AssetClass = 'stocks' | 'options' | 'indices' | 'fx' | 'crypto' | 'futures';

/**
 * The asset class of a ticker, by its prefix (`O:`, `I:`, `C:`, `X:`; none for stocks and futures,
 * which are told by their shape: `ESZ3`).
 */
export function assetClassOf(ticker: string): AssetClass {
  if (isStoredFuturesTicker(ticker)) return 'futures';
  if (ticker.startsWith('O:')) return 'options';
  if (ticker.startsWith('I:')) return 'indices';
  if (ticker.startsWith('C:')) return 'fx';
  if (ticker.startsWith('X:')) return 'crypto';
  return 'stocks';
}

/** The latest data times of a store, per asset class and overall (Unix ms). */
export interface DataTimes {
  /** The latest time of each asset class the store holds data of. */
  readonly byClass: Partial<Record<AssetClass, number>>;
  /** The latest of them; undefined for an empty store. */
  readonly latest?: number;
}

const classSql = (d: SqlDialect) => {
  const starts = (prefix: string) => `substring(ticker, 1, 2) = '${prefix}'`;
  return `CASE WHEN length(ticker) = 4 AND ${d.regexMatch('ticker', `'${FUTURES_TICKER_PATTERN}'`)} THEN 'futures'
  WHEN ${starts('O:')} THEN 'options' WHEN ${starts('I:')} THEN 'indices' WHEN ${starts('C:')} THEN 'fx'
  WHEN ${starts('X:')} THEN 'crypto' ELSE 'stocks' END`;
};
const BAR_END_SQL = `t + CASE WHEN resolution = 'second' THEN 999 WHEN resolution = 'minute' THEN 59999
  WHEN resolution = 'hour' THEN 3599999 ELSE 86399999 END`;

/**
 * The latest instant each asset class has data for: its last tick or the last moment covered by its
 * last intraday bar (second, minute, hour). Daily bars count only for a class without any intraday
 * data: one long daily series (years of an index's closes) must not move the snapshots of every class
 * to a time when nothing else traded. The server's "now" per class when no `--now` is given.
 */
/**
 * The query of {@link latestDataTimes}, in nested subqueries (ClickHouse 18.16 has no `WITH` queries).
 * Grouped by ticker first (few of them), classified after: the class test then runs once per ticker.
 */
function sql(d: SqlDialect): string {
  const tickTime = d.nullableDouble(d.intDiv('max(sip_timestamp)', '1000000'));
  const none = d.nullableDouble('NULL');
  const barEnd = (table: string) =>
    `SELECT ticker, ${d.nullableDouble(d.aggWhere(`max(${BAR_END_SQL})`, "resolution <> 'day'"))},
            ${d.nullableDouble(d.aggWhere(`max(${BAR_END_SQL})`, "resolution = 'day'"))} FROM ${table} GROUP BY ticker`;
  return `SELECT cls, ${d.double('max(intraday)')} AS intraday, ${d.double('max(daily)')} AS daily FROM (
     SELECT ${classSql(d)} AS cls, intraday, daily FROM (
       SELECT ticker, ${tickTime} AS intraday, ${none} AS daily FROM trades GROUP BY ticker
       UNION ALL SELECT ticker, ${tickTime}, ${none} FROM quotes GROUP BY ticker
       UNION ALL ${barEnd('bars')}
       UNION ALL ${barEnd('quote_bars')}))
   GROUP BY cls`;
}

export async function latestDataTimes(store: Store): Promise<DataTimes> {
  const rows = await store.all<{ cls: AssetClass; intraday: number | null; daily: number | null }>(
    sql(store.dialect),
  );
  const byClass: Partial<Record<AssetClass, number>> = {};
  let latest: number | undefined;
  for (const r of rows) {
    const t = r.intraday ?? r.daily;
    if (t === null) continue;
    byClass[r.cls] = t;
    // Overall: the latest intraday time of any class; daily-only classes count when no class has any.
    if (r.intraday !== null && (latest === undefined || r.intraday > latest)) latest = r.intraday;
  }
  if (latest === undefined) {
    for (const t of Object.values(byClass)) if (latest === undefined || t > latest) latest = t;
  }
  return latest === undefined ? { byClass } : { byClass, latest };
}

/**
 * The latest instant the store has data for (Unix ms), as {@link latestDataTimes} counts it overall;
 * `undefined` for an empty store.
 */
export async function latestDataTime(store: Store): Promise<number | undefined> {
  return (await latestDataTimes(store)).latest;
}
