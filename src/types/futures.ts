/** Answers of the futures endpoints (`/futures/v1/...`), from the service's OpenAPI schemas. */

import type { ListResponse, Nanoseconds } from './common.js';

/** One candle of `getAggregates`. */
export interface FuturesAggregate {
  ticker: string;
  /** Start of the candle's window, Unix nanoseconds (exact). */
  window_start: Nanoseconds;
  /** The trading date the candle belongs to (`YYYY-MM-DD`). */
  session_end_date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  transactions: number;
  /** Contracts traded. */
  volume: number;
  dollar_volume: number;
  /** The session's settlement price, on session candles. */
  settlement_price?: number;
}

/** One contract of `getContracts`. */
export interface FuturesContract {
  active: boolean;
  /** The date these facts hold for. */
  date: string;
  ticker?: string;
  product_code?: string;
  name?: string;
  type?: string;
  trading_venue?: string;
  group_code?: string;
  first_trade_date?: string;
  last_trade_date?: string;
  settlement_date?: string;
  days_to_maturity?: number;
  trade_tick_size?: number;
  spread_tick_size?: number;
  settlement_tick_size?: number;
  min_order_quantity?: number;
  max_order_quantity?: number;
}

/** One product of `getProducts`. */
export interface FuturesProduct {
  date: string;
  product_code?: string;
  name?: string;
  type?: string;
  trading_venue?: string;
  sector?: string;
  sub_sector?: string;
  asset_class?: string;
  asset_sub_class?: string;
  price_quotation?: string;
  settlement_currency_code?: string;
  settlement_method?: string;
  settlement_type?: string;
  trade_currency_code?: string;
  unit_of_measure?: string;
  unit_of_measure_qty?: number;
  /** RFC 3339. */
  last_updated?: string;
}

/** One session event of `getSchedules`. */
export interface FuturesSchedule {
  event?: string;
  product_code?: string;
  product_name?: string;
  session_end_date?: string;
  /** RFC 3339. */
  timestamp?: string;
  trading_venue?: string;
}

/** One product's state of `getMarketStatus`. */
export interface FuturesMarketStatus {
  market_event?: string;
  name?: string;
  product_code?: string;
  session_end_date?: string;
  timestamp?: string;
  trading_venue?: string;
}

/** One exchange of `getExchanges`. */
export interface FuturesExchange {
  id: string;
  type: string;
  name: string;
  acronym?: string;
  locale?: string;
  mic?: string;
  operating_mic?: string;
  url?: string;
}

/** One contract of `getSnapshot`. */
export interface FuturesSnapshot {
  details?: { product_code?: string; settlement_date?: string; ticker?: string };
  last_minute?: {
    open?: number;
    high?: number;
    low?: number;
    close?: number;
    volume?: number;
    last_updated?: Nanoseconds;
    timeframe?: string;
  };
  last_quote?: {
    ask?: number;
    ask_size?: number;
    ask_timestamp?: Nanoseconds;
    bid?: number;
    bid_size?: number;
    bid_timestamp?: Nanoseconds;
    last_updated?: Nanoseconds;
    timeframe?: string;
  };
  last_trade?: { price?: number; size?: number; last_updated?: Nanoseconds; timeframe?: string };
  session?: {
    open?: number;
    high?: number;
    low?: number;
    close?: number;
    change?: number;
    change_percent?: number;
    previous_settlement?: number;
    settlement_price?: number;
    volume?: number;
  };
}

/** One trade of `getTrades`. */
export interface FuturesTrade {
  ticker: string;
  /** Unix nanoseconds (exact). */
  timestamp: Nanoseconds;
  sequence_number: number;
  report_sequence: number;
  channel: number;
  price?: number;
  size?: number;
  session_end_date?: string;
}

/** One quote of `getQuotes`. */
export interface FuturesQuote {
  ticker: string;
  /** Unix nanoseconds (exact). */
  timestamp: Nanoseconds;
  sequence_number: number;
  report_sequence: number;
  channel: number;
  bid_price?: number;
  bid_size?: number;
  bid_timestamp?: Nanoseconds;
  ask_price?: number;
  ask_size?: number;
  ask_timestamp?: Nanoseconds;
  session_end_date?: string;
}

/** A page of futures results. */
export type FuturesListResponse<T> = ListResponse<T>;
