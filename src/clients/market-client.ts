import { BaseClient, type Call, type CallOptions, type PagedCall } from '../core/client.js';
import type { OperationSpec } from '../core/operation.js';
import type {
  Aggregate,
  AggregatesResponse,
  GroupedDailyResponse,
  IndicatorResponse,
  IndicatorValue,
  PreviousCloseResponse,
} from '../types/common.js';

/** The operations every asset-class client has: bars, previous close and the four indicators. */
export interface MarketOperations {
  readonly getAggregateBars: OperationSpec;
  readonly getPreviousClose: OperationSpec;
  readonly getSma: OperationSpec;
  readonly getEma: OperationSpec;
  readonly getRsi: OperationSpec;
  readonly getMacd: OperationSpec;
}

type Indicator<O> = PagedCall<IndicatorResponse, O, IndicatorValue>;

/**
 * The methods shared by the stocks, options, indices, forex and crypto clients, over each client's own
 * declarations (`ops`): which prefix a symbol takes, which parameters exist and their defaults.
 */
export abstract class MarketClient<Ops extends MarketOperations> extends BaseClient {
  /** The client's operation declarations. */
  protected abstract readonly ops: Ops;

  /** Checks or normalises a symbol before the request is built (options contracts are checked whole). */
  protected symbol(symbol: string, _parameter: string): string {
    return symbol;
  }

  /**
   * Aggregate bars over a window. With `fullRange: true` the range is fetched in chunks (in parallel by
   * default) and one list of bars is returned: no gap, no duplicate, no 50000-bar cap.
   */
  getAggregateBars<const O extends CallOptions<Ops['getAggregateBars']>>(
    symbol: string,
    fromDate: Date | string | number,
    toDate: Date | string | number,
    options?: O,
  ): PagedCall<AggregatesResponse, O, Aggregate, Aggregate> {
    return this.call(this.ops.getAggregateBars, [this.symbol(symbol, 'symbol'), fromDate, toDate], options);
  }

  /**
   * Every bar of a range as one list (the SPEC's full-range operation); timespan defaults to minute.
   * With `columnar: true`, the bars as `BarColumns`.
   */
  getFullRangeAggregateBars<
    const O extends Omit<CallOptions<Ops['getAggregateBars']>, 'fullRange' | 'limit' | 'rawResponse'>,
  >(
    symbol: string,
    fromDate: Date | string | number,
    toDate: Date | string | number,
    options?: O,
  ): Call<AggregatesResponse, O & { fullRange: true }, Aggregate, { fullRange: true }> {
    return this.call(this.ops.getAggregateBars, [this.symbol(symbol, 'symbol'), fromDate, toDate], {
      timespan: 'minute',
      ...options,
      fullRange: true,
    });
  }

  /** The previous trading day's bar. */
  getPreviousClose<const O extends CallOptions<Ops['getPreviousClose']>>(
    symbol: string,
    options?: O,
  ): Call<PreviousCloseResponse, O> {
    return this.call(this.ops.getPreviousClose, [this.symbol(symbol, 'symbol')], options);
  }

  /** Simple moving average. */
  getSma<const O extends CallOptions<Ops['getSma']>>(symbol: string, options?: O): Indicator<O> {
    return this.call(this.ops.getSma, [this.symbol(symbol, 'symbol')], options);
  }

  /** Exponential moving average. */
  getEma<const O extends CallOptions<Ops['getEma']>>(symbol: string, options?: O): Indicator<O> {
    return this.call(this.ops.getEma, [this.symbol(symbol, 'symbol')], options);
  }

  /** Relative strength index. */
  getRsi<const O extends CallOptions<Ops['getRsi']>>(symbol: string, options?: O): Indicator<O> {
    return this.call(this.ops.getRsi, [this.symbol(symbol, 'symbol')], options);
  }

  /** Moving average convergence/divergence. */
  getMacd<const O extends CallOptions<Ops['getMacd']>>(symbol: string, options?: O): Indicator<O> {
    return this.call(this.ops.getMacd, [this.symbol(symbol, 'symbol')], options);
  }
}

/** The operations of a whole market (stocks, forex, crypto): grouped daily bars and snapshots. */
export interface WholeMarketOperations extends MarketOperations {
  readonly getGroupedDailyBars: OperationSpec;
  readonly getSnapshot: OperationSpec;
  readonly getSnapshotAll: OperationSpec;
  readonly getGainersAndLosers: OperationSpec;
}

/**
 * The methods shared by the stocks, forex and crypto clients beyond those of {@link MarketClient}: the
 * whole market's daily bars, snapshots and movers, typed by the market's snapshot shapes.
 */
export abstract class WholeMarketClient<
  Ops extends WholeMarketOperations,
  One,
  Many,
> extends MarketClient<Ops> {
  /** Daily bars of every ticker of the market on one date. */
  getGroupedDailyBars<const O extends CallOptions<Ops['getGroupedDailyBars']>>(
    date: Date | string,
    options?: O,
  ): Call<GroupedDailyResponse, O> {
    return this.call(this.ops.getGroupedDailyBars, [date], options);
  }

  /** Current minute, day and previous-day bars plus the last trade and quote of one ticker. */
  getSnapshot<const O extends CallOptions<Ops['getSnapshot']>>(symbol: string, options?: O): Call<One, O> {
    return this.call(this.ops.getSnapshot, [this.symbol(symbol, 'symbol')], options);
  }

  /** Snapshots of every ticker of the market, or of `symbols` only. */
  getSnapshotAll<const O extends CallOptions<Ops['getSnapshotAll']>>(options?: O): Call<Many, O> {
    return this.call(this.ops.getSnapshotAll, [], options);
  }

  /** The top 20 gainers or losers of the day (`direction`). */
  getGainersAndLosers<const O extends CallOptions<Ops['getGainersAndLosers']>>(options?: O): Call<Many, O> {
    return this.call(this.ops.getGainersAndLosers, [], options);
  }
}
