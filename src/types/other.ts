import type { Envelope, ListResponse, Milliseconds, Nanoseconds } from './common.js';

export type { ListResponse } from './common.js';
export type * from './reference.js';

/** An options trade (v3). */
export interface OptionTrade {
  conditions?: number[];
  correction?: number;
  exchange: number;
  participant_timestamp?: Nanoseconds;
  price: number;
  sequence_number?: number;
  sip_timestamp: Nanoseconds;
  size: number;
}

/** An options quote (v3). */
export interface OptionQuote {
  ask_exchange?: number;
  ask_price?: number;
  ask_size?: number;
  bid_exchange?: number;
  bid_price?: number;
  bid_size?: number;
  sequence_number: number;
  sip_timestamp: Nanoseconds;
}

/** A forex quote (v3). */
export interface ForexQuote {
  ask_exchange?: number;
  ask_price?: number;
  bid_exchange?: number;
  bid_price?: number;
  participant_timestamp: Nanoseconds;
}

/** A crypto trade (v3). */
export interface CryptoTrade {
  conditions?: number[];
  exchange: number;
  id?: string;
  participant_timestamp?: Nanoseconds;
  price: number;
  size: number;
  received_timestamp?: Nanoseconds;
}

/** Snapshot of one option contract. */
export interface OptionContractSnapshot {
  /** Underlying price at which the position breaks even at expiry. */
  break_even_price: number;
  implied_volatility?: number;
  open_interest: number;
  /** Fair market value (Business plans only). */
  fmv?: number;
  fmv_last_updated?: Nanoseconds;
  day: {
    open?: number;
    high?: number;
    low?: number;
    close?: number;
    volume?: number;
    vwap?: number;
    previous_close?: number;
    change?: number;
    change_percent?: number;
    last_updated?: Nanoseconds;
  };
  details: {
    ticker: string;
    contract_type: 'call' | 'put' | 'other';
    exercise_style: string;
    /** `YYYY-MM-DD`. */
    expiration_date: string;
    shares_per_contract: number;
    strike_price: number;
  };
  /** Absent when the service cannot compute them (deep in or out of the money, no quote). */
  greeks?: { delta: number; gamma: number; theta: number; vega: number };
  last_quote?: {
    ask: number;
    ask_exchange?: number;
    ask_size: number;
    bid: number;
    bid_exchange?: number;
    bid_size: number;
    midpoint: number;
    last_updated?: Nanoseconds;
    timeframe?: string;
  };
  last_trade?: {
    price: number;
    size: number;
    exchange: number;
    conditions?: number[];
    sip_timestamp: Nanoseconds;
    timeframe?: string;
    /** Size with its fractional part, as text. */
    decimal_size?: string;
  };
  underlying_asset: {
    ticker: string;
    /** Stocks: the last trade price. */
    price?: number;
    /** Indices: the index value. */
    value?: number;
    change_to_break_even: number;
    last_updated?: Nanoseconds;
    timeframe?: string;
  };
}

/** Snapshot of one option contract. */
export interface OptionContractSnapshotResponse extends Envelope {
  results: OptionContractSnapshot;
  next_url?: string;
}

/** Snapshot of one index; an unknown or unentitled ticker comes back with `error` and `message` only. */
export interface IndexSnapshot {
  ticker: string;
  name?: string;
  type?: string;
  value?: number;
  market_status?: string;
  timeframe?: string;
  last_updated?: Nanoseconds;
  session?: {
    change?: number;
    change_percent?: number;
    close?: number;
    high?: number;
    low?: number;
    open?: number;
    previous_close?: number;
  };
  /** `NOT_FOUND`, `NOT_ENTITLED`. */
  error?: string;
  message?: string;
}

/** Snapshot of indices, paged by `next_url`. */
export interface IndexSnapshotsResponse extends ListResponse<IndexSnapshot> {}

/** A bar of a forex or crypto snapshot. */
export interface PairSnapshotBar {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  vw?: number;
}

/** Snapshot of a forex or crypto pair. Its timestamps are Unix ms. */
export interface PairSnapshot {
  ticker: string;
  todaysChange: number;
  todaysChangePerc: number;
  updated: Milliseconds;
  fmv?: number;
  day: PairSnapshotBar;
  min: PairSnapshotBar & { t: Milliseconds; n?: number };
  prevDay: PairSnapshotBar;
  /** Forex. */
  lastQuote?: { a: number; b: number; t: Milliseconds; x: number; i?: number };
  /** Crypto. */
  lastTrade?: { c: number[]; i: string; p: number; s: number; t: Milliseconds; x: number };
}

/** Snapshot of one forex or crypto pair. */
export interface PairSnapshotResponse extends Envelope {
  ticker: PairSnapshot;
}

/** Snapshots of many pairs (all, the listed ones, or the day's gainers or losers). */
export interface PairSnapshotsResponse {
  status: string;
  request_id?: string;
  count?: number;
  tickers: PairSnapshot[];
}

/** A last forex quote as the v1 endpoints give it. */
export interface ForexLastQuote {
  ask: number;
  bid: number;
  exchange: number;
  timestamp: Milliseconds;
}

/** Real-time currency conversion. */
export interface CurrencyConversionResponse {
  converted: number;
  from: string;
  to: string;
  initialAmount: number;
  last: ForexLastQuote;
  request_id: string;
  status: string;
  /** The pair the rate comes from (may be the reverse of from/to). */
  symbol: string;
}

/** Historic quote ticks of a currency pair on one date, paged by `offset`. */
export interface HistoricForexTicksResponse {
  /** `YYYY-MM-DD`. */
  day: string;
  map: Record<string, string>;
  msLatency: number;
  pair: string;
  status: string;
  type?: string;
  /** Ask `a`, bid `b` (some answers write `ap`/`bp`), exchange, Unix ms. */
  ticks: { a?: number; b?: number; ap?: number; bp?: number; x: number; t: Milliseconds }[];
}

/** A crypto trade of the v1 endpoints (historic trades, open/close). */
export interface CryptoTick {
  p: number;
  s: number;
  x: number;
  c: number[];
  t: Milliseconds;
  /** Trade id (the spec's historic-trades example leaves it out). */
  i?: string;
}

/** Historic trades of a crypto pair on one date, paged by `offset`. */
export interface HistoricCryptoTradesResponse {
  day: string;
  map: Record<string, string>;
  msLatency: number;
  status?: string;
  symbol: string;
  type?: string;
  ticks: CryptoTick[];
}

/** The last quote of a currency pair. */
export interface LastForexQuoteResponse {
  last: ForexLastQuote;
  request_id: string;
  status: string;
  symbol: string;
}

/** The last trade of a crypto pair. */
export interface LastCryptoTradeResponse {
  last: { conditions?: number[]; exchange: number; price: number; size: number; timestamp: Milliseconds };
  request_id: string;
  status: string;
  symbol: string;
}

/** Open and close of a crypto pair on one date, with the opening and closing trades. */
export interface CryptoOpenCloseResponse {
  symbol: string;
  isUTC: boolean;
  /** An ISO instant: the day's UTC midnight. */
  day: string;
  open: number;
  close: number;
  openTrades: CryptoTick[];
  closingTrades: CryptoTick[];
}

/** One price level of a crypto book: the size at each exchange id. */
export interface CryptoBookLevel {
  p: number;
  x: Record<string, number>;
}

/** The level 2 book of a crypto pair. */
export interface CryptoBookResponse {
  status: string;
  request_id?: string;
  data: {
    ticker: string;
    bids: CryptoBookLevel[];
    asks: CryptoBookLevel[];
    bidCount: number;
    askCount: number;
    spread: number;
    updated: Milliseconds;
  };
}
