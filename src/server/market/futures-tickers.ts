import type { SqlDialect } from '../store/store.js';

/**
 * How futures contracts look in the store: the service's tickers (`ESZ3`), with no prefix, so they are
 * told from stock tickers by their shape and product code. Only the products the server has facts for
 * (see `futures.ts`) are futures here.
 */

/** The product codes of the futures the store can hold. */
export const FUTURES_PRODUCT_CODES = ['ES', 'GC'] as const;

/** A stored futures contract ticker: product code, month code, one-digit year. */
export const FUTURES_TICKER_PATTERN = `^(${FUTURES_PRODUCT_CODES.join('|')})[FGHJKMNQUVXZ][0-9]$`;

/**
 * SQL true for a futures contract's `ticker` (only constants of this module enter the text); the length
 * test first spares most rows the pattern.
 */
export const isFuturesSql = (d: SqlDialect) =>
  `(length(ticker) = 4 AND ${d.regexMatch('ticker', `'${FUTURES_TICKER_PATTERN}'`)})`;

const FUTURES_TICKER = new RegExp(FUTURES_TICKER_PATTERN);

/** True for a stored futures contract ticker (`ESZ3`). */
export function isStoredFuturesTicker(ticker: string): boolean {
  return FUTURES_TICKER.test(ticker);
}
