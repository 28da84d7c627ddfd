import { BaseClient, type CallOptions, type Result } from '../core/client.js';
import type { PagePromise } from '../core/page-promise.js';
import { NEW_YORK } from '../dates/time-zone.js';
import {
  conditions,
  dividends,
  exchanges,
  marketHolidays,
  marketStatus,
  optionContract,
  optionContracts,
  splits,
  tickerDetails,
  tickerNews,
  tickers,
  tickerTypes,
} from '../operations/reference.js';
import { normalizeOptionTicker } from '../symbols/prefix.js';
import type {
  Condition,
  ConditionsResponse,
  Dividend,
  DividendsResponse,
  ExchangesResponse,
  MarketHoliday,
  MarketStatusResponse,
  NewsArticle,
  NewsResponse,
  OptionContract,
  OptionContractResponse,
  OptionContractsResponse,
  Split,
  SplitsResponse,
  TickerDetailsResponse,
  TickerInfo,
  TickersResponse,
  TickerTypesResponse,
} from '../types/reference.js';
import { clientFactory, type SyncOf } from './sync-client.js';

/** The reference-data operations. */
export const referenceOperations = {
  getOptionContracts: optionContracts,
  getOptionContract: optionContract,
  getTickers: tickers,
  getTickerDetails: tickerDetails,
  getTickerTypes: tickerTypes,
  getTickerNews: tickerNews,
  getStockDividends: dividends,
  getStockSplits: splits,
  getMarketStatus: marketStatus,
  getMarketHolidays: marketHolidays,
  getConditions: conditions,
  getExchanges: exchanges,
} as const;

const ops = referenceOperations;
type Opt<K extends keyof typeof ops> = CallOptions<(typeof ops)[K]>;

/** The asynchronous reference-data client. */
export class AsyncReferenceClient extends BaseClient {
  protected readonly timeZone = NEW_YORK;

  /** Option contracts matching the filters (underlying, type, expiration range, `expired`, `asOf`). */
  getOptionContracts<const O extends Opt<'getOptionContracts'>>(
    options?: O,
  ): PagePromise<Result<OptionContractsResponse, O>, OptionContract> {
    return this.call(ops.getOptionContracts, [], options);
  }

  /** One option contract (`O:` optional). */
  getOptionContract<const O extends Opt<'getOptionContract'>>(
    ticker: string,
    options?: O,
  ): Promise<Result<OptionContractResponse, O>> {
    return this.call(ops.getOptionContract, [normalizeOptionTicker(ticker, 'ticker')], options);
  }

  /** Tickers of every asset class, filtered. */
  getTickers<const O extends Opt<'getTickers'>>(
    options?: O,
  ): PagePromise<Result<TickersResponse, O>, TickerInfo> {
    return this.call(ops.getTickers, [], options);
  }

  /** Details of one ticker. */
  getTickerDetails<const O extends Opt<'getTickerDetails'>>(
    symbol: string,
    options?: O,
  ): Promise<Result<TickerDetailsResponse, O>> {
    return this.call(ops.getTickerDetails, [symbol], options);
  }

  /** The ticker type codes. */
  getTickerTypes<const O extends Opt<'getTickerTypes'>>(
    options?: O,
  ): Promise<Result<TickerTypesResponse, O>> {
    return this.call(ops.getTickerTypes, [], options);
  }

  /** News articles. */
  getTickerNews<const O extends Opt<'getTickerNews'>>(
    options?: O,
  ): PagePromise<Result<NewsResponse, O>, NewsArticle> {
    return this.call(ops.getTickerNews, [], options);
  }

  /** Cash dividends. */
  getStockDividends<const O extends Opt<'getStockDividends'>>(
    options?: O,
  ): PagePromise<Result<DividendsResponse, O>, Dividend> {
    return this.call(ops.getStockDividends, [], options);
  }

  /** Stock splits. */
  getStockSplits<const O extends Opt<'getStockSplits'>>(
    options?: O,
  ): PagePromise<Result<SplitsResponse, O>, Split> {
    return this.call(ops.getStockSplits, [], options);
  }

  /** Whether the markets are open right now. */
  getMarketStatus<const O extends Opt<'getMarketStatus'>>(
    options?: O,
  ): Promise<Result<MarketStatusResponse, O>> {
    return this.call(ops.getMarketStatus, [], options);
  }

  /** Upcoming market holidays and early closes. */
  getMarketHolidays<const O extends Opt<'getMarketHolidays'>>(
    options?: O,
  ): Promise<Result<MarketHoliday[], O>> {
    return this.call(ops.getMarketHolidays, [], options);
  }

  /** Trade and quote condition codes. */
  getConditions<const O extends Opt<'getConditions'>>(
    options?: O,
  ): PagePromise<Result<ConditionsResponse, O>, Condition> {
    return this.call(ops.getConditions, [], options);
  }

  /** Exchanges. */
  getExchanges<const O extends Opt<'getExchanges'>>(options?: O): Promise<Result<ExchangesResponse, O>> {
    return this.call(ops.getExchanges, [], options);
  }
}

/** The synchronous reference-data client. */
export type SyncReferenceClient = SyncOf<AsyncReferenceClient>;

/** Creates a reference-data client: synchronous by default, asynchronous with `useAsync: true`. */
export const ReferenceClient = clientFactory(AsyncReferenceClient, 'AsyncReferenceClient');
