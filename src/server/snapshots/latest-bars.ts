import { listValue } from '@duckdb/node-api';
import type { Store } from '../store/store.js';

const LENGTH_SQL =
  "CASE WHEN resolution = 'second' THEN 1000 WHEN resolution = 'minute' THEN 60000 WHEN resolution = 'hour' THEN 3600000 ELSE 86400000 END";

/** A quote bar's closing bid and ask. */
export interface QuoteBarClose {
  /** Unix ms of the bar start. */
  t: number;
  /** Unix ms at which the closing values held: the bar's end. */
  asOf: number;
  bid: number | null;
  bidSize: number | null;
  ask: number | null;
  askSize: number | null;
}

/**
 * The closing bid and ask of the latest stored quote bar (second, minute, hour or day) of each ticker that
 * had ended by `nowMs` (a bar in progress would leak quotes from after now). One query for the whole
 * list: option chains ask for hundreds of contracts.
 */
export async function latestQuoteBars(
  store: Store,
  tickers: readonly string[],
  nowMs: number,
): Promise<Map<string, QuoteBarClose>> {
  const out = new Map<string, QuoteBarClose>();
  if (tickers.length === 0) return out;
  const rows = await store.all<{
    ticker: string;
    t: bigint;
    resolution: string;
    bid_c: number | null;
    bid_size: number | null;
    ask_c: number | null;
    ask_size: number | null;
  }>(
    store.dialect.firstPer(
      `SELECT ticker, t, resolution, bid_c, bid_size, ask_c, ask_size FROM quote_bars
        WHERE ${store.dialect.inList('ticker', '$1')} AND t + ${LENGTH_SQL} <= $2`,
      'ticker',
      `t + ${LENGTH_SQL} DESC,
        CASE WHEN resolution = 'second' THEN 0 WHEN resolution = 'minute' THEN 1 WHEN resolution = 'hour' THEN 2 ELSE 3 END`,
    ),
    [listValue(tickers), BigInt(Math.floor(nowMs))],
  );
  const length: Record<string, number> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };
  for (const r of rows) {
    const t = Number(r.t);
    out.set(r.ticker, {
      t,
      asOf: t + (length[r.resolution] ?? 60_000),
      bid: r.bid_c,
      bidSize: r.bid_size,
      ask: r.ask_c,
      askSize: r.ask_size,
    });
  }
  return out;
}

/** The latest open interest of each ticker recorded at or before `nowMs`. */
export async function latestOpenInterest(
  store: Store,
  tickers: readonly string[],
  nowMs: number,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (tickers.length === 0) return out;
  const rows = await store.all<{ ticker: string; open_interest: number }>(
    store.dialect.firstPer(
      `SELECT ticker, open_interest FROM open_interest
        WHERE ${store.dialect.inList('ticker', '$1')} AND t <= $2`,
      'ticker',
      't DESC',
    ),
    [listValue(tickers), BigInt(Math.floor(nowMs))],
  );
  for (const r of rows) out.set(r.ticker, r.open_interest);
  return out;
}
