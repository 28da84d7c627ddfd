/**
 * The events of the streaming service, one shape per channel, as they arrive on the wire (one JSON array
 * of events per message). `ev` names the channel and discriminates the unions. Times `t`, `s`, `e` are
 * Unix milliseconds, except the fair market value's `t`, in nanoseconds and therefore a `bigint`.
 */

/** Stock or option trade (`T`). */
export interface TradeEvent {
  ev: 'T';
  /** Ticker (`AAPL`, `O:SPY230803C00430000`). */
  sym: string;
  /** Exchange id. */
  x: number;
  /** Trade id (stocks). */
  i?: string;
  /** Tape: 1 NYSE, 2 AMEX, 3 Nasdaq (stocks). */
  z?: number;
  p: number;
  s: number;
  /** Condition codes, when any. */
  c?: number[];
  /** SIP time, Unix ms. */
  t: number;
  /** Sequence number (per ticker, per day). */
  q: number;
  /** Trade reporting facility id and time (Unix ms), for trades reported off exchange. */
  trfi?: number;
  trft?: number;
}

/** Stock or option quote (`Q`). */
export interface QuoteEvent {
  ev: 'Q';
  sym: string;
  /** Bid exchange id, price, size. */
  bx: number;
  bp: number;
  bs: number;
  /** Ask exchange id, price, size. */
  ax: number;
  ap: number;
  as: number;
  /** Condition code. */
  c?: number;
  /** Indicators. */
  i?: number[];
  /** SIP time, Unix ms. */
  t: number;
  q: number;
  z?: number;
}

/** Aggregate of one second (`A`) or one minute (`AM`) of trades, stocks and options. */
export interface AggregateEvent {
  ev: 'A' | 'AM';
  sym: string;
  /** Volume of the window, and accumulated over the day. */
  v: number;
  av: number;
  /** Official opening price of the day. */
  op: number;
  /** Volume weighted average price of the window. */
  vw: number;
  o: number;
  c: number;
  h: number;
  l: number;
  /** Volume weighted average price of the day. */
  a: number;
  /**
   * Average trade size of the window; absent when its source does not count trades (the local
   * server's options minutes replayed from stored bars without counts).
   */
  z?: number;
  /** Window start and end, Unix ms. */
  s: number;
  e: number;
  otc?: boolean;
}

/** Limit up / limit down band (`LULD`). */
export interface LuldEvent {
  ev: 'LULD';
  T: string;
  /** High (limit up) and low (limit down) price. */
  h: number;
  l: number;
  i?: number[];
  z: number;
  t: number;
  q: number;
}

/**
 * Net order imbalance of a stock's auction (`NOI`): the buy or sell interest that the exchange's
 * opening, closing or reopening cross could not pair, published before the cross.
 */
export interface ImbalanceEvent {
  ev: 'NOI';
  T: string;
  /** Time of the message, Unix ms. */
  t: number;
  /** Time of the auction, New York: hour × 100 + minute (930 is 9:30, 1600 is 16:00). */
  at: number;
  /**
   * Auction: `O` early opening, `M` core opening, `H` reopening after a halt, `C` closing, `P` extreme
   * closing imbalance, `R` regulatory closing imbalance.
   */
  a: string;
  /** Sequence number of the ticker's messages. */
  i: number;
  /** Exchange id. */
  x: number;
  /** Imbalance quantity: shares left unpaired. */
  o: number;
  /** Paired quantity: shares that would trade at the clearing price. */
  p: number;
  /** Book clearing price. */
  b: number;
}

/** Fair market value (`FMV`), every market. */
export interface FairMarketValueEvent {
  ev: 'FMV';
  fmv: number;
  sym: string;
  /** Unix nanoseconds, exact. */
  t: bigint;
}

/** Forex quote (`C`). */
export interface ForexQuoteEvent {
  ev: 'C';
  /** Pair, `EUR/USD`. */
  p: string;
  x: number;
  /** Ask and bid price. */
  a: number;
  b: number;
  t: number;
}

/** Forex aggregate per minute (`CA`) or per second (`CAS`). */
export interface ForexAggregateEvent {
  ev: 'CA' | 'CAS';
  /** Pair, `EUR/USD`. */
  pair: string;
  o: number;
  c: number;
  h: number;
  l: number;
  v: number;
  s: number;
  e: number;
}

/** Crypto trade (`XT`). */
export interface CryptoTradeEvent {
  ev: 'XT';
  /** Pair, `BTC-USD`. */
  pair: string;
  p: number;
  t: number;
  s: number;
  c?: number[];
  i: string;
  x: number;
  /** Time the service received the trade, Unix ms. */
  r: number;
}

/** Crypto quote (`XQ`). */
export interface CryptoQuoteEvent {
  ev: 'XQ';
  pair: string;
  bp: number;
  bs: number;
  ap: number;
  as: number;
  t: number;
  x: number;
  r: number;
}

/** Crypto aggregate per minute (`XA`) or per second (`XAS`). */
export interface CryptoAggregateEvent {
  ev: 'XA' | 'XAS';
  pair: string;
  o: number;
  c: number;
  h: number;
  l: number;
  v: number;
  vw?: number;
  z?: number;
  s: number;
  e: number;
}

/** Crypto level-2 book (`XL2`): up to 100 price levels a side, each `[price, size]`. */
export interface CryptoLevel2Event {
  ev: 'XL2';
  pair: string;
  b: [number, number][];
  a: [number, number][];
  t: number;
  x: number;
  r: number;
}

/** Index value (`V`). */
export interface IndexValueEvent {
  ev: 'V';
  val: number;
  /** Index ticker, `I:SPX`. */
  T: string;
  t: number;
}

/** Index aggregate per second (`A`) or minute (`AM`). */
export interface IndexAggregateEvent {
  ev: 'A' | 'AM';
  sym: string;
  op: number;
  o: number;
  c: number;
  h: number;
  l: number;
  s: number;
  e: number;
}

/** Futures trade (`T`). */
export interface FuturesTradeEvent {
  ev: 'T';
  /** Contract, `ESZ3`. */
  sym: string;
  p: number;
  s: number;
  /** Unix ms. */
  t: number;
  /** Sequence number. */
  q: number;
}

/** Futures best bid and offer (`Q`). */
export interface FuturesQuoteEvent {
  ev: 'Q';
  sym: string;
  bp: number;
  bs: number;
  /** When the bid was submitted, Unix ms. */
  bt: number;
  ap: number;
  as: number;
  /** When the ask was submitted, Unix ms. */
  at: number;
  t: number;
}

/** Futures aggregate per minute (`AM`). */
export interface FuturesAggregateEvent {
  ev: 'AM';
  sym: string;
  /** Volume (contracts) and dollar volume of the window. */
  v: number;
  dv: number;
  o: number;
  c: number;
  h: number;
  l: number;
  /** Trades in the window, when known. */
  n?: number;
  s: number;
  e: number;
}

/** A status message of the service. */
export interface StatusEvent {
  ev: 'status';
  /**
   * `connected`, `auth_success`, `auth_failed`, `max_connections`, `success` (a subscription changed),
   * `error` (a refused action, such as an unknown channel), or another the service adds.
   */
  status: string;
  message: string;
}

export type StocksEvent =
  | TradeEvent
  | QuoteEvent
  | AggregateEvent
  | LuldEvent
  | ImbalanceEvent
  | FairMarketValueEvent;
export type OptionsEvent = TradeEvent | QuoteEvent | AggregateEvent | FairMarketValueEvent;
export type ForexEvent = ForexQuoteEvent | ForexAggregateEvent | FairMarketValueEvent;
export type CryptoEvent =
  | CryptoTradeEvent
  | CryptoQuoteEvent
  | CryptoAggregateEvent
  | CryptoLevel2Event
  | FairMarketValueEvent;
export type IndicesEvent = IndexValueEvent | IndexAggregateEvent;
export type FuturesEvent = FuturesTradeEvent | FuturesQuoteEvent | FuturesAggregateEvent;

/** The events of each market, by market name. */
export interface MarketEvents {
  stocks: StocksEvent;
  options: OptionsEvent;
  forex: ForexEvent;
  crypto: CryptoEvent;
  indices: IndicesEvent;
  futures: FuturesEvent;
}

/** Any event of any market. */
export type StreamEvent = MarketEvents[keyof MarketEvents];
