import {
  AsyncCryptoClient,
  AsyncForexClient,
  AsyncFuturesClient,
  AsyncIndexClient,
  AsyncOptionsClient,
  AsyncReferenceClient,
  AsyncStocksClient,
  cryptoOperations,
  forexOperations,
  futuresOperations,
  indicesOperations,
  optionsOperations,
  referenceOperations,
  stocksOperations,
} from '../clients/index.js';
import type { BaseClient } from '../core/client.js';
import type { ClientOptions } from '../core/client-options.js';
import type { OperationSpec } from '../core/operation.js';
import { NEW_YORK } from '../dates/time-zone.js';
import { isFuturesTicker } from '../symbols/futures-ticker.js';

/** One client of the CLI: its command word, its operation declarations and how to create it. */
export interface ClientFamily {
  /** The command word (`stocks`). */
  readonly name: string;
  readonly summary: string;
  readonly operations: Readonly<Record<string, OperationSpec>>;
  /** Time zone of readable times in tables (the market's day boundaries). */
  readonly timeZone: string;
  /** Client-level methods beyond the declarations that the CLI offers too. */
  readonly extras: readonly ('getFullRangeAggregateBars' | 'getCurrentPrice')[];
  create(apiKey: string | undefined, options: ClientOptions): BaseClient;
}

/** Every client the CLI offers, in `mdq --help` order. */
export const CLIENT_FAMILIES: readonly ClientFamily[] = [
  {
    name: 'stocks',
    summary: 'US stocks: trades, quotes, bars, snapshots, indicators',
    operations: stocksOperations,
    timeZone: NEW_YORK,
    extras: ['getFullRangeAggregateBars', 'getCurrentPrice'],
    create: (key, o) => new AsyncStocksClient(key, o),
  },
  {
    name: 'options',
    summary: 'US options: contracts, bars, chain snapshots, indicators',
    operations: optionsOperations,
    timeZone: NEW_YORK,
    extras: ['getFullRangeAggregateBars'],
    create: (key, o) => new AsyncOptionsClient(key, o),
  },
  {
    name: 'indices',
    summary: 'Indices: values as bars, snapshots, indicators',
    operations: indicesOperations,
    timeZone: NEW_YORK,
    extras: ['getFullRangeAggregateBars'],
    create: (key, o) => new AsyncIndexClient(key, o),
  },
  {
    name: 'forex',
    summary: 'Currencies: quotes, conversion, bars, snapshots',
    operations: forexOperations,
    timeZone: 'UTC',
    extras: ['getFullRangeAggregateBars'],
    create: (key, o) => new AsyncForexClient(key, o),
  },
  {
    name: 'crypto',
    summary: 'Crypto: trades, bars, snapshots, order book',
    operations: cryptoOperations,
    timeZone: 'UTC',
    extras: ['getFullRangeAggregateBars'],
    create: (key, o) => new AsyncCryptoClient(key, o),
  },
  {
    name: 'futures',
    summary: 'Futures: contracts, products, schedules, bars, trades, quotes, snapshots',
    operations: futuresOperations,
    timeZone: NEW_YORK,
    extras: [],
    create: (key, o) => new AsyncFuturesClient(key, o),
  },
  {
    name: 'reference',
    summary: 'Reference data: tickers, option contracts, splits, market status',
    operations: referenceOperations,
    timeZone: NEW_YORK,
    extras: [],
    create: (key, o) => new AsyncReferenceClient(key, o),
  },
];

/**
 * The client family for a ticker, by its prefix (`X:` crypto, `C:` forex, `I:` indices, `O:` options),
 * or its shape for futures contracts (`ESZ3`: product code, month code, year; stock tickers end in no
 * digit).
 */
export function familyOfTicker(ticker: string): ClientFamily {
  const prefix = ticker.slice(0, 2).toUpperCase();
  const name =
    { 'X:': 'crypto', 'C:': 'forex', 'I:': 'indices', 'O:': 'options' }[prefix] ??
    (isFuturesTicker(ticker) ? 'futures' : 'stocks');
  return CLIENT_FAMILIES.find((f) => f.name === name) as ClientFamily;
}
