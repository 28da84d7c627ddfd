import type { Aggregate, Envelope, Milliseconds, Nanoseconds } from './common.js';

/** One trade (v3). */
export interface Trade {
  conditions?: number[];
  correction?: number;
  exchange: number;
  id: string;
  participant_timestamp: Nanoseconds;
  price: number;
  sequence_number: number;
  sip_timestamp: Nanoseconds;
  size: number;
  decimal_size?: string;
  tape?: number;
  trf_id?: number;
  trf_timestamp?: Nanoseconds;
}

export interface TradesResponse extends Envelope {
  results: Trade[];
  next_url?: string;
}

/** One NBBO quote (v3). */
export interface Quote {
  ask_exchange?: number;
  ask_price: number;
  ask_size?: number;
  bid_exchange?: number;
  bid_price: number;
  bid_size?: number;
  conditions?: number[];
  indicators?: number[];
  participant_timestamp?: Nanoseconds;
  sequence_number?: number;
  sip_timestamp?: Nanoseconds;
  tape?: number;
  trf_timestamp?: Nanoseconds;
}

export interface QuotesResponse extends Envelope {
  results: Quote[];
  next_url?: string;
}

/** A legacy v2 tick: short keys, explained by the response's `map`. */
export interface LegacyTick {
  /** SIP timestamp, ns: the offset for the next page. */
  t: Nanoseconds;
  y?: Nanoseconds;
  f?: Nanoseconds;
  q?: number;
  [key: string]: unknown;
}

export interface LegacyTicksResponse {
  ticker: string;
  results_count: number;
  db_latency: number;
  success: boolean;
  map: Record<string, { name: string; type: string }>;
  results: LegacyTick[];
}

export interface LastTradeResponse extends Envelope {
  results: {
    T: string;
    c?: number[];
    i: string;
    p: number;
    s: number;
    x: number;
    t: Nanoseconds;
    y: Nanoseconds;
    f?: Nanoseconds;
    q: number;
    r?: number;
    z?: number;
    e?: number;
  };
}

export interface LastQuoteResponse extends Envelope {
  results: {
    T: string;
    /** Ask price and size, ask exchange. */
    P: number;
    S: number;
    X: number;
    /** Bid price and size, bid exchange. */
    p: number;
    s: number;
    x: number;
    c?: number[];
    i?: number[];
    z?: number;
    t: Nanoseconds;
    y: Nanoseconds;
    f?: Nanoseconds;
    q: number;
  };
}

/** The snapshot of one stock. */
export interface StockSnapshot {
  ticker: string;
  todaysChange: number;
  todaysChangePerc: number;
  updated: Nanoseconds | number;
  fmv?: number;
  day: Partial<Aggregate>;
  min: Partial<Aggregate> & { av?: number; t?: Milliseconds };
  prevDay: Partial<Aggregate>;
  lastTrade?: { c: number[] | null; i: string; p: number; s: number; t: Nanoseconds; x: number };
  lastQuote?: { P: number; S: number; p: number; s: number; t: Nanoseconds };
}

export interface SnapshotResponse extends Envelope {
  ticker: StockSnapshot;
}

export interface SnapshotsResponse {
  status: string;
  request_id?: string;
  count?: number;
  tickers: StockSnapshot[];
}
