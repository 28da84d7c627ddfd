/** Rows of the store's tables as ingest writes them and the routes read them (see `schema.ts`). */

/** Bar resolutions kept in `bars` and `quote_bars`. */
export type Resolution = 'second' | 'minute' | 'hour' | 'day';

/** A row of `bars`; `t` is the bar start in Unix ms. */
export interface BarRow {
  ticker: string;
  resolution: Resolution;
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  vw: number | null;
  n: number | null;
}

/** A row of `quote_bars`; `t` is the bar start in Unix ms. */
export interface QuoteBarRow {
  ticker: string;
  resolution: Resolution;
  t: number;
  bid_o: number | null;
  bid_h: number | null;
  bid_l: number | null;
  bid_c: number | null;
  bid_size: number | null;
  ask_o: number | null;
  ask_h: number | null;
  ask_l: number | null;
  ask_c: number | null;
  ask_size: number | null;
}

/** A row of `open_interest`; `t` in Unix ms. */
export interface OpenInterestRow {
  ticker: string;
  t: number;
  open_interest: number;
}

/** A row of `splits`; dates `YYYY-MM-DD`. A 7-for-1 split is from 1 to 7. */
export interface SplitRow {
  ticker: string;
  execution_date: string;
  split_from: number;
  split_to: number;
}

/** A row of `ticker_history`: `symbol` was in use up to and including `date` (`YYYY-MM-DD`). */
export interface TickerHistoryRow {
  ticker: string;
  date: string;
  symbol: string;
  exchange: string | null;
}

/** A row of `tickers`. */
export interface TickerRow {
  ticker: string;
  name: string | null;
  market: 'stocks' | 'options' | 'fx' | 'crypto' | 'indices';
  locale: 'us' | 'global';
  type: string | null;
  active: boolean;
  primary_exchange: string | null;
  currency_name: string | null;
  currency_symbol: string | null;
  base_currency_symbol: string | null;
  base_currency_name: string | null;
  list_date: string | null;
  delisted_utc: string | null;
}

/**
 * A row of `tickers` as the routes read it: with the fields only the service's own records give
 * (`mdq ingest json`, the caching server), null for rows ingested from files.
 */
export interface ListedTickerRow extends TickerRow {
  cik: string | null;
  composite_figi: string | null;
  share_class_figi: string | null;
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  last_updated_utc: string | null;
}

/** A row of `option_contracts`. */
export interface OptionContractRow {
  ticker: string;
  underlying_ticker: string;
  contract_type: 'call' | 'put';
  exercise_style: 'american' | 'european';
  expiration_date: string;
  strike_price: number;
  shares_per_contract: number;
  primary_exchange: string | null;
}
