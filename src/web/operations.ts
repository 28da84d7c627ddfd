/**
 * The library's declarations of the operations the page calls (path template, parameters, defaults),
 * taken from its clients' own, so the page and the clients cannot send different requests.
 */
import { aggregateBars } from '../operations/aggregates.js';
import { futuresOperations, futuresResolution } from '../operations/futures.js';
import { optionContracts, tickers } from '../operations/reference.js';
import { optionsChainSnapshot } from '../operations/snapshots.js';
import { quotesV3, tradesV3 } from '../operations/trades-quotes.js';

/** Aggregate bars (`/v2/aggs/ticker/…`) of every class but futures, as each class's client declares them. */
export const barOperations = {
  stocks: aggregateBars(),
  options: aggregateBars('O:'),
  indices: aggregateBars('I:', 'client'),
  fx: aggregateBars('C:'),
  crypto: aggregateBars('X:'),
} as const;

/**
 * Trades and quotes (`/v3/trades/…`, `/v3/quotes/…`) as the stocks client declares them; the other
 * classes' declarations differ only in a prefix the page's tickers carry and defaults the page sets.
 */
export const tickOperations = {
  trades: tradesV3({ name: 'getTradesV3' }),
  quotes: quotesV3({ name: 'getQuotesV3' }),
} as const;

export { futuresOperations, futuresResolution, optionContracts, optionsChainSnapshot, tickers };
