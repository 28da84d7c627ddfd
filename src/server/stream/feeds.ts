import type { StreamMarket } from '../../stream/channels.js';
import { type Bar, barsOfTickers, queryBars } from '../market/bars.js';
import { queryFuturesAggsOf } from '../market/futures.js';
import { normaliseLists } from '../market/last.js';
import { roundPrice, roundTo, roundVolume } from '../market/precision.js';
import type { Store } from '../store/store.js';
import type { QuoteRow, TradeRow } from '../store/tick-rows.js';
import type { BarSize, BarTick } from './bar-source.js';

/**
 * The channels of a market replayed from its aggregates, one event per bar at its window's end (see
 * `bar-source.ts`): each bar is the one the REST aggregates answer for the same window.
 */
export interface BarFeed {
  /** The channels fed by second and by minute bars. */
  second?: readonly string[];
  minute?: readonly string[];
  /** The stored resolutions the windows of each size are built from (which bars say data exists). */
  sources: Partial<Record<BarSize, readonly string[]>>;
  /**
   * The bars of each of `tickers`' windows starting from `fromMs` to `toMs` (inclusive), as REST answers
   * them, by ticker (those without any may be left out).
   */
  read(
    store: Store,
    tickers: readonly string[],
    size: BarSize | 'day',
    fromMs: number,
    toMs: number,
  ): Promise<Map<string, Bar[]>>;
  /** Days (UTC) with trade ticks are left out: their aggregates are computed from the replayed trades. */
  skipTradeDays?: boolean;
  /** The events need the first price of the bar's day (`BarTick.dayOpen`). */
  dayOpen?: boolean;
  /** The events need the bar's day so far (`BarTick.day`), summed from the day's bars. */
  daySoFar?: boolean;
  /** The event of `channel` for a bar. */
  event(channel: string, tick: BarTick): Record<string, unknown>;
}

/**
 * What the server replays on each market: the channel of its trades, quotes and aggregates (those it
 * has no data for stay silent), how a channel's ticker maps to the store's, and each tick's wire shape.
 */
export interface Feed {
  trade?: string;
  quote?: string;
  /** Per-second and per-minute aggregates of the trades. */
  second?: string;
  minute?: string;
  /** Channels replayed from the REST bars of their windows. */
  bars?: BarFeed;
  /**
   * Channels the server cannot serve, with the reason: a subscription to one is answered with a status
   * `error` naming the channel and the reason, and sends nothing.
   */
  unavailable?: Readonly<Record<string, string>>;
  /** The store's ticker of a channel's ticker (`C:EUR-USD` → `C:EURUSD`). */
  storeTicker(ticker: string): string;
  tradeEvent?(row: TradeRow): Record<string, unknown>;
  quoteEvent?(row: QuoteRow): Record<string, unknown>;
  /** The aggregate event's ticker fields. */
  aggregateName(ticker: string): Record<string, string>;
}

const ms = (ns: bigint) => Number(ns / 1_000_000n);
const num = (v: number | null) => v ?? 0;

/** `C:EURUSD` → `EUR/USD` (forex), `X:BTCUSD` → `BTC-USD` (crypto): the quote currency is the last three letters. */
function pair(ticker: string, sep: string): string {
  const body = ticker.slice(2);
  return body.length > 3 ? `${body.slice(0, -3)}${sep}${body.slice(-3)}` : body;
}

const samePrefixed = (ticker: string) => ticker;
const unpair = (ticker: string) => ticker.replace(/[-/]/g, '');

function stockTrade(row: TradeRow): Record<string, unknown> {
  const r = normaliseLists(row);
  const out: Record<string, unknown> = {
    ev: 'T',
    sym: r.ticker,
    i: r.id ?? String(r.sequence_number),
    x: num(r.exchange),
    p: r.price,
    s: r.size,
  };
  if (r.conditions && r.conditions.length > 0) out.c = r.conditions;
  out.t = ms(r.sip_timestamp);
  out.q = Number(r.sequence_number);
  out.z = num(r.tape);
  if (r.trf_id !== null) out.trfi = r.trf_id;
  if (r.trf_timestamp !== null) out.trft = ms(r.trf_timestamp);
  return out;
}

function stockQuote(row: QuoteRow): Record<string, unknown> {
  const r = normaliseLists(row);
  const out: Record<string, unknown> = {
    ev: 'Q',
    sym: r.ticker,
    bx: num(r.bid_exchange),
    bp: num(r.bid_price),
    bs: num(r.bid_size),
    ax: num(r.ask_exchange),
    ap: num(r.ask_price),
    as: num(r.ask_size),
  };
  if (r.conditions && r.conditions.length > 0) out.c = r.conditions[0];
  if (r.indicators && r.indicators.length > 0) out.i = r.indicators;
  out.t = ms(r.sip_timestamp);
  out.q = Number(r.sequence_number);
  out.z = num(r.tape);
  return out;
}

function optionTrade(row: TradeRow): Record<string, unknown> {
  const r = normaliseLists(row);
  const out: Record<string, unknown> = { ev: 'T', sym: r.ticker, x: num(r.exchange), p: r.price, s: r.size };
  if (r.conditions && r.conditions.length > 0) out.c = r.conditions;
  out.t = ms(r.sip_timestamp);
  out.q = Number(r.sequence_number);
  return out;
}

function optionQuote(row: QuoteRow): Record<string, unknown> {
  return {
    ev: 'Q',
    sym: row.ticker,
    bx: num(row.bid_exchange),
    ax: num(row.ask_exchange),
    bp: num(row.bid_price),
    ap: num(row.ask_price),
    bs: num(row.bid_size),
    as: num(row.ask_size),
    t: ms(row.sip_timestamp),
    q: Number(row.sequence_number),
  };
}

const symName = (ticker: string) => ({ sym: ticker });

/** The REST aggregates of each ticker, ascending, every window of the range (no page limit). */
async function restBars(
  store: Store,
  tickers: readonly string[],
  size: BarSize | 'day',
  fromMs: number,
  toMs: number,
): Promise<Map<string, Bar[]>> {
  const out = new Map<string, Bar[]>();
  // One ticker at a time: the REST aggregates are computed per ticker.
  for (const ticker of tickers) {
    const page = await queryBars(store, {
      ticker,
      multiplier: 1,
      timespan: size,
      fromMs,
      toMs,
      adjusted: !ticker.startsWith('I:'),
      sort: 'asc',
      limit: 1_000_000,
    });
    out.set(ticker, page.bars);
  }
  return out;
}

/**
 * The REST minute aggregates of each ticker, ascending, of the windows of the range, every ticker in
 * one query (a chain of options as one contract).
 */
async function minuteBarsOf(
  store: Store,
  tickers: readonly string[],
  size: BarSize | 'day',
  fromMs: number,
  toMs: number,
): Promise<Map<string, Bar[]>> {
  if (size !== 'minute') return new Map();
  return barsOfTickers(store, tickers, { timespan: 'minute', fromMs, toMs });
}

/**
 * The futures REST aggregates (`/futures/v1/aggs`, `1min`) of the windows starting in the range, of
 * every contract in one query.
 */
async function futuresBars(
  store: Store,
  tickers: readonly string[],
  size: BarSize | 'day',
  fromMs: number,
  toMs: number,
): Promise<Map<string, Bar[]>> {
  if (size !== 'minute') return new Map();
  const candles = await queryFuturesAggsOf(store, tickers, {
    window: { source: 'minute', unit: 'ms', size: 60_000, offset: 0 },
    gte: fromMs,
    lt: toMs + 1,
    asc: true,
    limit: 1_000_000,
  });
  const out = new Map<string, Bar[]>();
  for (const [ticker, list] of candles) {
    out.set(
      ticker,
      list.map(
        (c): Bar => ({
          t: Number(c.window_start / 1_000_000n),
          o: c.open,
          h: c.high,
          l: c.low,
          c: c.close,
          v: c.volume,
          // The dollar volume, rounded to cents as the REST candle gives it.
          vw: c.dollar_volume,
        }),
      ),
    );
  }
  return out;
}

const LEN: Record<string, number> = { '-2': 1_000, '-1': 60_000 };

/** A bar's prices and volume as the REST aggregates write them. */
function restOhlc(ticker: string, b: Bar) {
  const p = (x: number) => roundPrice(ticker, x);
  return { o: p(b.o), c: p(b.c), h: p(b.h), l: p(b.l) };
}

/** Forex `CA`/`CAS`: the bid/ask midpoint bars; the source supplies no volume. */
function forexAggregate(channel: string, { ticker, bar, kind }: BarTick): Record<string, unknown> {
  return {
    ev: channel,
    pair: pair(ticker, '/'),
    ...restOhlc(ticker, bar),
    v: roundVolume(bar.v),
    s: bar.t,
    e: bar.t + (LEN[kind] as number),
  };
}

/** Crypto `XA`/`XAS` of a day without trade ticks: the REST bars (from second or minute bars). */
function cryptoAggregate(channel: string, { ticker, bar, kind }: BarTick): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ev: channel,
    pair: pair(ticker, '-'),
    ...restOhlc(ticker, bar),
    v: roundVolume(bar.v),
  };
  if (bar.vw !== undefined) out.vw = roundTo(bar.vw, 4);
  if (bar.n) out.z = Math.round(bar.v / bar.n);
  out.s = bar.t;
  out.e = bar.t + (LEN[kind] as number);
  return out;
}

/** Index `A`/`AM` (with the day's first value) and `V` (the minute's close, at its end). */
function indexEvent(channel: string, { ticker, bar, kind, dayOpen }: BarTick): Record<string, unknown> {
  const e = bar.t + (LEN[kind] as number);
  const p = (x: number) => roundPrice(ticker, x);
  if (channel === 'V') return { ev: 'V', val: p(bar.c), T: ticker, t: e };
  return { ev: channel, sym: ticker, op: p(dayOpen ?? bar.o), ...restOhlc(ticker, bar), s: bar.t, e };
}

/**
 * Options `AM` of a day without trade ticks: the REST minute bar, with its day so far (`av`, `a` over
 * the day's bars up to it, `op` the first one's open); `z` only where the bars count their trades.
 */
function optionAggregate(channel: string, { ticker, bar, kind, day }: BarTick): Record<string, unknown> {
  const p = (x: number) => roundPrice(ticker, x);
  const out: Record<string, unknown> = { ev: channel, sym: ticker, v: roundVolume(bar.v) };
  if (day) {
    out.av = roundVolume(day.volume);
    out.op = p(day.open);
  }
  if (bar.vw !== undefined) out.vw = roundTo(bar.vw, 4);
  Object.assign(out, restOhlc(ticker, bar));
  if (day) out.a = roundTo(day.vwap, 4);
  if (bar.n) out.z = Math.round(bar.v / bar.n);
  out.s = bar.t;
  out.e = bar.t + (LEN[kind] as number);
  return out;
}

/** Futures `AM`: the REST `1min` candle; `dv` its dollar volume (Σ volume × typical price of the bars). */
function futuresAggregate(channel: string, { ticker, bar, kind }: BarTick): Record<string, unknown> {
  return {
    ev: channel,
    sym: ticker,
    v: bar.v,
    dv: bar.vw,
    o: bar.o,
    c: bar.c,
    h: bar.h,
    l: bar.l,
    s: bar.t,
    e: bar.t + (LEN[kind] as number),
  };
}

const FMV =
  'fair market value is a proprietary model of the service (business plans); no stored data holds it';

/** The feed of every market. */
export const FEEDS: Record<StreamMarket, Feed> = {
  stocks: {
    trade: 'T',
    quote: 'Q',
    second: 'A',
    minute: 'AM',
    unavailable: {
      LULD: 'limit up / limit down bands are published by the securities information processors; the store holds none',
      NOI: 'net order imbalances come from the exchanges’ opening and closing auctions; the store holds none',
      FMV,
    },
    storeTicker: samePrefixed,
    tradeEvent: stockTrade,
    quoteEvent: stockQuote,
    aggregateName: symName,
  },
  options: {
    trade: 'T',
    quote: 'Q',
    second: 'A',
    minute: 'AM',
    bars: {
      minute: ['AM'],
      sources: { minute: ['second', 'minute'] },
      read: minuteBarsOf,
      skipTradeDays: true,
      daySoFar: true,
      event: optionAggregate,
    },
    storeTicker: samePrefixed,
    tradeEvent: optionTrade,
    quoteEvent: optionQuote,
    aggregateName: symName,
    unavailable: { FMV },
  },
  forex: {
    quote: 'C',
    bars: {
      second: ['CAS'],
      minute: ['CA'],
      sources: { second: ['second'], minute: ['second', 'minute'] },
      read: restBars,
      event: forexAggregate,
    },
    unavailable: { FMV },
    storeTicker: unpair,
    quoteEvent: (r) => ({
      ev: 'C',
      p: pair(r.ticker, '/'),
      x: num(r.ask_exchange ?? r.bid_exchange),
      a: num(r.ask_price),
      b: num(r.bid_price),
      t: ms(r.sip_timestamp),
    }),
    aggregateName: (ticker) => ({ pair: pair(ticker, '/') }),
  },
  crypto: {
    trade: 'XT',
    quote: 'XQ',
    second: 'XAS',
    minute: 'XA',
    bars: {
      second: ['XAS'],
      minute: ['XA'],
      sources: { second: ['second'], minute: ['second', 'minute'] },
      read: restBars,
      skipTradeDays: true,
      event: cryptoAggregate,
    },
    unavailable: {
      XL2: 'the store holds no order books (crypto quotes are top of book at most), and levels are never invented',
      FMV,
    },
    storeTicker: unpair,
    tradeEvent: (row) => {
      const r = normaliseLists(row);
      const out: Record<string, unknown> = {
        ev: 'XT',
        pair: pair(r.ticker, '-'),
        p: r.price,
        t: ms(r.sip_timestamp),
      };
      out.s = r.size;
      if (r.conditions && r.conditions.length > 0) out.c = r.conditions;
      out.i = r.id ?? String(r.sequence_number);
      out.x = num(r.exchange);
      out.r = ms(r.participant_timestamp ?? r.sip_timestamp);
      return out;
    },
    quoteEvent: (r) => ({
      ev: 'XQ',
      pair: pair(r.ticker, '-'),
      bp: num(r.bid_price),
      bs: num(r.bid_size),
      ap: num(r.ask_price),
      as: num(r.ask_size),
      t: ms(r.sip_timestamp),
      x: num(r.ask_exchange ?? r.bid_exchange),
      r: ms(r.participant_timestamp ?? r.sip_timestamp),
    }),
    aggregateName: (ticker) => ({ pair: pair(ticker, '-') }),
  },
  indices: {
    bars: {
      second: ['A'],
      minute: ['AM', 'V'],
      sources: { second: ['second'], minute: ['second', 'minute'] },
      read: restBars,
      dayOpen: true,
      event: indexEvent,
    },
    storeTicker: samePrefixed,
    aggregateName: symName,
  },
  futures: {
    trade: 'T',
    quote: 'Q',
    bars: { minute: ['AM'], sources: { minute: ['minute'] }, read: futuresBars, event: futuresAggregate },
    storeTicker: samePrefixed,
    tradeEvent: (r) => ({
      ev: 'T',
      sym: r.ticker,
      p: r.price,
      s: r.size,
      t: ms(r.sip_timestamp),
      q: Number(r.sequence_number),
    }),
    quoteEvent: (r) => ({
      ev: 'Q',
      sym: r.ticker,
      bp: num(r.bid_price),
      bs: num(r.bid_size),
      bt: ms(r.participant_timestamp ?? r.sip_timestamp),
      ap: num(r.ask_price),
      as: num(r.ask_size),
      at: ms(r.participant_timestamp ?? r.sip_timestamp),
      t: ms(r.sip_timestamp),
    }),
    aggregateName: symName,
  },
};
