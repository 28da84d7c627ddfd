import type { Aggregate, Envelope, Milliseconds, Nanoseconds } from './common.js';

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
  ask_price: number;
  ask_size?: number;
  bid_exchange?: number;
  bid_price: number;
  bid_size?: number;
  sequence_number?: number;
  sip_timestamp: Nanoseconds;
}

/** A forex quote (v3). */
export interface ForexQuote {
  ask_exchange?: number;
  ask_price: number;
  bid_exchange?: number;
  bid_price: number;
  participant_timestamp: Nanoseconds;
}

/** A crypto trade (v3). */
export interface CryptoTrade {
  conditions?: number[];
  exchange: number;
  id?: string;
  participant_timestamp: Nanoseconds;
  price: number;
  size: number;
  received_timestamp?: Nanoseconds;
}

export interface ListResponse<T> extends Envelope {
  results: T[];
  next_url?: string;
  count?: number;
}

/** Snapshot of one option contract. */
export interface OptionContractSnapshot {
  break_even_price: number;
  implied_volatility?: number;
  open_interest: number;
  fmv?: number;
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
    expiration_date: string;
    shares_per_contract: number;
    strike_price: number;
  };
  greeks?: { delta: number; gamma: number; theta: number; vega: number };
  last_quote?: {
    ask: number;
    ask_size: number;
    bid: number;
    bid_size: number;
    midpoint: number;
    last_updated: Nanoseconds;
    timeframe: string;
  };
  last_trade?: {
    price: number;
    size: number;
    exchange: number;
    conditions?: number[];
    sip_timestamp: Nanoseconds;
    timeframe: string;
  };
  underlying_asset: {
    ticker: string;
    price?: number;
    value?: number;
    change_to_break_even: number;
    last_updated: Nanoseconds;
    timeframe: string;
  };
}

export interface OptionContractSnapshotResponse extends Envelope {
  results: OptionContractSnapshot;
}

/** Snapshot of one index. */
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
  error?: string;
  message?: string;
}

/** Snapshot of a forex or crypto pair. */
export interface PairSnapshot {
  ticker: string;
  todaysChange: number;
  todaysChangePerc: number;
  updated: Milliseconds;
  day: Partial<Aggregate>;
  min: Partial<Aggregate>;
  prevDay: Partial<Aggregate>;
  lastQuote?: { a: number; b: number; t: Milliseconds; x: number; i?: number };
  lastTrade?: { c: number[]; i: string; p: number; s: number; t: Milliseconds; x: number };
}

export interface PairSnapshotResponse extends Envelope {
  ticker: PairSnapshot;
}
export interface PairSnapshotsResponse {
  status: string;
  request_id?: string;
  count?: number;
  tickers: PairSnapshot[];
}

export interface CurrencyConversionResponse {
  converted: number;
  from: string;
  to: string;
  initialAmount: number;
  last: { ask: number; bid: number; exchange: number; timestamp: Milliseconds };
  request_id: string;
  status: string;
  symbol: string;
}

export interface HistoricForexTicksResponse {
  day: string;
  map: Record<string, string>;
  msLatency: number;
  pair: string;
  status: string;
  type: 'forex';
  ticks: { a?: number; b?: number; ap?: number; bp?: number; x: number; t: Milliseconds }[];
}

export interface HistoricCryptoTradesResponse {
  day: string;
  map: Record<string, string>;
  msLatency: number;
  status: string;
  symbol: string;
  type: 'crypto';
  ticks: { p: number; s: number; x: number; c: number[]; t: Milliseconds; i?: string }[];
}

export interface LastForexQuoteResponse {
  last: { ask: number; bid: number; exchange: number; timestamp: Milliseconds };
  request_id: string;
  status: string;
  symbol: string;
}

export interface LastCryptoTradeResponse {
  last: { conditions: number[]; exchange: number; price: number; size: number; timestamp: Milliseconds };
  request_id: string;
  status: string;
  symbol: string;
}

export interface CryptoOpenCloseResponse {
  symbol: string;
  isUTC: boolean;
  day: string;
  open: number;
  close: number;
  openTrades: { p: number; s: number; x: number; c: number[]; t: Milliseconds; i: string }[];
  closingTrades: { p: number; s: number; x: number; c: number[]; t: Milliseconds; i: string }[];
}

export interface CryptoBookResponse {
  status: string;
  data: {
    ticker: string;
    bids: { p: number; x: Record<string, number> }[];
    asks: { p: number; x: Record<string, number> }[];
    bidCount: number;
    askCount: number;
    spread: number;
    updated: Milliseconds;
  };
}

/** An option contract (reference). */
export interface OptionContract {
  ticker: string;
  underlying_ticker: string;
  contract_type: 'call' | 'put' | 'other';
  exercise_style: string;
  expiration_date: string;
  strike_price: number;
  shares_per_contract: number;
  primary_exchange?: string;
  cfi?: string;
  correction?: number;
  additional_underlyings?: { type: string; underlying: string; amount: number }[];
}

/** A ticker (reference). */
export interface TickerInfo {
  ticker: string;
  name: string;
  market: string;
  locale: string;
  primary_exchange?: string;
  type?: string;
  active: boolean;
  currency_name?: string;
  currency_symbol?: string;
  base_currency_symbol?: string;
  base_currency_name?: string;
  cik?: string;
  composite_figi?: string;
  share_class_figi?: string;
  last_updated_utc?: string;
  delisted_utc?: string;
  [field: string]: unknown;
}

export interface Split {
  ticker: string;
  execution_date: string;
  split_from: number;
  split_to: number;
  id?: string;
}

export interface MarketStatusResponse {
  market: string;
  earlyHours: boolean;
  afterHours: boolean;
  serverTime: string;
  exchanges: Record<string, string>;
  currencies: Record<string, string>;
  indicesGroups?: Record<string, string>;
}

export interface MarketHoliday {
  exchange: string;
  name: string;
  date: string;
  status: string;
  open?: string;
  close?: string;
}
