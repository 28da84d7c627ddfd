import type { Call, CallOptions, PagedCall } from '../core/client.js';
import {
  aggregateBars,
  cryptoDailyOpenClose,
  groupedDaily,
  previousClose,
} from '../operations/aggregates.js';
import { indicators } from '../operations/indicators.js';
import { lastCryptoTrade } from '../operations/last.js';
import { cryptoBook, gainersAndLosers, snapshotAll, snapshotTicker } from '../operations/snapshots.js';
import { historicTicks, tradesV3 } from '../operations/trades-quotes.js';
import type {
  CryptoBookResponse,
  CryptoOpenCloseResponse,
  CryptoTrade,
  HistoricCryptoTradesResponse,
  LastCryptoTradeResponse,
  ListResponse,
  PairSnapshotResponse,
  PairSnapshotsResponse,
} from '../types/other.js';
import { WholeMarketClient } from './market-client.js';
import { clientFactory, type SyncOf } from './sync-client.js';

/** The Crypto operations. Combined symbols take `X:` optionally; indicators accept `adjusted` but do not send it. */
export const cryptoOperations = {
  getHistoricTrades: historicTicks('crypto'),
  getTrades: tradesV3({
    name: 'getTrades',
    prefix: 'X:',
    symbolDoc: 'Crypto pair, e.g. `BTCUSD` (`X:` optional).',
  }),
  getLastTrade: lastCryptoTrade,
  getDailyOpenClose: cryptoDailyOpenClose,
  getAggregateBars: aggregateBars('X:'),
  getGroupedDailyBars: groupedDaily('global/market/crypto'),
  getPreviousClose: previousClose('X:'),
  getSnapshot: snapshotTicker('global/markets/crypto'),
  getSnapshotAll: snapshotAll('global/markets/crypto'),
  getGainersAndLosers: gainersAndLosers('global/markets/crypto'),
  getLevel2Book: cryptoBook,
  ...indicators('X:', false),
} as const;

const ops = cryptoOperations;
type Opt<K extends keyof typeof ops> = CallOptions<(typeof ops)[K]>;

/** The asynchronous Crypto client. Day boundaries are UTC. */
export class AsyncCryptoClient extends WholeMarketClient<
  typeof ops,
  PairSnapshotResponse,
  PairSnapshotsResponse
> {
  protected readonly ops = ops;
  protected readonly timeZone = 'UTC';

  /** Trades of a pair on one date, paged by the millisecond `offset` of the last trade. */
  getHistoricTrades<const O extends Opt<'getHistoricTrades'>>(
    fromSymbol: string,
    toSymbol: string,
    date: Date | string,
    options?: O,
  ): Call<HistoricCryptoTradesResponse, O> {
    return this.call(ops.getHistoricTrades, [fromSymbol, toSymbol, date], options);
  }

  /** Trades of a pair in a time range, paged by `next_url`. */
  getTrades<const O extends Opt<'getTrades'>>(
    symbol: string,
    options?: O,
  ): PagedCall<ListResponse<CryptoTrade>, O, CryptoTrade> {
    return this.call(ops.getTrades, [symbol], options);
  }

  /** The last trade of a pair. */
  getLastTrade<const O extends Opt<'getLastTrade'>>(
    fromSymbol: string,
    toSymbol: string,
    options?: O,
  ): Call<LastCryptoTradeResponse, O> {
    return this.call(ops.getLastTrade, [fromSymbol, toSymbol], options);
  }

  /** Open and close of a pair on one date (UTC), with the opening and closing trades. */
  getDailyOpenClose<const O extends Opt<'getDailyOpenClose'>>(
    fromSymbol: string,
    toSymbol: string,
    date: Date | string,
    options?: O,
  ): Call<CryptoOpenCloseResponse, O> {
    return this.call(ops.getDailyOpenClose, [fromSymbol, toSymbol, date], options);
  }

  /** The level 2 book of a pair. */
  getLevel2Book<const O extends Opt<'getLevel2Book'>>(
    symbol: string,
    options?: O,
  ): Call<CryptoBookResponse, O> {
    return this.call(ops.getLevel2Book, [symbol], options);
  }
}

/** The synchronous Crypto client. */
export type SyncCryptoClient = SyncOf<AsyncCryptoClient>;

/** Creates a Crypto client: synchronous by default, asynchronous with `useAsync: true`. */
export const CryptoClient = clientFactory(AsyncCryptoClient, 'AsyncCryptoClient');
