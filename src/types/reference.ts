import type { ListResponse } from './common.js';

/** An option contract (reference data). */
export interface OptionContract {
  ticker: string;
  underlying_ticker: string;
  contract_type: 'call' | 'put' | 'other';
  exercise_style: string;
  /** `YYYY-MM-DD`. */
  expiration_date: string;
  strike_price: number;
  shares_per_contract: number;
  /** MIC of the primary exchange. */
  primary_exchange?: string;
  /** The 6-letter CFI code. */
  cfi?: string;
  correction?: number;
  /** Deliverables besides the underlying (after corporate actions). */
  additional_underlyings?: { type: string; underlying: string; amount: number }[];
}

/** One option contract. */
export interface OptionContractResponse {
  status: string;
  request_id: string;
  results: OptionContract;
}

/** A ticker of any asset class (reference data). */
export interface TickerInfo {
  ticker: string;
  name: string;
  market: string;
  locale: string;
  primary_exchange?: string;
  type?: string;
  active?: boolean;
  currency_name?: string;
  currency_symbol?: string;
  base_currency_symbol?: string;
  base_currency_name?: string;
  cik?: string;
  composite_figi?: string;
  share_class_figi?: string;
  /** ISO instant. */
  last_updated_utc?: string;
  /** ISO instant. */
  delisted_utc?: string;
}

/** The details of one ticker. */
export interface TickerDetails extends TickerInfo {
  active: boolean;
  currency_name: string;
  address?: {
    address1?: string;
    address2?: string;
    city?: string;
    postal_code?: string;
    state?: string;
  };
  branding?: { icon_url?: string; logo_url?: string };
  description?: string;
  homepage_url?: string;
  /** `YYYY-MM-DD`. */
  list_date?: string;
  market_cap?: number;
  phone_number?: string;
  round_lot?: number;
  share_class_shares_outstanding?: number;
  sic_code?: string;
  sic_description?: string;
  ticker_root?: string;
  ticker_suffix?: string;
  total_employees?: number;
  weighted_shares_outstanding?: number;
}

/** The details of one ticker. */
export interface TickerDetailsResponse {
  status?: string;
  request_id?: string;
  count?: number;
  results: TickerDetails;
}

/** A ticker type code. */
export interface TickerType {
  code: string;
  description: string;
  asset_class: 'stocks' | 'options' | 'crypto' | 'fx' | 'indices';
  locale: 'us' | 'global';
}

/** A news article. */
export interface NewsArticle {
  id: string;
  title: string;
  author: string;
  /** ISO instant. */
  published_utc: string;
  article_url: string;
  tickers: string[];
  publisher: { name: string; homepage_url: string; logo_url: string; favicon_url?: string };
  amp_url?: string;
  image_url?: string;
  description?: string;
  keywords?: string[];
  insights?: {
    ticker: string;
    sentiment: 'positive' | 'neutral' | 'negative';
    sentiment_reasoning: string;
  }[];
}

/** A cash dividend. */
export interface Dividend {
  id?: string;
  ticker: string;
  cash_amount: number;
  currency?: string;
  /** `YYYY-MM-DD`, like the other dates. */
  declaration_date?: string;
  ex_dividend_date: string;
  pay_date?: string;
  record_date?: string;
  /** CD regular cash, SC special cash, LT/ST long/short-term capital gain. */
  dividend_type: 'CD' | 'SC' | 'LT' | 'ST';
  /** Payments per year: 0 one-time, 1, 2, 4, 12 … */
  frequency: number;
}

/** A stock split. */
export interface Split {
  id?: string;
  ticker: string;
  /** `YYYY-MM-DD`. */
  execution_date: string;
  split_from: number;
  split_to: number;
}

/** Status of the markets right now. */
export interface MarketStatusResponse {
  /** `open`, `closed`, `extended-hours`. */
  market: string;
  earlyHours: boolean;
  afterHours: boolean;
  /** RFC 3339 with offset. */
  serverTime: string;
  exchanges: { nasdaq?: string; nyse?: string; otc?: string };
  currencies: { crypto?: string; fx?: string };
  indicesGroups?: Record<string, string>;
}

/** An upcoming market holiday or early close. */
export interface MarketHoliday {
  exchange: string;
  name: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** `closed` or `early-close`. */
  status: string;
  /** Early closes: ISO instants of the session. */
  open?: string;
  close?: string;
}

/** Update rules of a condition for one kind of aggregate. */
export interface ConditionUpdateRules {
  updates_high_low: boolean;
  updates_open_close: boolean;
  updates_volume: boolean;
}

/** A trade or quote condition code. */
export interface Condition {
  id: number;
  type: string;
  name: string;
  asset_class: 'stocks' | 'options' | 'crypto' | 'fx';
  data_types: ('trade' | 'bbo' | 'nbbo')[];
  abbreviation?: string;
  description?: string;
  exchange?: number;
  legacy?: boolean;
  sip_mapping?: { CTA?: string; OPRA?: string; UTP?: string };
  update_rules?: { consolidated: ConditionUpdateRules; market_center: ConditionUpdateRules };
}

/** An exchange, TRF or SIP. */
export interface Exchange {
  id: number;
  type: 'exchange' | 'TRF' | 'SIP';
  asset_class: 'stocks' | 'options' | 'crypto' | 'fx' | 'futures';
  locale: 'us' | 'global';
  name: string;
  acronym?: string;
  mic?: string;
  operating_mic?: string;
  participant_id?: string;
  url?: string;
}

/** Option contracts, paged by `next_url`. */
export interface OptionContractsResponse extends ListResponse<OptionContract> {}
/** Tickers, paged by `next_url`. */
export interface TickersResponse extends ListResponse<TickerInfo> {}
/** Ticker types. */
export interface TickerTypesResponse extends ListResponse<TickerType> {}
/** News articles, paged by `next_url`. */
export interface NewsResponse extends ListResponse<NewsArticle> {}
/** Dividends, paged by `next_url`. */
export interface DividendsResponse extends ListResponse<Dividend> {}
/** Splits, paged by `next_url`. */
export interface SplitsResponse extends ListResponse<Split> {}
/** Conditions, paged by `next_url`. */
export interface ConditionsResponse extends ListResponse<Condition> {}
/** Exchanges. */
export interface ExchangesResponse extends ListResponse<Exchange> {}

/** One value of a financial statement. */
export interface FinancialDataPoint {
  label: string;
  /** Position within the statement. */
  order: number;
  unit: string;
  value: number;
  /** With `includeSources`: reports the value was derived from. */
  derived_from?: string[];
  /** With `includeSources`: the imputation formula. */
  formula?: string;
  /** With `includeSources`: how the value was obtained. */
  source?: string;
  /** With `includeSources`: where the value is in the XBRL file. */
  xpath?: string;
}

/** A financial statement: its data points by field name (`assets`, `revenues` …). */
export type FinancialStatement = Record<string, FinancialDataPoint>;

/** The financials of one filing. */
export interface Financials {
  cik: string;
  company_name: string;
  fiscal_period: string;
  fiscal_year?: string;
  /** annual, quarterly or ttm. */
  timeframe?: string;
  tickers?: string[];
  sic?: string;
  /** `YYYY-MM-DD`, like the other dates. */
  start_date?: string;
  end_date?: string;
  filing_date?: string;
  acceptance_datetime?: string;
  source_filing_url?: string;
  source_filing_file_url?: string;
  financials: {
    balance_sheet?: FinancialStatement;
    cash_flow_statement?: FinancialStatement;
    comprehensive_income?: FinancialStatement;
    income_statement?: FinancialStatement;
  };
}

/** Financials, paged by `next_url`. */
export interface FinancialsResponse extends ListResponse<Financials> {}

/** One event of a company: a ticker change, on the date the new ticker took effect. */
export interface TickerEvent {
  type: string;
  /** The spec's name of `type`. */
  event_type?: string;
  /** `YYYY-MM-DD`. */
  date: string;
  ticker_change?: { ticker: string };
}

/** The events of a company (`/vX/reference/tickers/{id}/events`). */
export interface TickerEventsResponse {
  status: string;
  request_id: string;
  results: {
    name?: string;
    composite_figi?: string;
    cik?: string;
    events: TickerEvent[];
  };
}

/** A cash dividend of the newer stocks endpoint. */
export interface DividendV1 {
  id?: string;
  ticker: string;
  cash_amount?: number;
  split_adjusted_cash_amount?: number;
  currency?: string;
  /** `YYYY-MM-DD`, like the other dates. */
  declaration_date?: string;
  ex_dividend_date?: string;
  pay_date?: string;
  record_date?: string;
  /** recurring, special, supplemental, irregular or unknown. */
  distribution_type: string;
  frequency?: number;
  historical_adjustment_factor?: number;
}

/** Dividends of the newer stocks endpoint, paged by `next_url`. */
export interface DividendsV1Response extends ListResponse<DividendV1> {}

/** A split of the newer stocks endpoint. */
export interface SplitV1 {
  id?: string;
  ticker: string;
  /** `YYYY-MM-DD`. */
  execution_date: string;
  split_from: number;
  split_to: number;
  /** forward_split, reverse_split or stock_dividend. */
  adjustment_type: string;
  /** What prices before the split are multiplied by to compare with prices after it. */
  historical_adjustment_factor?: number;
}

/** Splits of the newer stocks endpoint, paged by `next_url`. */
export interface SplitsV1Response extends ListResponse<SplitV1> {}

/** An exchange of the newer stocks endpoint (`id` is text there). */
export interface ExchangeV1 {
  id: string;
  name: string;
  type: string;
  acronym?: string;
  locale?: string;
  mic?: string;
  operating_mic?: string;
  participant_id?: string;
  url?: string;
}

/** Exchanges of the newer stocks endpoint. */
export interface ExchangesV1Response extends ListResponse<ExchangeV1> {}

/** A session of the snapshot across asset classes and of the summaries. */
export interface UniversalSnapshotSession {
  open?: number;
  high?: number;
  low?: number;
  close?: number;
  volume?: number;
  /** The volume with its decimals, as text. */
  decimal_volume?: string;
  vwap?: number;
  previous_close?: number;
  change?: number;
  change_percent?: number;
  price?: number;
  early_trading_change?: number;
  early_trading_change_percent?: number;
  late_trading_change?: number;
  late_trading_change_percent?: number;
  regular_trading_change?: number;
  regular_trading_change_percent?: number;
}

/** The latest minute bar of the snapshot across asset classes. */
export interface UniversalSnapshotMinute {
  open?: number;
  high?: number;
  low?: number;
  close?: number;
  volume?: number;
  /** The volume with its decimals, as text. */
  decimal_volume?: string;
  vwap?: number;
  transactions?: number;
}

/**
 * One item of the snapshot across asset classes; a ticker the service does not know is an item with
 * `error` and `message` only.
 */
export interface UniversalSnapshot {
  ticker: string;
  type?: 'stocks' | 'options' | 'fx' | 'crypto' | 'indices';
  name?: string;
  market_status?: string;
  /** Ns. */
  last_updated?: bigint | number;
  timeframe?: string;
  /** Indices: the index value. */
  value?: number;
  session?: UniversalSnapshotSession;
  last_trade?: Record<string, unknown>;
  last_quote?: Record<string, unknown>;
  last_minute?: UniversalSnapshotMinute;
  /** Fair market value (plans that have it). */
  fmv?: number;
  /** Ns. */
  fmv_last_updated?: bigint | number;
  /** Options only. */
  details?: Record<string, unknown>;
  greeks?: Record<string, number>;
  implied_volatility?: number;
  open_interest?: number;
  break_even_price?: number;
  underlying_asset?: Record<string, unknown>;
  error?: string;
  message?: string;
}

/** Snapshots across asset classes, paged by `next_url`. */
export interface UniversalSnapshotResponse extends ListResponse<UniversalSnapshot> {}

/** One summary: price and session of a ticker of any asset class, or an error item. */
export interface Summary {
  ticker: string;
  type?: string;
  name?: string;
  price?: number;
  market_status?: string;
  /** Ns. */
  last_updated?: bigint | number;
  session?: UniversalSnapshotSession;
  branding?: { icon_url?: string; logo_url?: string };
  /** Options only: the contract's terms. */
  options?: Record<string, unknown>;
  error?: string;
  message?: string;
}

/** Summaries of tickers of any asset class. */
export interface SummariesResponse extends ListResponse<Summary> {}

/** Companies related to a ticker. */
export interface RelatedCompaniesResponse {
  status: string;
  request_id: string;
  /** The ticker asked about. */
  ticker: string;
  results: { ticker: string }[];
}

/** An initial public offering. */
export interface Ipo {
  ticker: string;
  issuer_name: string;
  ipo_status: string;
  /** `YYYY-MM-DD`. */
  listing_date?: string;
  announced_date?: string;
  last_updated?: string;
  currency_code?: string;
  final_issue_price?: number;
  highest_offer_price?: number;
  lowest_offer_price?: number;
  isin?: string;
  us_code?: string;
  lot_size?: number;
  max_shares_offered?: number;
  min_shares_offered?: number;
  primary_exchange?: string;
  security_description?: string;
  security_type?: string;
  shares_outstanding?: number;
  total_offer_size?: number;
}

/** IPOs, paged by `next_url`. */
export interface IposResponse extends ListResponse<Ipo> {}
