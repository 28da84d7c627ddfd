/**
 * Response types shared by several operations. Field names and units are the service's own (checked
 * against `openapi.json` and the recorded responses by `test/clients/types.test.ts`). Nanosecond
 * timestamps are `bigint` (exact; `JSON.parse` would round them), millisecond timestamps `number`.
 * A field is optional when the spec or a real response may omit it.
 */

/** Unix nanoseconds, exact. */
export type Nanoseconds = bigint;
/** Unix milliseconds. */
export type Milliseconds = number;

/** Fields every envelope carries. */
export interface Envelope {
  /** `OK` (most endpoints), `DELAYED` on delayed plans. */
  status: string;
  request_id: string;
}

/** One aggregate bar (candle). */
export interface Aggregate {
  /** Open price. */
  o: number;
  /** High price. */
  h: number;
  /** Low price. */
  l: number;
  /** Close price. */
  c: number;
  /** Volume: a float for stocks (fractional shares); absent for indices. */
  v?: number;
  /** Volume-weighted average price (absent for indices). */
  vw?: number;
  /** Start of the window, Unix ms. */
  t: Milliseconds;
  /** Number of transactions in the window (absent for indices). */
  n?: number;
  /** Present (true) only for OTC tickers. */
  otc?: true;
}

/** Aggregate bars of a range. `results` is absent when there is no data. */
export interface AggregatesResponse extends Envelope {
  ticker: string;
  /** Base aggregates (minute or day) used to build the answer. */
  queryCount: number;
  resultsCount: number;
  /** Absent for indices (no splits). */
  adjusted?: boolean;
  results?: Aggregate[];
  /** Sent by the real API, not in the spec. */
  count?: number;
  next_url?: string;
}

/** A bar of a grouped-daily or previous-close answer: it names its ticker. */
export interface TickerAggregate extends Aggregate {
  /** The ticker of the bar. */
  T: string;
}

/** Daily bars of a whole market for one date (no pagination). */
export interface GroupedDailyResponse extends Envelope {
  queryCount: number;
  resultsCount: number;
  adjusted: boolean;
  results?: TickerAggregate[];
  count?: number;
}

/** The previous trading day's bar (one element in `results`). */
export interface PreviousCloseResponse extends Envelope {
  ticker: string;
  queryCount: number;
  resultsCount: number;
  /** Absent for indices. */
  adjusted?: boolean;
  results?: TickerAggregate[];
  count?: number;
}

/** Open/close of a stock, option or index on one date: a flat object, no `results`. */
export interface DailyOpenCloseResponse {
  status: string;
  /** The requested date: `YYYY-MM-DD` (indices: an ISO instant). */
  from: string;
  symbol: string;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Absent for indices. */
  volume?: number;
  afterHours?: number;
  preMarket?: number;
  otc?: true;
  request_id?: string;
}

/** One indicator value; MACD adds `signal` and `histogram`. */
export interface IndicatorValue {
  /** Start of the aggregate window, Unix ms. */
  timestamp: Milliseconds;
  value: number;
  /** MACD: the signal line. */
  signal?: number;
  /** MACD: value − signal. */
  histogram?: number;
}

/** An indicator (SMA, EMA, RSI, MACD), paged by `next_url`. */
export interface IndicatorResponse extends Envelope {
  results: {
    values?: IndicatorValue[];
    /** With `includeUnderlying`: the aggregates request and the bars the values were computed on. */
    underlying?: { url: string; aggregates?: Aggregate[] };
  };
  next_url?: string;
}

/** A v3 list answer: one page of `results`, the link to the next one. */
export interface ListResponse<T> {
  /** Present on almost every answer; the spec makes it optional and the index snapshot leaves it out. */
  status?: string;
  /** Like `status`. */
  request_id?: string;
  results: T[];
  count?: number;
  next_url?: string;
}
