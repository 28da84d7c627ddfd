import { BaseClient, type Call, type CallOptions, type PagedCall } from '../core/client.js';
import { InvalidParameterError } from '../core/errors.js';
import type { DateInput } from '../core/operation.js';
import { Semaphore } from '../core/semaphore.js';
import { encodeParam } from '../core/wire-values.js';
import { getDatesBetween } from '../dates/get-dates-between.js';
import { NEW_YORK } from '../dates/time-zone.js';
import {
  conditions,
  dividends,
  exchanges,
  ipos,
  iposV1,
  marketHolidays,
  marketStatus,
  optionContract,
  optionContracts,
  relatedCompanies,
  splits,
  stockFinancials,
  tickerDetails,
  tickerEvents,
  tickerNews,
  tickers,
  tickerTypes,
} from '../operations/reference.js';
import { snapshotSummaries, universalSnapshot } from '../operations/snapshots.js';
import { normalizeOptionTicker } from '../symbols/prefix.js';
import type {
  Condition,
  ConditionsResponse,
  Dividend,
  DividendsResponse,
  ExchangesResponse,
  Financials,
  FinancialsResponse,
  Ipo,
  IposResponse,
  MarketHoliday,
  MarketStatusResponse,
  NewsArticle,
  NewsResponse,
  OptionContract,
  OptionContractResponse,
  OptionContractsResponse,
  RelatedCompaniesResponse,
  Split,
  SplitsResponse,
  SummariesResponse,
  TickerDetailsResponse,
  TickerEventsResponse,
  TickerInfo,
  TickersResponse,
  TickerTypesResponse,
  UniversalSnapshot,
  UniversalSnapshotResponse,
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
  getStockFinancialsVx: stockFinancials,
  getTickerEvents: tickerEvents,
  getUniversalSnapshot: universalSnapshot,
  getSummaries: snapshotSummaries,
  getRelatedCompanies: relatedCompanies,
  getIpos: ipos,
  getIposV1: iposV1,
} as const;

const ops = referenceOperations;
type Opt<K extends keyof typeof ops> = CallOptions<(typeof ops)[K]>;

/** The asynchronous reference-data client. */
export class AsyncReferenceClient extends BaseClient {
  protected readonly timeZone = NEW_YORK;

  /** Option contracts matching the filters (underlying, type, expiration range, `expired`, `asOf`). */
  getOptionContracts<const O extends Opt<'getOptionContracts'>>(
    options?: O,
  ): PagedCall<OptionContractsResponse, O, OptionContract> {
    return this.call(ops.getOptionContracts, [], options);
  }

  /** One option contract (`O:` optional). */
  getOptionContract<const O extends Opt<'getOptionContract'>>(
    ticker: string,
    options?: O,
  ): Call<OptionContractResponse, O> {
    return this.call(ops.getOptionContract, [normalizeOptionTicker(ticker, 'ticker')], options);
  }

  /** Tickers of every asset class, filtered. */
  getTickers<const O extends Opt<'getTickers'>>(options?: O): PagedCall<TickersResponse, O, TickerInfo> {
    return this.call(ops.getTickers, [], options);
  }

  /** Details of one ticker. */
  getTickerDetails<const O extends Opt<'getTickerDetails'>>(
    symbol: string,
    options?: O,
  ): Call<TickerDetailsResponse, O> {
    return this.call(ops.getTickerDetails, [symbol], options);
  }

  /** The ticker type codes. */
  getTickerTypes<const O extends Opt<'getTickerTypes'>>(options?: O): Call<TickerTypesResponse, O> {
    return this.call(ops.getTickerTypes, [], options);
  }

  /** News articles. */
  getTickerNews<const O extends Opt<'getTickerNews'>>(options?: O): PagedCall<NewsResponse, O, NewsArticle> {
    return this.call(ops.getTickerNews, [], options);
  }

  /** Cash dividends. */
  getStockDividends<const O extends Opt<'getStockDividends'>>(
    options?: O,
  ): PagedCall<DividendsResponse, O, Dividend> {
    return this.call(ops.getStockDividends, [], options);
  }

  /** Stock splits. */
  getStockSplits<const O extends Opt<'getStockSplits'>>(options?: O): PagedCall<SplitsResponse, O, Split> {
    return this.call(ops.getStockSplits, [], options);
  }

  /** Whether the markets are open right now. */
  getMarketStatus<const O extends Opt<'getMarketStatus'>>(options?: O): Call<MarketStatusResponse, O> {
    return this.call(ops.getMarketStatus, [], options);
  }

  /** Upcoming market holidays and early closes. */
  getMarketHolidays<const O extends Opt<'getMarketHolidays'>>(options?: O): Call<MarketHoliday[], O> {
    return this.call(ops.getMarketHolidays, [], options);
  }

  /** Trade and quote condition codes. */
  getConditions<const O extends Opt<'getConditions'>>(
    options?: O,
  ): PagedCall<ConditionsResponse, O, Condition> {
    return this.call(ops.getConditions, [], options);
  }

  /** Exchanges. */
  getExchanges<const O extends Opt<'getExchanges'>>(options?: O): Call<ExchangesResponse, O> {
    return this.call(ops.getExchanges, [], options);
  }

  /** Financial statements from SEC filings (the experimental vX endpoint), paged by `next_url`. */
  getStockFinancialsVx<const O extends Opt<'getStockFinancialsVx'>>(
    options?: O,
  ): PagedCall<FinancialsResponse, O, Financials> {
    return this.call(ops.getStockFinancialsVx, [], options);
  }

  /** The ticker changes of a company (the experimental vX endpoint), by ticker, CUSIP or FIGI. */
  getTickerEvents<const O extends Opt<'getTickerEvents'>>(
    id: string,
    options?: O,
  ): Call<TickerEventsResponse, O> {
    return this.call(ops.getTickerEvents, [id], options);
  }

  /** Snapshots of tickers of any asset class (stocks, options, forex, crypto, indices), paged by `next_url`. */
  getUniversalSnapshot<const O extends Opt<'getUniversalSnapshot'>>(
    options?: O,
  ): PagedCall<UniversalSnapshotResponse, O, UniversalSnapshot> {
    return this.call(ops.getUniversalSnapshot, [], options);
  }

  /** Tickers of companies related to one. */
  getRelatedCompanies<const O extends Opt<'getRelatedCompanies'>>(
    symbol: string,
    options?: O,
  ): Call<RelatedCompaniesResponse, O> {
    return this.call(ops.getRelatedCompanies, [symbol], options);
  }

  /** Initial public offerings (the experimental vX endpoint), paged by `next_url`. */
  getIpos<const O extends Opt<'getIpos'>>(options?: O): PagedCall<IposResponse, O, Ipo> {
    return this.call(ops.getIpos, [], options);
  }

  /**
   * Initial public offerings (the v1 endpoint), paged by `next_url`: filters with `.any_of` and ranges,
   * and `sort` as comma-separated columns, each `.asc` or `.desc` (`ticker.asc,listing_date.desc`).
   */
  getIposV1<const O extends Opt<'getIposV1'>>(options?: O): PagedCall<IposResponse, O, Ipo> {
    return this.call(ops.getIposV1, [], options);
  }

  /** Price, session and change of tickers of any asset class. */
  getSummaries<const O extends Opt<'getSummaries'>>(options?: O): Call<SummariesResponse, O> {
    return this.call(ops.getSummaries, [], options);
  }

  /**
   * The details of one ticker as they were on each date of `fromDate`..`toDate` (inclusive) and of
   * `customDates`: one `getTickerDetails` request per distinct date, in date order (`sort`). A failing
   * date stops the scheduling of the others and the call rejects with that date's error.
   *
   * @returns the details by `YYYY-MM-DD` date, in `sort` order.
   * @throws InvalidParameterError without `customDates` nor both `fromDate` and `toDate`.
   */
  async getBulkTickerDetails(
    symbol: string,
    options: BulkTickerDetailsOptions = {},
  ): Promise<Record<string, TickerDetailsResponse>> {
    const {
      fromDate,
      toDate,
      customDates,
      runParallel = true,
      maxConcurrentWorkers = 10,
      sort = 'asc',
    } = options;
    const dateParam = ops.getTickerDetails.params[1];
    if (customDates === undefined && (fromDate === undefined || toDate === undefined)) {
      throw new InvalidParameterError(
        fromDate === undefined ? 'fromDate' : 'toDate',
        fromDate === undefined ? fromDate : toDate,
        'give customDates, or fromDate and toDate',
      );
    }
    if (customDates !== undefined && !Array.isArray(customDates)) {
      throw new InvalidParameterError('customDates', customDates, 'expected a list of dates');
    }
    if (sort !== 'asc' && sort !== 'desc')
      throw new InvalidParameterError('sort', sort, "expected 'asc' or 'desc'");
    const days = new Set<string>(
      fromDate !== undefined && toDate !== undefined
        ? getDatesBetween(
            encodeParam({ ...dateParam, name: 'fromDate' }, fromDate),
            encodeParam({ ...dateParam, name: 'toDate' }, toDate),
          )
        : [],
    );
    for (const day of customDates ?? []) days.add(encodeParam({ ...dateParam, name: 'customDates' }, day));
    const ordered = [...days].sort();
    if (sort === 'desc') ordered.reverse();
    const semaphore = new Semaphore(runParallel ? maxConcurrentWorkers : 1, 'maxConcurrentWorkers');
    const found = new Map<string, TickerDetailsResponse>();
    let failure: { error: unknown } | undefined;
    const running: Promise<void>[] = [];
    for (const day of ordered) {
      const release = await semaphore.acquire();
      if (failure) {
        release();
        break;
      }
      const request = this.getTickerDetails(symbol, {
        date: day,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      running.push(
        request
          .then(
            (details) => {
              found.set(day, details);
            },
            (error: unknown) => {
              failure ??= { error };
            },
          )
          .finally(release),
      );
    }
    await Promise.all(running);
    if (failure) throw failure.error;
    return Object.fromEntries(ordered.map((day) => [day, found.get(day) as TickerDetailsResponse]));
  }
}

/** Options of {@link AsyncReferenceClient.getBulkTickerDetails}. */
export interface BulkTickerDetailsOptions {
  /** First date of the range (inclusive). */
  fromDate?: DateInput;
  /** Last date of the range (inclusive). */
  toDate?: DateInput;
  /** Dates to add to the range (or to use alone). */
  customDates?: readonly DateInput[];
  /**
   * Request several dates at once.
   * @default true
   */
  runParallel?: boolean;
  /**
   * Most requests in flight with `runParallel`.
   * @default 10
   */
  maxConcurrentWorkers?: number;
  /**
   * Order of the dates in the result.
   * @default 'asc'
   */
  sort?: 'asc' | 'desc';
  /** Cancels the requests. */
  signal?: AbortSignal;
}

/** The synchronous reference-data client. */
export type SyncReferenceClient = SyncOf<AsyncReferenceClient>;

/** Creates a reference-data client: synchronous by default, asynchronous with `useAsync: true`. */
export const ReferenceClient = clientFactory(AsyncReferenceClient, 'AsyncReferenceClient');
