import type { Call, CallOptions, PagedCall } from '../core/client.js';
import { NEW_YORK } from '../dates/time-zone.js';
import { aggregateBars, dailyOpenClose, previousClose } from '../operations/aggregates.js';
import { indicators } from '../operations/indicators.js';
import { lastTrade } from '../operations/last.js';
import { optionContractSnapshot, optionsChainSnapshot } from '../operations/snapshots.js';
import { quotesV3, tradesV3 } from '../operations/trades-quotes.js';
import { normalizeOptionTicker } from '../symbols/prefix.js';
import type { DailyOpenCloseResponse } from '../types/common.js';
import type {
  ListResponse,
  OptionContractSnapshot,
  OptionContractSnapshotResponse,
  OptionQuote,
  OptionTrade,
} from '../types/other.js';
import type { LastTradeResponse } from '../types/stocks.js';
import { MarketClient } from './market-client.js';
import { clientFactory, type SyncOf } from './sync-client.js';

/** The Options operations (SPEC 4.4). Option symbols take `O:` optionally. */
export const optionsOperations = {
  getTrades: tradesV3({
    name: 'getTrades',
    prefix: 'O:',
    sort: 'timestamp',
    order: 'asc',
    symbolDoc: 'Option symbol, `O:` optional.',
  }),
  getQuotes: quotesV3({
    name: 'getQuotes',
    prefix: 'O:',
    sort: 'timestamp',
    order: 'asc',
    symbolDoc: 'Option symbol, `O:` optional.',
  }),
  getLastTrade: lastTrade('O:'),
  getDailyOpenClose: dailyOpenClose('O:'),
  getAggregateBars: aggregateBars('O:'),
  getSnapshot: optionContractSnapshot,
  getSnapshotChain: optionsChainSnapshot,
  getPreviousClose: previousClose('O:'),
  ...indicators('O:'),
} as const;

const ops = optionsOperations;
type Opt<K extends keyof typeof ops> = CallOptions<(typeof ops)[K]>;
// Option symbols are checked completely (layout, date, strike) before any request.
const contract = (symbol: string, parameter = 'optionSymbol') => normalizeOptionTicker(symbol, parameter);

/** The asynchronous Options client. */
export class AsyncOptionsClient extends MarketClient<typeof ops> {
  protected readonly ops = ops;
  protected readonly timeZone = NEW_YORK;

  /** Option symbols are checked whole (layout, date, strike) and take `O:`, before any request. */
  protected override symbol(symbol: string, parameter: string): string {
    return contract(symbol, parameter);
  }

  /** Trades of a contract in a time range, paged by `next_url`. */
  getTrades<const O extends Opt<'getTrades'>>(
    optionSymbol: string,
    options?: O,
  ): PagedCall<ListResponse<OptionTrade>, O, OptionTrade> {
    return this.call(ops.getTrades, [contract(optionSymbol)], options);
  }

  /** Quotes of a contract in a time range, paged by `next_url`. */
  getQuotes<const O extends Opt<'getQuotes'>>(
    optionSymbol: string,
    options?: O,
  ): PagedCall<ListResponse<OptionQuote>, O, OptionQuote> {
    return this.call(ops.getQuotes, [contract(optionSymbol)], options);
  }

  /** The most recent trade of a contract. */
  getLastTrade<const O extends Opt<'getLastTrade'>>(ticker: string, options?: O): Call<LastTradeResponse, O> {
    return this.call(ops.getLastTrade, [contract(ticker, 'ticker')], options);
  }

  /** Open, close and after-hours prices of a contract on one date. */
  getDailyOpenClose<const O extends Opt<'getDailyOpenClose'>>(
    symbol: string,
    date: Date | string,
    options?: O,
  ): Call<DailyOpenCloseResponse, O> {
    return this.call(ops.getDailyOpenClose, [contract(symbol, 'symbol'), date], options);
  }

  /** Snapshot of one contract of an underlying: greeks, implied volatility, last quote and trade. */
  getSnapshot<const O extends Opt<'getSnapshot'>>(
    underlyingSymbol: string,
    optionSymbol: string,
    options?: O,
  ): PagedCall<OptionContractSnapshotResponse, O, OptionContractSnapshotResponse['results']> {
    return this.call(ops.getSnapshot, [underlyingSymbol, contract(optionSymbol)], options);
  }

  /** Snapshots of the option chain of an underlying, paged by `next_url`. */
  getSnapshotChain<const O extends Opt<'getSnapshotChain'>>(
    underlyingSymbol: string,
    options?: O,
  ): PagedCall<ListResponse<OptionContractSnapshot>, O, OptionContractSnapshot> {
    return this.call(ops.getSnapshotChain, [underlyingSymbol], options);
  }
}

/** The synchronous Options client. */
export type SyncOptionsClient = SyncOf<AsyncOptionsClient>;

/** Creates an Options client: synchronous by default, asynchronous with `useAsync: true`. */
export const OptionsClient = clientFactory(AsyncOptionsClient, 'AsyncOptionsClient');
