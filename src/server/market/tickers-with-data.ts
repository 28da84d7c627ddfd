import type { Store } from '../store/store.js';
import { FUTURES_TICKER_PATTERN } from './futures-tickers.js';

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
  const d = store.dialect;
  const match =
    prefix === ''
      ? `NOT ${d.regexMatch('ticker', "'^[A-Z]:'")} AND NOT (length(ticker) = 4 AND ${d.regexMatch('ticker', `'${FUTURES_TICKER_PATTERN}'`)})`
      : 'substring(ticker, 1, length($3)) = $3';
  const rows = await store.all<{ ticker: string }>(
    // DISTINCT over UNION ALL: ClickHouse 18.16 has no plain UNION.
    `SELECT DISTINCT ticker FROM (
       SELECT ticker FROM bars WHERE t >= $1 AND t < $2 AND ${match}
       UNION ALL SELECT ticker FROM trades WHERE sip_timestamp >= $1 * 1000000 AND sip_timestamp < $2 * 1000000 AND ${match})
     ORDER BY ticker`,
    prefix === '' ? [BigInt(startMs), BigInt(endMs)] : [BigInt(startMs), BigInt(endMs), prefix],
  );
  return rows.map((r) => r.ticker);
}
