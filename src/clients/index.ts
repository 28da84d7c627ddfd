export { AsyncCryptoClient, CryptoClient, cryptoOperations, type SyncCryptoClient } from './crypto.js';
export { AsyncForexClient, ForexClient, forexOperations, type SyncForexClient } from './forex.js';
export {
  AsyncFuturesClient,
  FuturesClient,
  type FuturesClientFactory,
  type FuturesClientOptions,
  type FuturesFullRangeOptions,
  futuresOperations,
  futuresOperationsVX,
  type SyncFuturesClient,
} from './futures.js';
export { AsyncIndexClient, IndexClient, indicesOperations, type SyncIndexClient } from './indices.js';
export { AsyncOptionsClient, OptionsClient, optionsOperations, type SyncOptionsClient } from './options.js';
export {
  AsyncReferenceClient,
  ReferenceClient,
  referenceOperations,
  type SyncReferenceClient,
} from './reference.js';
export { AsyncStocksClient, StocksClient, type SyncStocksClient, stocksOperations } from './stocks.js';
export type { ClientFactory, SyncMethod, SyncOf, SyncResult, SyncValue } from './sync-client.js';
