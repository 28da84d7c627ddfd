import type { Store } from '../store/store.js';
import { IS_FUTURES_SQL, isStoredFuturesTicker } from './futures-tickers.js';

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

const CLASS_SQL = `CASE WHEN ${IS_FUTURES_SQL} THEN 'futures' WHEN starts_with(ticker, 'O:') THEN 'options' WHEN starts_with(ticker, 'I:') THEN 'indices'
  WHEN starts_with(ticker, 'C:') THEN 'fx' WHEN starts_with(ticker, 'X:') THEN 'crypto' ELSE 'stocks' END`;
const BAR_END_SQL = `t + CASE WHEN resolution = 'second' THEN 999 WHEN resolution = 'minute' THEN 59999
  WHEN resolution = 'hour' THEN 3599999 ELSE 86399999 END`;

/**
 * The latest instant each asset class has data for: its last tick or the last moment covered by its
 * last intraday bar (second, minute, hour). Daily bars count only for a class without any intraday
 * data: one long daily series (years of an index's closes) must not move the snapshots of every class
 * to a time when nothing else traded. The server's "now" per class when no `--now` is given.
 */
export async function latestDataTimes(store: Store): Promise<DataTimes> {
  const rows = await store.all<{ cls: AssetClass; intraday: number | null; daily: number | null }>(
    // Grouped by ticker first (few of them), classified after: the class test then runs once per ticker.
    `WITH t AS (
       SELECT ticker, max(sip_timestamp) // 1000000 AS intraday, NULL::BIGINT AS daily FROM trades GROUP BY ticker
       UNION ALL SELECT ticker, max(sip_timestamp) // 1000000, NULL FROM quotes GROUP BY ticker
       UNION ALL SELECT ticker, max(${BAR_END_SQL}) FILTER (WHERE resolution <> 'day'),
                        max(${BAR_END_SQL}) FILTER (WHERE resolution = 'day') FROM bars GROUP BY ticker
       UNION ALL SELECT ticker, max(${BAR_END_SQL}) FILTER (WHERE resolution <> 'day'),
                        max(${BAR_END_SQL}) FILTER (WHERE resolution = 'day') FROM quote_bars GROUP BY ticker),
     c AS (SELECT ${CLASS_SQL} AS cls, intraday, daily FROM t)
     SELECT cls, max(intraday)::DOUBLE AS intraday, max(daily)::DOUBLE AS daily FROM c GROUP BY cls`,
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
