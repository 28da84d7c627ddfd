/**
 * `mdq/legacy`: the older client shape (SPEC 9.2), for code ported from it.
 *
 * @example
 * import { StocksClient } from 'mdq/legacy';
 * const stocks = new StocksClient(process.env.MASSIVE_API_KEY, true);
 * const trades = await stocks.asyncGetTradesV3('AAPL', { limit: 10 });
 * const next = trades.next_url && (await stocks.asyncGetNextPageByUrl(trades.next_url));
 * await stocks.asyncClose();
 */

import {
  type AsyncCryptoClient,
  CryptoClient as CurrentCryptoClient,
  cryptoOperations,
} from './clients/crypto.js';
import {
  type AsyncForexClient,
  ForexClient as CurrentForexClient,
  forexOperations,
} from './clients/forex.js';
import {
  type AsyncIndexClient,
  IndexClient as CurrentIndexClient,
  indicesOperations,
} from './clients/indices.js';
import {
  type AsyncOptionsClient,
  OptionsClient as CurrentOptionsClient,
  optionsOperations,
} from './clients/options.js';
import {
  type AsyncReferenceClient,
  ReferenceClient as CurrentReferenceClient,
  referenceOperations,
} from './clients/reference.js';
import {
  type AsyncStocksClient,
  StocksClient as CurrentStocksClient,
  stocksOperations,
} from './clients/stocks.js';
import { type LegacyClientBase, type LegacyMethods, legacyClientClass } from './legacy/legacy-client.js';

export type {
  LegacyCallOptions,
  LegacyClientBase,
  LegacyClientClass,
  LegacyClientOptions,
  LegacyMethods,
  LegacyOperationName,
} from './legacy/legacy-client.js';

/** Stocks in the older shape: `getTrades` … `getGainersAndLosers`, each also as `asyncGet…`. */
export const StocksClient = legacyClientClass<AsyncStocksClient, typeof stocksOperations>(
  'StocksClient',
  CurrentStocksClient as never,
  stocksOperations,
);
/** An instance of {@link StocksClient}. */
export type StocksClient = LegacyClientBase & LegacyMethods<AsyncStocksClient, typeof stocksOperations>;

/** Options in the older shape. */
export const OptionsClient = legacyClientClass<AsyncOptionsClient, typeof optionsOperations>(
  'OptionsClient',
  CurrentOptionsClient as never,
  optionsOperations,
);
/** An instance of {@link OptionsClient}. */
export type OptionsClient = LegacyClientBase & LegacyMethods<AsyncOptionsClient, typeof optionsOperations>;

/** Indices in the older shape. */
export const IndexClient = legacyClientClass<AsyncIndexClient, typeof indicesOperations>(
  'IndexClient',
  CurrentIndexClient as never,
  indicesOperations,
);
/** An instance of {@link IndexClient}. */
export type IndexClient = LegacyClientBase & LegacyMethods<AsyncIndexClient, typeof indicesOperations>;

/** Forex in the older shape. */
export const ForexClient = legacyClientClass<AsyncForexClient, typeof forexOperations>(
  'ForexClient',
  CurrentForexClient as never,
  forexOperations,
);
/** An instance of {@link ForexClient}. */
export type ForexClient = LegacyClientBase & LegacyMethods<AsyncForexClient, typeof forexOperations>;

/** Crypto in the older shape. */
export const CryptoClient = legacyClientClass<AsyncCryptoClient, typeof cryptoOperations>(
  'CryptoClient',
  CurrentCryptoClient as never,
  cryptoOperations,
);
/** An instance of {@link CryptoClient}. */
export type CryptoClient = LegacyClientBase & LegacyMethods<AsyncCryptoClient, typeof cryptoOperations>;

/** Reference data in the older shape. */
export const ReferenceClient = legacyClientClass<AsyncReferenceClient, typeof referenceOperations>(
  'ReferenceClient',
  CurrentReferenceClient as never,
  referenceOperations,
);
/** An instance of {@link ReferenceClient}. */
export type ReferenceClient = LegacyClientBase &
  LegacyMethods<AsyncReferenceClient, typeof referenceOperations>;
