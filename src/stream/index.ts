/**
 * Streaming clients, one per market, on the service's WebSocket protocol.
 */
import { resolveApiKey } from '../core/client-options.js';
import type { StreamMarket } from './channels.js';
import type {
  CryptoEvent,
  ForexEvent,
  FuturesEvent,
  IndicesEvent,
  MarketEvents,
  OptionsEvent,
  StocksEvent,
} from './events.js';
import { MarketStream } from './market-stream.js';
import { resolveStreamOptions, type StreamOptions } from './stream-options.js';

export { STREAM_CHANNELS, STREAM_MARKETS, type StreamMarket } from './channels.js';
export type { OverflowPolicy } from './event-queue.js';
export type * from './events.js';
export { MarketStream, type ReconnectInfo, type StreamListeners } from './market-stream.js';
export { DEFAULT_STREAM_URL, DELAYED_STREAM_URL, type StreamOptions } from './stream-options.js';

/**
 * A stream of `market`. The key: the argument, else `MASSIVE_API_KEY`, else `POLYGON_API_KEY`.
 *
 * @throws MissingApiKeyError, or InvalidParameterError naming a bad option.
 */
export function openStream<M extends StreamMarket>(
  market: M,
  apiKey?: string | null,
  options?: StreamOptions,
): MarketStream<MarketEvents[M]> {
  const resolved = resolveStreamOptions(options);
  return new MarketStream<MarketEvents[M]>(market, resolveApiKey(apiKey, resolved.baseUrl), resolved);
}

/**
 * Real-time stock trades (`T`), quotes (`Q`), second and minute aggregates (`A`, `AM`), limit up / limit
 * down bands (`LULD`), net order imbalances of the auctions (`NOI`) and fair market values (`FMV`).
 *
 * @example
 * const stream = StocksStream(process.env.MASSIVE_API_KEY);
 * stream.subscribe('T.AAPL', 'AM.*');
 * for await (const ev of stream) if (ev.ev === 'T') console.log(ev.sym, ev.p, ev.s);
 */
export function StocksStream(apiKey?: string | null, options?: StreamOptions): MarketStream<StocksEvent> {
  return openStream('stocks', apiKey, options);
}

/** Option trades, quotes, aggregates and fair market values: `T.O:SPY230803C00430000`, `AM.*`. */
export function OptionsStream(apiKey?: string | null, options?: StreamOptions): MarketStream<OptionsEvent> {
  return openStream('options', apiKey, options);
}

/** Forex quotes (`C`), minute and second aggregates (`CA`, `CAS`), fair market values: `C.C:EUR-USD`. */
export function ForexStream(apiKey?: string | null, options?: StreamOptions): MarketStream<ForexEvent> {
  return openStream('forex', apiKey, options);
}

/** Crypto trades (`XT`), quotes (`XQ`), aggregates (`XA`, `XAS`), level 2 books (`XL2`), fair market values. */
export function CryptoStream(apiKey?: string | null, options?: StreamOptions): MarketStream<CryptoEvent> {
  return openStream('crypto', apiKey, options);
}

/** Index values (`V.I:SPX`) and their second and minute aggregates (`A`, `AM`). */
export function IndicesStream(apiKey?: string | null, options?: StreamOptions): MarketStream<IndicesEvent> {
  return openStream('indices', apiKey, options);
}

/**
 * Futures trades (`T`), best bids and offers (`Q`) and minute aggregates (`AM`) of contracts:
 * `T.ESZ3`, `AM.*`.
 */
export function FuturesStream(apiKey?: string | null, options?: StreamOptions): MarketStream<FuturesEvent> {
  return openStream('futures', apiKey, options);
}
