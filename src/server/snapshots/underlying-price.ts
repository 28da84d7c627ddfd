import { lastBarCloses, lastTrades } from '../market/index.js';
import type { Store } from '../store/store.js';
import type { TradeRow } from '../store/tick-rows.js';

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
 * The latest price of each of `underlyings` at or before `nowMs`: the later of its latest trade tick and
 * the close of its latest bar that had ended by then. An underlying without stock data whose `I:` ticker
 * has data is an index (SPX options). Two store queries for the whole list (the latest trades, and the
 * latest bar closes, of every underlying and its `I:` ticker); underlyings without a price are left out.
 */
export async function underlyingPrices(
  store: Store,
  underlyings: readonly string[],
  nowMs: number,
): Promise<Map<string, UnderlyingPrice>> {
  const indexOf = (u: string) => (u.startsWith('I:') ? u : `I:${u}`);
  const tickers = [...new Set(underlyings.flatMap((u) => [u, indexOf(u)]))];
  const [trades, bars] = await Promise.all([
    lastTrades(store, tickers, nowMs),
    lastBarCloses(store, tickers, nowMs),
  ]);
  const latestPrice = (ticker: string) => priceOf(trades.get(ticker), bars.get(ticker));
  const out = new Map<string, UnderlyingPrice>();
  for (const u of underlyings) {
    const stock = latestPrice(u);
    const index = indexOf(u);
    const value = stock ? undefined : latestPrice(index);
    if (stock) out.set(u, { ticker: u, ...stock, isIndex: false });
    else if (value) out.set(u, { ticker: index, ...value, isIndex: true });
  }
  return out;
}

function priceOf(
  trade: TradeRow | undefined,
  bar: { t: number; price: number } | undefined,
): { price: number; asOfMs: number } | undefined {
  const tradeMs = trade ? Number(trade.sip_timestamp / 1_000_000n) : undefined;
  // A bar's close is its last trade, so a tick inside the bar (or later) is at least as recent.
  if (trade && tradeMs !== undefined && (bar === undefined || tradeMs >= bar.t - 60_000)) {
    return { price: trade.price, asOfMs: tradeMs };
  }
  if (bar) return { price: bar.price, asOfMs: bar.t + 1 };
  return undefined;
}
