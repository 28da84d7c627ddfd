import type { QuoteRow, TradeRow } from '../ingest/rows.js';
import type { Store } from '../store/store.js';

/**
 * The latest trade of `ticker` at or before `atMs` (Unix ms; the whole millisecond counts), or
 * undefined. Ties on the timestamp go to the higher sequence number.
 */
export async function lastTrade(store: Store, ticker: string, atMs: number): Promise<TradeRow | undefined> {
  const rows = await store.all<TradeRow>(
    `SELECT * FROM trades WHERE ticker = $1 AND sip_timestamp < $2
      ORDER BY sip_timestamp DESC, sequence_number DESC LIMIT 1`,
    [ticker, (BigInt(Math.floor(atMs)) + 1n) * 1_000_000n],
  );
  return rows[0] ? normaliseLists(rows[0]) : undefined;
}

/** The latest quote of `ticker` at or before `atMs` (Unix ms), or undefined. */
export async function lastQuote(store: Store, ticker: string, atMs: number): Promise<QuoteRow | undefined> {
  const rows = await store.all<QuoteRow>(
    `SELECT * FROM quotes WHERE ticker = $1 AND sip_timestamp < $2
      ORDER BY sip_timestamp DESC, sequence_number DESC LIMIT 1`,
    [ticker, (BigInt(Math.floor(atMs)) + 1n) * 1_000_000n],
  );
  return rows[0] ? normaliseLists(rows[0]) : undefined;
}

/**
 * DuckDB hands back LIST columns as wrapper objects; rows leave the store with plain arrays so routes
 * and JSON see `[1, 2]`.
 */
export function normaliseLists<T>(row: T): T {
  const out = { ...row } as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) {
    if (v && typeof v === 'object' && 'items' in v && Array.isArray((v as { items: unknown }).items)) {
      out[k] = (v as { items: unknown[] }).items;
    }
  }
  return out as T;
}
