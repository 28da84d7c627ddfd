import { BaseClient, type CallOptions, type PagedCall } from '../core/client.js';
import type { ClientOptions } from '../core/client-options.js';
import { InvalidParameterError } from '../core/errors.js';
import { type FullRangeBar, type FullRangeProgress, fetchFullRange } from '../core/full-range.js';
import { NEW_YORK } from '../dates/time-zone.js';
import {
  FUTURES_VERSIONS,
  type FuturesVersion,
  futuresOperations,
  futuresOperationsVX,
} from '../operations/futures.js';
import { normalizeFuturesTicker } from '../symbols/futures-ticker.js';
import type {
  FuturesAggregate,
  FuturesContract,
  FuturesExchange,
  FuturesListResponse,
  FuturesMarketStatus,
  FuturesProduct,
  FuturesQuote,
  FuturesSchedule,
  FuturesSnapshot,
  FuturesTrade,
} from '../types/futures.js';
import { clientFactory, type SyncOf } from './sync-client.js';

export { futuresOperations, futuresOperationsVX };

/** Options of {@link AsyncFuturesClient.getFullRangeAggregates}. */
export interface FuturesFullRangeOptions {
  /**
   * Candle size in seconds, minutes or hours (`1min`, `5min`, `1hour`…): longer candles fit one page.
   * @default '1min'
   */
  resolution?: string;
  /** @default 'asc' */
  sort?: 'asc' | 'desc';
  /** @default true */
  runParallel?: boolean;
  /** @default 10 */
  maxConcurrentWorkers?: number;
  /** Smaller chunks, for heavily traded contracts. @default false */
  highVolatility?: boolean;
  /** Called after each chunk. */
  onProgress?: (progress: FullRangeProgress) => void;
  signal?: AbortSignal;
}

const INTRADAY = /^(\d+)(sec|min|hour)$/;
const TIMESPAN_OF_UNIT: Readonly<Record<string, string>> = { sec: 'second', min: 'minute', hour: 'hour' };

/** Options of the Futures client: the common client options plus the path generation. */
export interface FuturesClientOptions extends ClientOptions {
  /**
   * Path generation of the futures endpoints: `v1` (`/futures/v1/...`, current) or `vX`
   * (`/futures/vX/...`, the older one; same parameters and answers).
   * @default 'v1'
   */
  version?: FuturesVersion;
}

function futuresVersion(value: unknown): FuturesVersion {
  if (value === undefined) return 'v1';
  if (FUTURES_VERSIONS.includes(value as FuturesVersion)) return value as FuturesVersion;
  throw new InvalidParameterError('version', value, `expected one of ${FUTURES_VERSIONS.join(', ')}`);
}

type Ops = typeof futuresOperations;
type Opt<K extends keyof Ops> = CallOptions<Ops[K]>;
type Paged<T, O> = PagedCall<FuturesListResponse<T>, O, T>;
// Contract tickers are checked whole (product code, month code, year) before any request.
const contract = (ticker: string) => normalizeFuturesTicker(ticker, 'ticker');

/** The asynchronous Futures client: every list is paged by `next_url`. */
export class AsyncFuturesClient extends BaseClient {
  /** The declarations of the chosen path generation. */
  protected readonly ops: Ops;
  /** CME Globex sessions end at 17:00 New York. */
  protected readonly timeZone = NEW_YORK;
  /** The path generation in use. */
  readonly version: FuturesVersion;

  constructor(apiKey?: string | null, options: FuturesClientOptions = {}) {
    const version = futuresVersion(options?.version);
    super(apiKey, options);
    this.version = version;
    this.ops = (version === 'vX' ? futuresOperationsVX : futuresOperations) as Ops;
  }

  /** Candles of a contract at a resolution (`1min`, `1hour`, `1session`…), newest first by default. */
  getAggregates<const O extends Opt<'getAggregates'>>(
    ticker: string,
    options?: O,
  ): Paged<FuturesAggregate, O> {
    return this.call(this.ops.getAggregates, [contract(ticker)], options);
  }

  /** Contracts as of a date: trade dates, tick sizes, venue. */
  getContracts<const O extends Opt<'getContracts'>>(options?: O): Paged<FuturesContract, O> {
    return this.call(this.ops.getContracts, [], options);
  }

  /** Products: name, venue, sector, asset class, settlement. */
  getProducts<const O extends Opt<'getProducts'>>(options?: O): Paged<FuturesProduct, O> {
    return this.call(this.ops.getProducts, [], options);
  }

  /** Session events of products by trading date. */
  getSchedules<const O extends Opt<'getSchedules'>>(options?: O): Paged<FuturesSchedule, O> {
    return this.call(this.ops.getSchedules, [], options);
  }

  /** Current market state of products. */
  getMarketStatus<const O extends Opt<'getMarketStatus'>>(options?: O): Paged<FuturesMarketStatus, O> {
    return this.call(this.ops.getMarketStatus, [], options);
  }

  /** The exchanges futures trade on. */
  getExchanges<const O extends Opt<'getExchanges'>>(options?: O): Paged<FuturesExchange, O> {
    return this.call(this.ops.getExchanges, [], options);
  }

  /** Latest trade, quote, minute bar and session of contracts. */
  getSnapshot<const O extends Opt<'getSnapshot'>>(options?: O): Paged<FuturesSnapshot, O> {
    return this.call(this.ops.getSnapshot, [], options);
  }

  /** Trades of a contract, nanosecond timestamps exact. */
  getTrades<const O extends Opt<'getTrades'>>(ticker: string, options?: O): Paged<FuturesTrade, O> {
    return this.call(this.ops.getTrades, [contract(ticker)], options);
  }

  /**
   * Every candle of a contract between two instants as one list, fetched in chunks (in parallel by
   * default) by `window_start` and merged: no gap, no duplicate, no 50000-candle cap. Bounds are days
   * (from midnight New York; an end day runs to its end) or Unix ms. Second, minute and hour candles only.
   */
  async getFullRangeAggregates(
    ticker: string,
    fromDate: Date | string | number,
    toDate: Date | string | number,
    options: FuturesFullRangeOptions = {},
  ): Promise<FuturesAggregate[]> {
    const symbol = contract(ticker);
    const { resolution = '1min', sort = 'asc', signal } = options;
    const unit = typeof resolution === 'string' ? INTRADAY.exec(resolution) : null;
    // The declaration checks the multiplier's range; the unit must be short enough to chunk by days.
    if (!unit) {
      throw new InvalidParameterError(
        'resolution',
        resolution,
        'expected second, minute or hour candles for a full range (e.g. 1min, 5min, 1hour); longer candles fit one page',
      );
    }
    for (const key of ['runParallel', 'highVolatility'] as const) {
      if (options[key] !== undefined && typeof options[key] !== 'boolean') {
        throw new InvalidParameterError(key, options[key], 'expected true or false');
      }
    }
    if (sort !== 'asc' && sort !== 'desc')
      throw new InvalidParameterError('sort', sort, 'expected asc or desc');
    const bars = await fetchFullRange(
      {
        from: fromDate as never,
        to: toDate as never,
        timespan: TIMESPAN_OF_UNIT[unit[2] as string] as string,
        multiplier: Number(unit[1]),
        sort,
        runParallel: options.runParallel !== false,
        maxConcurrentWorkers: options.maxConcurrentWorkers ?? 10,
        highVolatility: options.highVolatility === true,
        info: false,
        warnings: false,
        timeZone: this.timeZone,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(signal ? { signal } : {}),
      },
      async (fromMs, toMs, chunkSignal) => {
        const page = await this.getAggregates(symbol, {
          resolution,
          windowStartGte: BigInt(fromMs) * 1_000_000n,
          windowStartLte: BigInt(toMs) * 1_000_000n + 999_999n,
          sort: 'window_start.asc',
          limit: 50000,
          allPages: true,
          signal: chunkSignal,
        });
        // The merge orders and trims by `t` (ms), read from the exact nanosecond window start.
        const bars = (page.results ?? []).map((bar) => ({ ...bar, t: msOf(bar.window_start) }));
        return { bars: bars as unknown as FullRangeBar[], ...(page.status ? { status: page.status } : {}) };
      },
    );
    return bars.map(({ t: _t, ...bar }) => bar as unknown as FuturesAggregate);
  }

  /** Quotes of a contract, nanosecond timestamps exact. */
  getQuotes<const O extends Opt<'getQuotes'>>(ticker: string, options?: O): Paged<FuturesQuote, O> {
    return this.call(this.ops.getQuotes, [contract(ticker)], options);
  }
}

function msOf(ns: unknown): number {
  if (typeof ns === 'bigint') return Number(ns / 1_000_000n);
  return typeof ns === 'number' ? Math.floor(ns / 1_000_000) : Number.NaN;
}

/** The synchronous Futures client. */
export type SyncFuturesClient = SyncOf<AsyncFuturesClient>;

/** Creates a Futures client: synchronous by default, asynchronous with `useAsync: true`. */
export interface FuturesClientFactory {
  (apiKey: string | undefined | null, options: FuturesClientOptions & { useAsync: true }): AsyncFuturesClient;
  (apiKey?: string | null, options?: FuturesClientOptions & { useAsync?: false }): SyncFuturesClient;
}

const factory = clientFactory(AsyncFuturesClient, 'AsyncFuturesClient');

/**
 * Creates a Futures client: synchronous by default, asynchronous with `useAsync: true`.
 *
 * @example FuturesClient(key, { useAsync: true }).getAggregates('ESZ3', { resolution: '1min' })
 */
export const FuturesClient = ((apiKey?: string | null, options: FuturesClientOptions = {}) => {
  // Checked here: the synchronous client builds its async twin on another thread.
  futuresVersion(options?.version);
  return factory(apiKey, options as never);
}) as FuturesClientFactory;
