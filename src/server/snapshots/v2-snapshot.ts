import {
  type Bar,
  type BarQuote,
  decimalString,
  lastQuoteBars,
  lastQuotes,
  lastTrades,
  roundPrice,
  roundTo,
  roundVolume,
} from '../market/index.js';
import type { Store } from '../store/store.js';
import type { QuoteRow, TradeRow } from '../store/tick-rows.js';
import { type DayAggregate, type SessionSoFar, sessionsSoFar } from './session-day.js';

/** The markets of the v2 snapshot endpoints. */
export type V2Market = 'stocks' | 'forex' | 'crypto';

/** The service's exchange id of forex quotes, used when the source names none (Oanda's quotes). */
export const FOREX_EXCHANGE_ID = 48;
/** The service's exchange id of Coinbase, the venue of the stored crypto data. */
export const CRYPTO_EXCHANGE_ID = 1;

const MS_TO_NS = 1_000_000n;
const round = (x: number, digits = 4) => roundTo(x, digits);

/** A v2 snapshot item plus the values gainers and losers rank by. */
export interface V2Snapshot {
  readonly body: Record<string, unknown>;
  readonly ticker: string;
  readonly changePerc: number;
  /** Session volume so far. */
  readonly volume: number;
  /** True when the ticker has both a session so far and a previous close, so a change to rank by. */
  readonly ranked: boolean;
}

/**
 * A v2 snapshot (`/v2/snapshot/locale/.../tickers/{ticker}`) of one ticker at `nowMs`:
 *
 * - `day`: the current session so far (minute bars complete by now); zeros before any trading,
 *   as the service shows before the open.
 * - `min`: the latest minute bar with `av`, the session volume up to it.
 * - `prevDay`: the daily bar of the session just before (zeros when that session has no data: an older
 *   bar is not yesterday's).
 * - `lastTrade` / `lastQuote`: the latest trade and quote at or before now, from the previous session's
 *   day on (older ticks are not current and are left out). Stocks and crypto: trade ticks only, never a
 *   bar's close (crypto has no trade ticks in the Lean data: its `lastTrade`, which the service always
 *   sends, is then all zeros, as `day` is before any trading); the trade id is the
 *   tick's, else its sequence number, as `/v3/trades` gives it. Forex `lastQuote` is the later of the
 *   latest quote tick and the closing bid and ask of the latest complete quote bar, with the tick's
 *   exchange or the service's forex id. An empty quote side is written as 0, never averaged in.
 * - `todaysChange` = last price (latest trade of the session, else the minute close) − previous close.
 * - Timestamps: stocks ns, forex and crypto ms (wire format §1.6).
 */
export async function v2Snapshot(
  store: Store,
  ticker: string,
  market: V2Market,
  nowMs: number,
): Promise<V2Snapshot> {
  return (await v2Snapshots(store, [ticker], market, nowMs))[0] as V2Snapshot;
}

/**
 * {@link v2Snapshot} of each of `tickers` (one market), in their order: a fixed number of store queries
 * for the whole list (the sessions so far, then the latest trades and quotes of every ticker at once).
 */
export async function v2Snapshots(
  store: Store,
  tickers: readonly string[],
  market: V2Market,
  nowMs: number,
): Promise<V2Snapshot[]> {
  const sessions = await sessionsSoFar(store, tickers, nowMs);
  // Ticks older than the previous session are not current: a snapshot leaves them out, so none older
  // than the earliest previous session of the list is read.
  const since = Math.min(...[...sessions.values()].map((s) => s.freshFrom));
  const none = Promise.resolve(new Map());
  const [trades, quotes, quoteBars] = await Promise.all([
    market === 'forex' ? none : lastTrades(store, tickers, nowMs, since),
    market === 'crypto' ? none : lastQuotes(store, tickers, nowMs, since),
    market === 'forex' ? lastQuoteBars(store, tickers, nowMs, since - 1) : none,
  ]);
  return tickers.map((ticker) =>
    snapshotOf(ticker, market, sessions.get(ticker) as SessionSoFar, {
      trade: trades.get(ticker),
      quote: quotes.get(ticker),
      quoteBar: quoteBars.get(ticker),
    }),
  );
}

/** The latest ticks of a ticker a v2 snapshot shows. */
interface LatestTicks {
  trade: TradeRow | undefined;
  quote: QuoteRow | undefined;
  quoteBar: BarQuote | undefined;
}

function snapshotOf(
  ticker: string,
  market: V2Market,
  session: SessionSoFar,
  latest: LatestTicks,
): V2Snapshot {
  const body: Record<string, unknown> = { ticker };
  const times: number[] = [];
  body.day = dayBody(session.day, market, ticker);
  body.min = minuteBody(session, market, ticker);
  if (session.minute) times.push(session.minute.t + 60_000);
  body.prevDay = session.prevDay
    ? prevDayBody(session.prevDay, ticker)
    : { o: 0, h: 0, l: 0, c: 0, v: 0, vw: 0 };

  let price: number | undefined = session.minute?.c ?? session.day?.c;
  let updatedNs: bigint | undefined;
  // Ticks older than the previous session are not current: a snapshot leaves them out.
  const fresh = (ns: bigint) => ns >= BigInt(Math.floor(session.freshFrom)) * MS_TO_NS;
  if (market === 'stocks') {
    const { trade, quote } = latest;
    if (trade && fresh(trade.sip_timestamp)) {
      body.lastTrade = {
        c: trade.conditions ?? [],
        i: trade.id ?? String(trade.sequence_number),
        p: roundPrice(ticker, trade.price),
        s: trade.size,
        ds: decimalString(trade.size),
        t: trade.sip_timestamp,
        x: trade.exchange ?? 0,
      };
      if (Number(trade.sip_timestamp / MS_TO_NS) >= session.dayStart) price = trade.price;
      updatedNs = trade.sip_timestamp;
    }
    if (quote && fresh(quote.sip_timestamp)) {
      // An empty side is written as the service writes it (0), never averaged with the other.
      body.lastQuote = {
        P: quote.ask_price ?? 0,
        S: quote.ask_size ?? 0,
        p: quote.bid_price ?? 0,
        s: quote.bid_size ?? 0,
        t: quote.sip_timestamp,
      };
      if (updatedNs === undefined || quote.sip_timestamp > updatedNs) updatedNs = quote.sip_timestamp;
    }
  } else if (market === 'crypto') {
    // A trade tick, never a bar's close: without trade ticks there is no last trade.
    const { trade } = latest;
    if (trade && fresh(trade.sip_timestamp)) {
      const t = Number(trade.sip_timestamp / MS_TO_NS);
      body.lastTrade = {
        c: trade.conditions ?? [],
        i: trade.id ?? String(trade.sequence_number),
        p: roundPrice(ticker, trade.price),
        s: roundVolume(trade.size),
        t,
        x: trade.exchange ?? CRYPTO_EXCHANGE_ID,
      };
      times.push(t);
      if (t >= session.dayStart) price = trade.price;
    } else {
      // The service always sends one; zeros say "none", as `day` does before any trading.
      body.lastTrade = { c: [], i: '', p: 0, s: 0, t: 0, x: 0 };
    }
  } else {
    const { quote: tick, quoteBar: bar } = latest;
    const tickMs = tick ? Number(tick.sip_timestamp / MS_TO_NS) : undefined;
    const p = (x: number) => roundPrice(ticker, x);
    if (tick && tickMs !== undefined && fresh(tick.sip_timestamp) && (!bar || tickMs > bar.t)) {
      body.lastQuote = {
        a: p(tick.ask_price ?? 0),
        b: p(tick.bid_price ?? 0),
        t: tickMs,
        x: tick.bid_exchange ?? tick.ask_exchange ?? FOREX_EXCHANGE_ID,
      };
      times.push(tickMs);
    } else if (bar && bar.t + 1 >= session.freshFrom) {
      body.lastQuote = { a: p(bar.ask), b: p(bar.bid), t: bar.t + 1, x: FOREX_EXCHANGE_ID };
      times.push(bar.t + 1);
    }
  }

  const prevClose = session.prevDay?.c;
  const hasToday = session.day !== undefined;
  const change = hasToday && price !== undefined && prevClose ? price - prevClose : 0;
  const changePerc = hasToday && price !== undefined && prevClose ? (change / prevClose) * 100 : 0;
  body.todaysChange = roundPrice(ticker, change);
  body.todaysChangePerc = changePerc;
  const latestMs = times.length > 0 ? Math.max(...times) : session.dayStart;
  if (market === 'stocks') {
    const barNs = BigInt(Math.floor(latestMs)) * MS_TO_NS;
    body.updated = updatedNs !== undefined && updatedNs > barNs ? updatedNs : barNs;
  } else {
    body.updated = latestMs;
  }
  return {
    body,
    ticker,
    changePerc,
    volume: session.day?.v ?? 0,
    ranked: hasToday && prevClose !== undefined,
  };
}

function dayBody(day: DayAggregate | undefined, market: V2Market, ticker: string): Record<string, unknown> {
  if (!day)
    return market === 'forex' ? { o: 0, h: 0, l: 0, c: 0, v: 0 } : { o: 0, h: 0, l: 0, c: 0, v: 0, vw: 0 };
  const out: Record<string, unknown> = { ...ohlcv(day, ticker) };
  if (market !== 'forex') out.vw = round(day.vw);
  if (market === 'stocks') out.dv = decimalString(day.v);
  return out;
}

/** Prices at the ticker's precision and volume without float noise. */
function ohlcv(b: { o: number; h: number; l: number; c: number; v: number }, ticker: string) {
  const p = (x: number) => roundPrice(ticker, x);
  return { o: p(b.o), h: p(b.h), l: p(b.l), c: p(b.c), v: roundVolume(b.v) };
}

function minuteBody(s: SessionSoFar, market: V2Market, ticker: string): Record<string, unknown> {
  const m = s.minute;
  const base: Record<string, unknown> = m
    ? { ...ohlcv(m, ticker), t: m.t, n: m.n ?? 0 }
    : { o: 0, h: 0, l: 0, c: 0, v: 0, t: 0, n: 0 };
  if (market !== 'forex') base.vw = m ? round(m.vw ?? (m.h + m.l + m.c) / 3) : 0;
  if (market === 'stocks') {
    const av = roundVolume(m?.av ?? 0);
    return { av, dav: decimalString(av), ...base, dv: decimalString(m?.v ?? 0) };
  }
  return base;
}

function prevDayBody(bar: Bar, ticker: string): Record<string, unknown> {
  return { ...ohlcv(bar, ticker), vw: round(bar.vw ?? (bar.h + bar.l + bar.c) / 3) };
}
