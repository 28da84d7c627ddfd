import { BaseClient, type CallOptions, type Result } from '../core/client.js';
import type { PagePromise } from '../core/page-promise.js';
import { NEW_YORK } from '../dates/time-zone.js';
import { aggregateBars, dailyOpenClose, previousClose } from '../operations/aggregates.js';
import { indicators } from '../operations/indicators.js';
import { indicesSnapshot } from '../operations/snapshots.js';
import type {
  Aggregate,
  AggregatesResponse,
  DailyOpenCloseResponse,
  IndicatorResponse,
  IndicatorValue,
  PreviousCloseResponse,
} from '../types/common.js';
import type { IndexSnapshot, ListResponse } from '../types/other.js';
import { clientFactory, type SyncOf } from './sync-client.js';

/**
 * The Indices operations (SPEC 4.5). `I:` is optional everywhere. Index values have no splits: the
 * aggregates accept `adjusted` (default false) for compatibility and never send it.
 */
export const indicesOperations = {
  getPreviousClose: previousClose('I:', false),
  getDailyOpenClose: dailyOpenClose('I:', false),
  getAggregateBars: aggregateBars('I:', 'client'),
  getSnapshot: indicesSnapshot,
  ...indicators('I:'),
} as const;

const ops = indicesOperations;
type Opt<K extends keyof typeof ops> = CallOptions<(typeof ops)[K]>;
type Indicator<O> = PagePromise<Result<IndicatorResponse, O>, IndicatorValue>;

/** The asynchronous Indices client. */
export class AsyncIndexClient extends BaseClient {
  protected readonly timeZone = NEW_YORK;

  /** The previous trading day's bar of an index. */
  getPreviousClose<const O extends Opt<'getPreviousClose'>>(
    symbol: string,
    options?: O,
  ): Promise<Result<PreviousCloseResponse, O>> {
    return this.call(ops.getPreviousClose, [symbol], options);
  }

  /** Open, close and after-hours values of an index on one date. */
  getDailyOpenClose<const O extends Opt<'getDailyOpenClose'>>(
    symbol: string,
    date: Date | string,
    options?: O,
  ): Promise<Result<DailyOpenCloseResponse, O>> {
    return this.call(ops.getDailyOpenClose, [symbol, date], options);
  }

  /** Aggregate bars of an index; `fullRange: true` fetches the whole range in chunks. */
  getAggregateBars<const O extends Opt<'getAggregateBars'>>(
    symbol: string,
    fromDate: Date | string | number,
    toDate: Date | string | number,
    options?: O,
  ): PagePromise<Result<AggregatesResponse, O, Aggregate>, Aggregate> {
    return this.call(ops.getAggregateBars, [symbol, fromDate, toDate], options);
  }

  /** Every bar of a range as one list; timespan defaults to minute. */
  getFullRangeAggregateBars(
    symbol: string,
    fromDate: Date | string | number,
    toDate: Date | string | number,
    options?: Omit<Opt<'getAggregateBars'>, 'fullRange' | 'limit' | 'rawResponse'>,
  ): Promise<Aggregate[]> {
    return this.call(ops.getAggregateBars, [symbol, fromDate, toDate], {
      timespan: 'minute',
      ...options,
      fullRange: true,
    });
  }

  /** Snapshot of indices (`symbols`: at most 250; all when omitted), paged by `next_url`. */
  getSnapshot<const O extends Opt<'getSnapshot'>>(
    options?: O,
  ): PagePromise<Result<ListResponse<IndexSnapshot>, O>, IndexSnapshot> {
    return this.call(ops.getSnapshot, [], options);
  }

  /** Simple moving average. */
  getSma<const O extends Opt<'getSma'>>(symbol: string, options?: O): Indicator<O> {
    return this.call(ops.getSma, [symbol], options);
  }

  /** Exponential moving average. */
  getEma<const O extends Opt<'getEma'>>(symbol: string, options?: O): Indicator<O> {
    return this.call(ops.getEma, [symbol], options);
  }

  /** Relative strength index. */
  getRsi<const O extends Opt<'getRsi'>>(symbol: string, options?: O): Indicator<O> {
    return this.call(ops.getRsi, [symbol], options);
  }

  /** Moving average convergence/divergence. */
  getMacd<const O extends Opt<'getMacd'>>(symbol: string, options?: O): Indicator<O> {
    return this.call(ops.getMacd, [symbol], options);
  }
}

/** The synchronous Indices client. */
export type SyncIndexClient = SyncOf<AsyncIndexClient>;

/** Creates an Indices client: synchronous by default, asynchronous with `useAsync: true`. */
export const IndexClient = clientFactory(AsyncIndexClient, 'AsyncIndexClient');
