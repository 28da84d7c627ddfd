import { sessionEndDate } from '../server/market/futures.js';
import { isFuturesSql } from '../server/market/futures-tickers.js';
import type { DuckDbStore } from '../server/store/duckdb-store.js';

/** What the walk-through shows, chosen from the store so that it works on any data. */
export interface DemoPlan {
  /** The stock with the most minute bars, and the New York days its minute bars span. */
  readonly stock: string;
  readonly firstDay: string;
  readonly lastDay: string;
  /** A few trading days before `lastDay` (a custom window). */
  readonly windowFrom: string;
  /** An option contract (the one nearest the money on `stock` when there is one). */
  readonly option?: { readonly ticker: string; readonly underlying: string };
  /** A currency pair with quotes (`C:EURUSD`), split into its currencies. */
  readonly pair?: { readonly ticker: string; readonly from: string; readonly to: string };
  /** An index with bars. */
  readonly index?: string;
  /** A crypto pair with minute bars, and its last full UTC day. */
  readonly crypto?: { readonly ticker: string; readonly lastDay: string };
  /** The futures contract with the most minute bars, and the trading date of its last one. */
  readonly futures?: { readonly ticker: string; readonly lastSession: string };
}

const nyDay = (ms: number) => new Date(ms).toLocaleDateString('en-CA', { timeZone: 'America/New_York' });

/** Picks the demo's symbols and windows from what the store holds; undefined when it has no stock minute bars. */
export async function planDemo(store: DuckDbStore): Promise<DemoPlan | undefined> {
  const stocks = await store.all<{ ticker: string; first: number; last: number }>(
    `SELECT ticker, min(t)::DOUBLE AS first, max(t)::DOUBLE AS last FROM bars
      WHERE resolution = 'minute' AND NOT contains(ticker, ':') AND NOT ${isFuturesSql(store.dialect)}
      GROUP BY ticker ORDER BY count(*) DESC, ticker LIMIT 1`,
  );
  const s = stocks[0];
  if (!s) return undefined;
  const days = await store.all<{ t: number }>(
    `SELECT DISTINCT (t // 86400000)::DOUBLE AS t FROM bars WHERE ticker = $1 AND resolution = 'minute' ORDER BY t DESC LIMIT 5`,
    [s.ticker],
  );
  const windowFrom = new Date((days[days.length - 1]?.t ?? s.last / 86400000) * 86400000)
    .toISOString()
    .slice(0, 10);
  const options = await store.all<{ ticker: string; underlying: string }>(
    `SELECT c.ticker, c.underlying_ticker AS underlying FROM option_contracts c
      WHERE EXISTS (SELECT 1 FROM bars b WHERE b.ticker = c.ticker)
      ORDER BY c.underlying_ticker = $1 DESC, c.expiration_date DESC,
               abs(c.strike_price - coalesce((SELECT arg_max(c, t) FROM bars WHERE ticker = $1 AND resolution = 'minute'), 0)),
               c.contract_type, c.ticker
      LIMIT 1`,
    [s.ticker],
  );
  const pairs = await store.all<{ ticker: string }>(
    `SELECT ticker FROM (SELECT DISTINCT ticker FROM quote_bars UNION SELECT DISTINCT ticker FROM quotes)
      WHERE starts_with(ticker, 'C:') AND length(ticker) = 8 ORDER BY ticker = 'C:EURUSD' DESC, ticker LIMIT 1`,
  );
  const indices = await store.all<{ ticker: string }>(
    `SELECT ticker FROM bars WHERE starts_with(ticker, 'I:') GROUP BY ticker ORDER BY count(*) DESC, ticker LIMIT 1`,
  );
  const crypto = await store.all<{ ticker: string; last: number }>(
    `SELECT ticker, max(t)::DOUBLE AS last FROM bars WHERE starts_with(ticker, 'X:') AND resolution = 'minute'
      GROUP BY ticker ORDER BY count(*) DESC, ticker LIMIT 1`,
  );
  const contracts = await store.all<{ ticker: string; last: number }>(
    `SELECT ticker, max(t)::DOUBLE AS last FROM bars WHERE resolution = 'minute' AND ${isFuturesSql(store.dialect)}
      GROUP BY ticker ORDER BY count(*) DESC, ticker LIMIT 1`,
  );
  const contract = contracts[0];
  const pair = pairs[0]?.ticker;
  const option = options[0];
  const index = indices[0]?.ticker;
  const coin = crypto[0];
  return {
    stock: s.ticker,
    firstDay: nyDay(s.first),
    lastDay: nyDay(s.last),
    windowFrom,
    ...(option && { option }),
    ...(pair && { pair: { ticker: pair, from: pair.slice(2, 5), to: pair.slice(5, 8) } }),
    ...(index && { index }),
    // Half a day back from the last bar: the last full UTC day when the data ends early in a day.
    ...(coin && {
      crypto: { ticker: coin.ticker, lastDay: new Date(coin.last - 43_200_000).toISOString().slice(0, 10) },
    }),
    ...(contract && { futures: { ticker: contract.ticker, lastSession: sessionEndDate(contract.last) } }),
  };
}
