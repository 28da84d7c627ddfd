import type { Envelope, ListResponse, Milliseconds, Nanoseconds } from './common.js';

/** One trade (v3). */
export interface Trade {
  conditions?: number[];
  correction?: number;
  exchange: number;
  /** Trade id, unique per exchange and ticker. */
  id: string;
  participant_timestamp: Nanoseconds;
  price: number;
  sequence_number: number;
  sip_timestamp: Nanoseconds;
  size: number;
  /** The size with its fractional part, as text (`"25.0"`). */
  decimal_size?: string;
  tape?: number;
  trf_id?: number;
  trf_timestamp?: Nanoseconds;
}

/** Trades of a ticker (v3), paged by `next_url`. */
export interface TradesResponse extends ListResponse<Trade> {}

/** One NBBO quote (v3). */
export interface Quote {
  ask_exchange?: number;
  ask_price?: number;
  ask_size?: number;
  bid_exchange?: number;
  bid_price?: number;
  bid_size?: number;
  conditions?: number[];
  indicators?: number[];
  participant_timestamp: Nanoseconds;
  sequence_number: number;
  sip_timestamp: Nanoseconds;
  tape?: number;
  trf_timestamp?: Nanoseconds;
}

/** Quotes of a ticker (v3), paged by `next_url`. */
export interface QuotesResponse extends ListResponse<Quote> {}

/** A legacy v2 trade or quote tick: short keys, explained by the response's `map`. */
export interface LegacyTick {
  /** The ticker. */
  T?: string;
  /** SIP timestamp, ns: the offset for the next page. */
  t: Nanoseconds;
  /** Participant timestamp, ns. */
  y?: Nanoseconds;
  /** TRF timestamp, ns. */
  f?: Nanoseconds;
  /** Sequence number. */
  q?: number;
  /** Trades: trade id. */
  i?: string | number[];
  /** Condition codes. */
  c?: number[];
  /** Trades: correction; quotes: absent. */
  e?: number;
  /** Trades: price; quotes: bid price. */
  p?: number;
  /** Trades: size; quotes: bid size. */
  s?: number;
  /** Trades: exchange; quotes: bid exchange. */
  x?: number;
  /** Trades: TRF id. */
  r?: number;
  /** Tape (1 NYSE, 2 AMEX, 3 Nasdaq). */
  z?: number;
  /** Quotes: ask price. */
  P?: number;
  /** Quotes: ask size. */
  S?: number;
  /** Quotes: ask exchange. */
  X?: number;
}

/** Legacy v2 ticks of one day, paged by the `t` of the last result. */
export interface LegacyTicksResponse {
  ticker: string;
  results_count: number;
  db_latency: number;
  success: boolean;
  /** Short key → its name and type. */
  map?: Record<string, { name: string; type: string }>;
  results: LegacyTick[];
}

/** The most recent trade of a stock or option contract. */
export interface LastTradeResponse extends Envelope {
  results: {
    T: string;
    c?: number[];
    /** Size with its fractional part, as text. */
    ds?: string;
    e?: number;
    f?: Nanoseconds;
    i: string;
    p: number;
    q: number;
    r?: number;
    s?: number;
    t: Nanoseconds;
    x: number;
    y: Nanoseconds;
    z?: number;
  };
}

/** The most recent NBBO quote of a stock. */
export interface LastQuoteResponse extends Envelope {
  results: {
    T: string;
    /** Ask price, size (lots) and exchange. */
    P?: number;
    S?: number;
    X?: number;
    /** Bid price, size (lots) and exchange. */
    p?: number;
    s?: number;
    x?: number;
    c?: number[];
    i?: number[];
    z?: number;
    t: Nanoseconds;
    y: Nanoseconds;
    f?: Nanoseconds;
    q: number;
  };
}

/** A daily bar of a snapshot. */
export interface SnapshotDay {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  vw: number;
  /** Volume with its fractional part, as text. */
  dv?: string;
  otc?: boolean;
}

/** The minute bar of a stock snapshot. */
export interface SnapshotMinute extends SnapshotDay {
  /** Volume accumulated over the day. */
  av: number;
  /** `av` with its fractional part, as text. */
  dav?: string;
  /** Start of the minute, Unix ms. */
  t: Milliseconds;
  n: number;
}

/** The snapshot of one stock. */
export interface StockSnapshot {
  ticker: string;
  todaysChange: number;
  todaysChangePerc: number;
  /** Last update, Unix ns. */
  updated: Nanoseconds | number;
  /** Fair market value (Business plans only). */
  fmv?: number;
  day: SnapshotDay;
  min: SnapshotMinute;
  prevDay: SnapshotDay;
  lastTrade?: {
    /** Conditions; `null` when there are none. */
    c: number[] | null;
    ds?: string;
    i: string;
    p: number;
    s: number;
    t: Nanoseconds;
    x: number;
  };
  lastQuote?: { P: number; S: number; p: number; s: number; t: Nanoseconds };
}

/** Snapshot of one stock. */
export interface SnapshotResponse extends Envelope {
  ticker: StockSnapshot;
}

/** Snapshots of many stocks (all, the listed ones, or the day's gainers or losers). */
export interface SnapshotsResponse {
  status: string;
  request_id?: string;
  count?: number;
  tickers: StockSnapshot[];
}
