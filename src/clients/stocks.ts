import type { Call, CallOptions, PagedCall } from '../core/client.js';
import { DecodeError } from '../core/errors.js';
import { NEW_YORK } from '../dates/time-zone.js';
import { aggregateBars, dailyOpenClose, groupedDaily, previousClose } from '../operations/aggregates.js';
import { indicators } from '../operations/indicators.js';
import { lastQuote, lastTrade } from '../operations/last.js';
import { stockDividendsV1, stockExchangesV1, stockSplitsV1 } from '../operations/reference.js';
import { gainersAndLosers, snapshotAll, snapshotTicker } from '../operations/snapshots.js';
import { legacyTicks, quotesV3, tradesV3 } from '../operations/trades-quotes.js';
import type { DailyOpenCloseResponse } from '../types/common.js';
import type {
  DividendsV1Response,
  DividendV1,
  ExchangesV1Response,
  SplitsV1Response,
  SplitV1,
} from '../types/reference.js';
import type {
  LastQuoteResponse,
  LastTradeResponse,
  LegacyTicksResponse,
  Quote,
  QuotesResponse,
  SnapshotResponse,
  SnapshotsResponse,
  Trade,
  TradesResponse,
} from '../types/stocks.js';
import { WholeMarketClient } from './market-client.js';
import { clientFactory, type SyncOf } from './sync-client.js';

/** The Stocks operations (SPEC 4.3), one declaration each. */
export const stocksOperations = {
  getTrades: legacyTicks('trades'),
  getTradesV3: tradesV3({ name: 'getTradesV3' }),
  getQuotes: legacyTicks('nbbo'),
  getQuotesV3: quotesV3({ name: 'getQuotesV3' }),
  getLastTrade: lastTrade(),
  getLastQuote: lastQuote,
  getDailyOpenClose: dailyOpenClose(),
  getAggregateBars: aggregateBars(),
  getGroupedDailyBars: groupedDaily('us/market/stocks'),
  getPreviousClose: previousClose(),
  getSnapshot: snapshotTicker('us/markets/stocks'),
  getSnapshotAll: snapshotAll('us/markets/stocks'),
  getGainersAndLosers: gainersAndLosers('us/markets/stocks'),
  getDividends: stockDividendsV1,
  getSplits: stockSplitsV1,
  getExchanges: stockExchangesV1,
  ...indicators(),
} as const;

const ops = stocksOperations;
type Ops = typeof ops;
type Opt<K extends keyof Ops> = CallOptions<Ops[K]>;

/**
 * The asynchronous Stocks client: every operation returns a promise (paged ones a `PagePromise`, also
 * walkable with `for await`).
 *
 * @example
 * const stocks = StocksClient(process.env.MASSIVE_API_KEY, { useAsync: true });
 * const bars = await stocks.getAggregateBars('AAPL', '2024-01-02', '2024-03-28', { timespan: 'minute', multiplier: 5, fullRange: true });
 * await stocks.close();
 */
export class AsyncStocksClient extends WholeMarketClient<typeof ops, SnapshotResponse, SnapshotsResponse> {
  protected readonly ops = ops;
  protected readonly timeZone = NEW_YORK;

  /** Trades of one date (legacy v2), paged by the nanosecond `timestamp` offset. */
  getTrades(symbol: string, date: Date | string, options?: Opt<'getTrades'>): Promise<LegacyTicksResponse> {
    return this.call(ops.getTrades, [symbol, date], options);
  }

  /** Trades in a time range (v3), paged by `next_url`. */
  getTradesV3<const O extends Opt<'getTradesV3'>>(
    symbol: string,
    options?: O,
  ): PagedCall<TradesResponse, O, Trade> {
    return this.call(ops.getTradesV3, [symbol], options);
  }

  /** Quotes (NBBO) of one date (legacy v2), paged by the nanosecond `timestamp` offset. */
  getQuotes(symbol: string, date: Date | string, options?: Opt<'getQuotes'>): Promise<LegacyTicksResponse> {
    return this.call(ops.getQuotes, [symbol, date], options);
  }

  /** Quotes (NBBO) in a time range (v3), paged by `next_url`. */
  getQuotesV3<const O extends Opt<'getQuotesV3'>>(
    symbol: string,
    options?: O,
  ): PagedCall<QuotesResponse, O, Quote> {
    return this.call(ops.getQuotesV3, [symbol], options);
  }

  /** The most recent trade. */
  getLastTrade<const O extends Opt<'getLastTrade'>>(symbol: string, options?: O): Call<LastTradeResponse, O> {
    return this.call(ops.getLastTrade, [symbol], options);
  }

  /** The most recent NBBO quote. */
  getLastQuote<const O extends Opt<'getLastQuote'>>(symbol: string, options?: O): Call<LastQuoteResponse, O> {
    return this.call(ops.getLastQuote, [symbol], options);
  }

  /** Open, high, low, close, volume, pre-market and after-hours prices of one date. */
  getDailyOpenClose<const O extends Opt<'getDailyOpenClose'>>(
    symbol: string,
    date: Date | string,
    options?: O,
  ): Call<DailyOpenCloseResponse, O> {
    return this.call(ops.getDailyOpenClose, [symbol, date], options);
  }

  /** Cash dividends with split-adjusted amounts (`/stocks/v1/dividends`), paged by `next_url`. */
  getDividends<const O extends Opt<'getDividends'>>(
    options?: O,
  ): PagedCall<DividendsV1Response, O, DividendV1> {
    return this.call(ops.getDividends, [], options);
  }

  /** Splits with adjustment type and factor (`/stocks/v1/splits`), paged by `next_url`. */
  getSplits<const O extends Opt<'getSplits'>>(options?: O): PagedCall<SplitsV1Response, O, SplitV1> {
    return this.call(ops.getSplits, [], options);
  }

  /** US stock exchanges, TRFs and SIPs (`/stocks/v1/exchanges`). */
  getExchanges<const O extends Opt<'getExchanges'>>(options?: O): Call<ExchangesV1Response, O> {
    return this.call(ops.getExchanges, [], options);
  }

  /**
   * The price of the last trade, as a number.
   * @throws the request's typed error when it fails; `DecodeError` when the answer has no price.
   */
  async getCurrentPrice(symbol: string, options?: { signal?: AbortSignal }): Promise<number> {
    const last = (await this.getLastTrade(symbol, options)) as LastTradeResponse;
    const price = last?.results?.p;
    if (typeof price !== 'number')
      throw new DecodeError(`The last trade of ${symbol} has no price (results.p)`, 200);
    return price;
  }
}

/** The synchronous Stocks client: the same operations, returning their results directly. */
export type SyncStocksClient = SyncOf<AsyncStocksClient>;

/**
 * Creates a Stocks client: synchronous by default, asynchronous with `useAsync: true`. The key falls
 * back to `MASSIVE_API_KEY`, then `POLYGON_API_KEY`.
 *
 * @example
 * const stocks = StocksClient(undefined, { baseUrl: 'http://127.0.0.1:8765' });
 * const last = stocks.getLastTrade('AAPL');
 * stocks.close();
 */
export const StocksClient = clientFactory(AsyncStocksClient, 'AsyncStocksClient');
