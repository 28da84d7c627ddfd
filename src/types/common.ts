/**
 * Response types shared by several operations. Field names and units are the service's own; see each
 * field's note. Nanosecond timestamps are `bigint` (exact; `JSON.parse` would round them), millisecond
 * timestamps are `number`.
 */

/** Unix nanoseconds, exact. */
export type Nanoseconds = bigint;
/** Unix milliseconds. */
export type Milliseconds = number;

/** Fields every envelope carries. */
export interface Envelope {
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
  /** Volume (absent for indices). */
  v: number;
  /** Volume-weighted average price. */
  vw?: number;
  /** Start of the window, Unix ms. */
  t: Milliseconds;
  /** Number of transactions in the window. */
  n?: number;
  /** Present (true) only for OTC tickers. */
  otc?: true;
}

/** Aggregate bars of a range: `results` is absent when there is no data. */
export interface AggregatesResponse extends Envelope {
  ticker: string;
  queryCount: number;
  resultsCount: number;
  adjusted?: boolean;
  results?: Aggregate[];
  count?: number;
  next_url?: string;
}

/** A bar of a grouped-daily or previous-close answer: it names its ticker. */
export interface TickerAggregate extends Aggregate {
  T: string;
}

export interface GroupedDailyResponse extends Envelope {
  queryCount: number;
  resultsCount: number;
  adjusted: boolean;
  results?: TickerAggregate[];
  count?: number;
}

export interface PreviousCloseResponse extends Envelope {
  ticker: string;
  queryCount: number;
  resultsCount: number;
  adjusted?: boolean;
  results?: TickerAggregate[];
  count?: number;
}

export interface DailyOpenCloseResponse {
  status: string;
  /** The requested date, `YYYY-MM-DD`. */
  from: string;
  symbol: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume?: number;
  afterHours?: number;
  preMarket?: number;
  otc?: true;
}

/** One indicator value; MACD adds `signal` and `histogram`. */
export interface IndicatorValue {
  timestamp: Milliseconds;
  value: number;
  signal?: number;
  histogram?: number;
}

export interface IndicatorResponse extends Envelope {
  results: {
    values?: IndicatorValue[];
    underlying?: { url: string; aggregates?: Aggregate[] };
  };
  next_url?: string;
}
