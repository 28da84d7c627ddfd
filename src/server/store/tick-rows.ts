/** Rows of the tick tables as the store returns them (see `schema.ts`). */

/** A row of `trades`. Times are Unix ns. */
export interface TradeRow {
  ticker: string;
  sip_timestamp: bigint;
  participant_timestamp: bigint | null;
  sequence_number: bigint;
  price: number;
  size: number;
  exchange: number | null;
  conditions: number[] | null;
  id: string | null;
  tape: number | null;
  correction: number | null;
  trf_id: number | null;
  trf_timestamp: bigint | null;
  /** A futures trade's report sequence and channel, when the service gave them. */
  report_sequence?: bigint | null;
  channel?: number | null;
}

/** A row of `quotes`. Times are Unix ns. */
export interface QuoteRow {
  ticker: string;
  sip_timestamp: bigint;
  participant_timestamp: bigint | null;
  sequence_number: bigint;
  bid_price: number | null;
  bid_size: number | null;
  bid_exchange: number | null;
  ask_price: number | null;
  ask_size: number | null;
  ask_exchange: number | null;
  conditions: number[] | null;
  indicators: number[] | null;
  tape: number | null;
  /** A futures quote's report sequence and channel, when the service gave them. */
  report_sequence?: bigint | null;
  channel?: number | null;
  /** A futures quote's bid and ask times (Unix ns), when the service gave them. */
  bid_timestamp?: bigint | null;
  ask_timestamp?: bigint | null;
}
