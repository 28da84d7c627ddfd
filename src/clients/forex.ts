import type { Call, CallOptions, PagedCall } from '../core/client.js';
import { aggregateBars, groupedDaily, previousClose } from '../operations/aggregates.js';
import { indicators } from '../operations/indicators.js';
import { currencyConversion, lastForexQuote } from '../operations/last.js';
import { gainersAndLosers, snapshotAll, snapshotTicker } from '../operations/snapshots.js';
import { historicTicks, quotesV3 } from '../operations/trades-quotes.js';
import type {
  CurrencyConversionResponse,
  ForexQuote,
  HistoricForexTicksResponse,
  LastForexQuoteResponse,
  ListResponse,
  PairSnapshotResponse,
  PairSnapshotsResponse,
} from '../types/other.js';
import { WholeMarketClient } from './market-client.js';
import { clientFactory, type SyncOf } from './sync-client.js';

/** The Forex operations (SPEC 4.6). Combined symbols take `C:` optionally, everywhere. */
export const forexOperations = {
  realTimeCurrencyConversion: currencyConversion,
  getHistoricForexTicks: historicTicks('forex'),
  getQuotes: quotesV3({
    name: 'getQuotes',
    prefix: 'C:',
    symbolDoc: 'Currency pair, e.g. `EURUSD` (`C:` optional).',
  }),
  getLastQuote: lastForexQuote,
  getAggregateBars: aggregateBars('C:'),
  getGroupedDailyBars: groupedDaily('global/market/fx'),
  getPreviousClose: previousClose('C:'),
  getSnapshot: snapshotTicker('global/markets/forex'),
  getSnapshotAll: snapshotAll('global/markets/forex'),
  getGainersAndLosers: gainersAndLosers('global/markets/forex'),
  ...indicators('C:'),
} as const;

const ops = forexOperations;
type Opt<K extends keyof typeof ops> = CallOptions<(typeof ops)[K]>;

/** The asynchronous Forex client. Day boundaries are UTC. */
export class AsyncForexClient extends WholeMarketClient<
  typeof ops,
  PairSnapshotResponse,
  PairSnapshotsResponse
> {
  protected readonly ops = ops;
  protected readonly timeZone = 'UTC';

  /** Converts `amount` of one currency into another at the latest rate (either direction of a pair). */
  realTimeCurrencyConversion<const O extends Opt<'realTimeCurrencyConversion'>>(
    fromSymbol: string,
    toSymbol: string,
    amount: number,
    options?: O,
  ): Call<CurrencyConversionResponse, O> {
    return this.call(ops.realTimeCurrencyConversion, [fromSymbol, toSymbol, amount], options);
  }

  /** Quote ticks of a pair on one date, paged by the millisecond `offset` of the last tick. */
  getHistoricForexTicks<const O extends Opt<'getHistoricForexTicks'>>(
    fromSymbol: string,
    toSymbol: string,
    date: Date | string,
    options?: O,
  ): Call<HistoricForexTicksResponse, O> {
    return this.call(ops.getHistoricForexTicks, [fromSymbol, toSymbol, date], options);
  }

  /** Quotes of a pair in a time range, paged by `next_url`. */
  getQuotes<const O extends Opt<'getQuotes'>>(
    symbol: string,
    options?: O,
  ): PagedCall<ListResponse<ForexQuote>, O, ForexQuote> {
    return this.call(ops.getQuotes, [symbol], options);
  }

  /** The last quote of a pair. */
  getLastQuote<const O extends Opt<'getLastQuote'>>(
    fromSymbol: string,
    toSymbol: string,
    options?: O,
  ): Call<LastForexQuoteResponse, O> {
    return this.call(ops.getLastQuote, [fromSymbol, toSymbol], options);
  }
}

/** The synchronous Forex client. */
export type SyncForexClient = SyncOf<AsyncForexClient>;

/** Creates a Forex client: synchronous by default, asynchronous with `useAsync: true`. */
export const ForexClient = clientFactory(AsyncForexClient, 'AsyncForexClient');
