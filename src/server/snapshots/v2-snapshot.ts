import { type Bar, lastBarClose, lastQuote, lastQuoteBar, lastTrade } from '../market/index.js';
import type { Store } from '../store/store.js';
import { type DayAggregate, type SessionSoFar, sessionSoFar } from './session-day.js';

/** The markets of the v2 snapshot endpoints. */
export type V2Market = 'stocks' | 'forex' | 'crypto';

/** The service's exchange id of forex quotes, used when the source names none (Oanda's quotes). */
export const FOREX_EXCHANGE_ID = 48;
/** The service's exchange id of Coinbase, the venue of the stored crypto data. */
export const CRYPTO_EXCHANGE_ID = 1;

const MS_TO_NS = 1_000_000n;
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

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
 * - `prevDay`: the previous session's daily bar.
 * - `lastTrade` / `lastQuote`: the latest trade and quote at or before now. Stocks: ticks only (omitted
 *   without any). Crypto has no ticks in the store, so `lastTrade` is the close of the latest bar that
 *   had ended by now, stamped with the bar's end (size 0: a bar has no trade size; Coinbase's exchange id;
 *   no conditions). Forex `lastQuote` is the later of the latest quote tick and the closing bid and ask of
 *   the latest complete quote bar.
 * - `todaysChange` = last price (latest trade of the session, else the minute close) − previous close.
 * - Timestamps: stocks ns, forex and crypto ms (wire format §1.6).
 */
export async function v2Snapshot(
  store: Store,
  ticker: string,
  market: V2Market,
  nowMs: number,
): Promise<V2Snapshot> {
  const session = await sessionSoFar(store, ticker, nowMs);
  const body: Record<string, unknown> = { ticker };
  const times: number[] = [];
  body.day = dayBody(session.day, market);
  body.min = minuteBody(session, market);
  if (session.minute) times.push(session.minute.t + 60_000);
  body.prevDay = session.prevDay ? prevDayBody(session.prevDay) : { o: 0, h: 0, l: 0, c: 0, v: 0, vw: 0 };

  let price: number | undefined = session.minute?.c ?? session.day?.c;
  let updatedNs: bigint | undefined;
  if (market === 'stocks') {
    const [trade, quote] = await Promise.all([
      lastTrade(store, ticker, nowMs),
      lastQuote(store, ticker, nowMs),
    ]);
    if (trade) {
      body.lastTrade = {
        c: trade.conditions ?? [],
        i: trade.id ?? '',
        p: trade.price,
        s: trade.size,
        ds: String(trade.size),
        t: trade.sip_timestamp,
        x: trade.exchange ?? 0,
      };
      if (Number(trade.sip_timestamp / MS_TO_NS) >= session.dayStart) price = trade.price;
      updatedNs = trade.sip_timestamp;
    }
    if (quote) {
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
    const bar = await lastBarClose(store, ticker, nowMs);
    if (bar) {
      const t = bar.t + 1;
      body.lastTrade = { c: [], i: '', p: bar.price, s: 0, t, x: CRYPTO_EXCHANGE_ID };
      times.push(t);
      if (t > session.dayStart) price = bar.price;
    }
  } else {
    const [tick, bar] = await Promise.all([
      lastQuote(store, ticker, nowMs),
      lastQuoteBar(store, ticker, nowMs),
    ]);
    const tickMs = tick ? Number(tick.sip_timestamp / MS_TO_NS) : undefined;
    if (tick && tickMs !== undefined && (!bar || tickMs > bar.t)) {
      body.lastQuote = {
        a: tick.ask_price ?? 0,
        b: tick.bid_price ?? 0,
        t: tickMs,
        x: tick.bid_exchange ?? FOREX_EXCHANGE_ID,
      };
      times.push(tickMs);
    } else if (bar) {
      body.lastQuote = { a: bar.ask, b: bar.bid, t: bar.t + 1, x: FOREX_EXCHANGE_ID };
      times.push(bar.t + 1);
    }
  }

  const prevClose = session.prevDay?.c;
  const hasToday = session.day !== undefined;
  const change = hasToday && price !== undefined && prevClose ? price - prevClose : 0;
  const changePerc = hasToday && price !== undefined && prevClose ? (change / prevClose) * 100 : 0;
  body.todaysChange = change;
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

function dayBody(day: DayAggregate | undefined, market: V2Market): Record<string, unknown> {
  if (!day)
    return market === 'forex' ? { o: 0, h: 0, l: 0, c: 0, v: 0 } : { o: 0, h: 0, l: 0, c: 0, v: 0, vw: 0 };
  const out: Record<string, unknown> = { o: day.o, h: day.h, l: day.l, c: day.c, v: day.v };
  if (market !== 'forex') out.vw = round(day.vw);
  if (market === 'stocks') out.dv = String(day.v);
  return out;
}

function minuteBody(s: SessionSoFar, market: V2Market): Record<string, unknown> {
  const m = s.minute;
  const base: Record<string, unknown> = m
    ? { o: m.o, h: m.h, l: m.l, c: m.c, v: m.v, t: m.t, n: m.n ?? 0 }
    : { o: 0, h: 0, l: 0, c: 0, v: 0, t: 0, n: 0 };
  if (market !== 'forex') base.vw = m ? round(m.vw ?? (m.h + m.l + m.c) / 3) : 0;
  if (market === 'stocks') {
    const av = m?.av ?? 0;
    return { av, dav: String(av), ...base, dv: String(m?.v ?? 0) };
  }
  return base;
}

function prevDayBody(bar: Bar): Record<string, unknown> {
  return {
    o: bar.o,
    h: bar.h,
    l: bar.l,
    c: bar.c,
    v: bar.v,
    vw: round(bar.vw ?? (bar.h + bar.l + bar.c) / 3),
  };
}
