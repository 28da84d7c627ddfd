import { listValue } from '@duckdb/node-api';
import type { Store } from '../store/store.js';

/** The latest stored trade bar (second or minute) of a ticker that started before `nowMs`. */
export async function latestTradeBar(
  store: Store,
  ticker: string,
  nowMs: number,
): Promise<{ t: number; c: number; v: number; resolution: string } | undefined> {
  const rows = await store.all<{ t: bigint; c: number; v: number; resolution: string }>(
    `SELECT t, c, v, resolution FROM bars
      WHERE ticker = $1 AND resolution IN ('second', 'minute') AND t < $2
      ORDER BY t DESC, resolution = 'second' DESC LIMIT 1`,
    [ticker, BigInt(Math.floor(nowMs))],
  );
  const r = rows[0];
  return r ? { t: Number(r.t), c: r.c, v: r.v, resolution: r.resolution } : undefined;
}

/** A quote bar's closing bid and ask. */
export interface QuoteBarClose {
  /** Unix ms of the bar start. */
  t: number;
  /** Unix ms at which the closing values held: the bar's end, or `nowMs` when the bar is still open. */
  asOf: number;
  bid: number | null;
  bidSize: number | null;
  ask: number | null;
  askSize: number | null;
}

/**
 * The closing bid and ask of the latest stored quote bar (minute, else hour or day) of each ticker that
 * started before `nowMs`. One query for the whole list: option chains ask for hundreds of contracts.
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
    `SELECT ticker, t, resolution, bid_c, bid_size, ask_c, ask_size FROM quote_bars
      WHERE ticker IN (SELECT unnest($1::VARCHAR[])) AND t < $2
      QUALIFY row_number() OVER (PARTITION BY ticker ORDER BY t DESC,
        CASE resolution WHEN 'second' THEN 0 WHEN 'minute' THEN 1 WHEN 'hour' THEN 2 ELSE 3 END) = 1`,
    [listValue(tickers), BigInt(Math.floor(nowMs))],
  );
  const length: Record<string, number> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };
  for (const r of rows) {
    const t = Number(r.t);
    out.set(r.ticker, {
      t,
      asOf: Math.min(t + (length[r.resolution] ?? 60_000), nowMs),
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
    `SELECT ticker, open_interest FROM open_interest
      WHERE ticker IN (SELECT unnest($1::VARCHAR[])) AND t <= $2
      QUALIFY row_number() OVER (PARTITION BY ticker ORDER BY t DESC) = 1`,
    [listValue(tickers), BigInt(Math.floor(nowMs))],
  );
  for (const r of rows) out.set(r.ticker, r.open_interest);
  return out;
}
