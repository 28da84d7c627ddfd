import type { Store } from '../store/store.js';
import { IS_FUTURES_SQL } from './futures-tickers.js';

/**
 * Tickers of one market (by prefix; '' for US stocks, futures contracts excluded) with any data in
 * `[startMs, endMs)`.
 */
export async function tickersWithData(
  store: Store,
  prefix: string,
  startMs: number,
  endMs: number,
): Promise<string[]> {
  const match =
    prefix === '' ? `ticker NOT SIMILAR TO '[A-Z]:.*' AND NOT ${IS_FUTURES_SQL}` : 'starts_with(ticker, $3)';
  const rows = await store.all<{ ticker: string }>(
    `SELECT ticker FROM bars WHERE t >= $1 AND t < $2 AND ${match}
     UNION SELECT ticker FROM trades WHERE sip_timestamp >= $1 * 1000000 AND sip_timestamp < $2 * 1000000 AND ${match}
     ORDER BY ticker`,
    prefix === '' ? [BigInt(startMs), BigInt(endMs)] : [BigInt(startMs), BigInt(endMs), prefix],
  );
  return rows.map((r) => r.ticker);
}
