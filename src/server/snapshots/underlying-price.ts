import { lastBarClose, lastTrade } from '../market/index.js';
import type { Store } from '../store/store.js';

/** The price of an option's underlying at "now". */
export interface UnderlyingPrice {
  /** The ticker priced: the stock (`GOOG`) or the index (`I:SPX`). */
  readonly ticker: string;
  readonly price: number;
  /** Unix ms at which the price held. */
  readonly asOfMs: number;
  /** True for an index, which the service reports as `value` rather than `price`. */
  readonly isIndex: boolean;
}

/**
 * The underlying's latest price at or before `nowMs`: the later of its latest trade tick and the close of
 * its latest bar that had ended by then. An underlying without stock data whose `I:` ticker has data is an
 * index (SPX options).
 */
export async function underlyingPrice(
  store: Store,
  underlying: string,
  nowMs: number,
): Promise<UnderlyingPrice | undefined> {
  const stock = await latestPrice(store, underlying, nowMs);
  if (stock) return { ticker: underlying, ...stock, isIndex: false };
  const index = underlying.startsWith('I:') ? underlying : `I:${underlying}`;
  const value = await latestPrice(store, index, nowMs);
  return value ? { ticker: index, ...value, isIndex: true } : undefined;
}

async function latestPrice(
  store: Store,
  ticker: string,
  nowMs: number,
): Promise<{ price: number; asOfMs: number } | undefined> {
  const [trade, bar] = await Promise.all([
    lastTrade(store, ticker, nowMs),
    lastBarClose(store, ticker, nowMs),
  ]);
  const tradeMs = trade ? Number(trade.sip_timestamp / 1_000_000n) : undefined;
  // A bar's close is its last trade, so a tick inside the bar (or later) is at least as recent.
  if (trade && tradeMs !== undefined && (bar === undefined || tradeMs >= bar.t - 60_000)) {
    return { price: trade.price, asOfMs: tradeMs };
  }
  if (bar) return { price: bar.price, asOfMs: bar.t + 1 };
  return undefined;
}
