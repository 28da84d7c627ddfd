import type { CallOptions, PagedCall } from '../core/client.js';
import { BaseClient } from '../core/client.js';
import type { ClientOptions } from '../core/client-options.js';
import { InvalidParameterError } from '../core/errors.js';
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

  /** Quotes of a contract, nanosecond timestamps exact. */
  getQuotes<const O extends Opt<'getQuotes'>>(ticker: string, options?: O): Paged<FuturesQuote, O> {
    return this.call(this.ops.getQuotes, [contract(ticker)], options);
  }
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
