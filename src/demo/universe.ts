/**
 * What the simulated market holds: its instruments and its calendar window. Every name says
 * "Simulated", and the tickers (`SIMA`…, `I:SIMX`) belong to no real listing.
 */

/** A simulated stock: its starting price, yearly volatility and drift, typical volume per minute. */
export interface SimStock {
  readonly ticker: string;
  readonly name: string;
  readonly price: number;
  readonly vol: number;
  readonly drift: number;
  readonly volume: number;
  readonly exchange: string;
  /** A split inside the year: effective on this trading day, `to` new shares for each old one. */
  readonly split?: { readonly date: string; readonly to: number };
}

/** A simulated currency pair or crypto pair. */
export interface SimPair {
  readonly ticker: string;
  readonly name: string;
  readonly base: string;
  readonly quote: string;
  readonly price: number;
  readonly vol: number;
  readonly decimals: number;
  /** Trades every day (crypto), or weekdays only (forex). */
  readonly weekends: boolean;
}

/** The seed every random draw derives from. */
export const SIM_SEED = 20240101;
/** Bumped when the generator changes, so that a cached store of an older generator is rebuilt. */
export const SIM_VERSION = 5;
/** First trading day of the simulated year. */
export const SIM_FIRST_DAY = '2024-01-02';
/** Last trading day of the simulated year: the market's "now". */
export const SIM_LAST_DAY = '2024-12-31';
/** Trading days at the end of the year that also have trades and NBBO quotes. */
export const SIM_TICK_DAYS = 2;
/** Calendar days at the end of the year with forex and crypto minute bars. */
export const SIM_PAIR_DAYS = 21;

/** The simulated stocks. */
export const SIM_STOCKS: readonly SimStock[] = [
  {
    ticker: 'SIMA',
    name: 'Simulated Aurora Systems Inc.',
    price: 182,
    vol: 0.28,
    drift: 0.12,
    volume: 9000,
    exchange: 'XNAS',
  },
  {
    ticker: 'SIMB',
    name: 'Simulated Beacon Devices Corp.',
    price: 420,
    vol: 0.38,
    drift: 0.2,
    volume: 4000,
    exchange: 'XNAS',
    split: { date: '2024-06-10', to: 4 },
  },
  {
    ticker: 'SIMC',
    name: 'Simulated Cobalt Materials Co.',
    price: 96,
    vol: 0.24,
    drift: 0.04,
    volume: 5000,
    exchange: 'XNYS',
  },
  {
    ticker: 'SIMD',
    name: 'Simulated Delta Energy Ltd.',
    price: 61,
    vol: 0.33,
    drift: -0.05,
    volume: 7000,
    exchange: 'XNYS',
  },
  {
    ticker: 'SIME',
    name: 'Simulated Ember Financial Group',
    price: 31,
    vol: 0.21,
    drift: 0.08,
    volume: 12000,
    exchange: 'XNYS',
  },
];

/** The index: the average of the stocks' split-adjusted prices relative to their start, times 1000. */
export const SIM_INDEX = { ticker: 'I:SIMX', name: 'Simulated Composite Index' } as const;

/** The simulated currency and crypto pairs. */
export const SIM_PAIRS: readonly SimPair[] = [
  {
    ticker: 'C:EURUSD',
    name: 'Simulated Euro - United States Dollar',
    base: 'EUR',
    quote: 'USD',
    price: 1.094,
    vol: 0.07,
    decimals: 5,
    weekends: false,
  },
  {
    ticker: 'C:USDJPY',
    name: 'Simulated United States Dollar - Japanese Yen',
    base: 'USD',
    quote: 'JPY',
    price: 151.2,
    vol: 0.09,
    decimals: 3,
    weekends: false,
  },
  {
    ticker: 'X:BTCUSD',
    name: 'Simulated Bitcoin - United States Dollar',
    base: 'BTC',
    quote: 'USD',
    price: 64000,
    vol: 0.55,
    decimals: 2,
    weekends: true,
  },
  {
    ticker: 'X:ETHUSD',
    name: 'Simulated Ether - United States Dollar',
    base: 'ETH',
    quote: 'USD',
    price: 3300,
    vol: 0.65,
    decimals: 2,
    weekends: true,
  },
];

/** The option chain: contracts on this stock, expiring on these days. */
export const SIM_OPTION_UNDERLYING = 'SIMA';
/** Expiration days of the chain, after the simulated year. */
export const SIM_OPTION_EXPIRIES: readonly string[] = ['2025-01-03', '2025-01-17', '2025-02-21'];
/** Option day bars cover this many trading days before the end of the year. */
export const SIM_OPTION_DAYS = 20;
