import { listValue } from '@duckdb/node-api';
import { dayOf, NEW_YORK, startOfDay, zonedToUtc } from '../../dates/time-zone.js';
import { tradingSession } from '../calendar/index.js';
import { blackScholesGreeks, DAYS_PER_YEAR, impliedVolatility } from '../greeks/index.js';
import { roundTo } from '../market/index.js';
import type { OptionContractRow } from '../store/rows.js';
import type { SqlDialect, Store } from '../store/store.js';
import { latestOpenInterest, latestQuoteBars, type QuoteBarClose } from './latest-bars.js';
import { dailyBarFinalAt, sessionDate } from './session-day.js';
import { type UnderlyingPrice, underlyingPrices } from './underlying-price.js';

/** A row of `option_contracts` as the snapshot reads it. */
export type ContractRow = OptionContractRow;

/** SQL selecting `ContractRow` columns from `option_contracts`. */
export const contractColumns = (d: SqlDialect) => `ticker, underlying_ticker, contract_type, exercise_style,
  ${d.dateText('expiration_date')} AS expiration_date, strike_price, shares_per_contract, primary_exchange`;

interface DayRow {
  ticker: string;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  vw: number;
  last_t: bigint;
}

const NS = 1_000_000n;
const YEAR_MS = DAYS_PER_YEAR * 86_400_000;

/**
 * Snapshots (`/v3/snapshot/options/...`) of option contracts at `nowMs`, in the order given. Per contract:
 *
 * - `day`: the session's minute trade bars complete by now (OHLC, volume, vwap from the bars'
 *   typical prices weighted by volume), `previous_close` = close of the last bar before the session,
 *   `change` against it (both left out when the contract never traded before the session); `{}` when
 *   nothing traded in the session, as the service shows for quiet contracts.
 * - `last_quote`: closing bid and ask of the latest complete quote bar; a side without a quote is written
 *   as 0 (no bid / no offer) and the midpoint of a one-sided quote is that side's price, never an
 *   average with 0. Omitted without any quote bar (the store has none for AAPL options).
 * - `open_interest`: the latest recorded value; omitted when none is recorded.
 * - `implied_volatility` and `greeks`: Black–Scholes (`greeks/`, zero rate, no dividends, the European
 *   formula for American contracts too) solved from the quote midpoint, with the underlying's latest
 *   price and the time to the close of the expiration day (`expiryInstant`). Only when both sides are
 *   quoted and the midpoint lies strictly inside the no-arbitrage bounds (above intrinsic value); else
 *   omitted.
 * - `break_even_price`: strike ± premium: the midpoint of a two-sided quote, else the session close, else
 *   the one quoted side.
 * - `underlying_asset`: the underlying's latest trade or bar close (`value` for an index).
 * - `last_trade` is omitted: the store holds option trade bars, not trades.
 */
export async function optionSnapshots(
  store: Store,
  contracts: readonly ContractRow[],
  nowMs: number,
): Promise<Record<string, unknown>[]> {
  if (contracts.length === 0) return [];
  const tickers = contracts.map((c) => c.ticker);
  const date = sessionDate(tickers[0] as string, nowMs);
  const dayStart = startOfDay(date, NEW_YORK);
  const [days, prevCloses, quotes, interest, underlyings] = await Promise.all([
    sessionDays(store, tickers, dayStart, nowMs),
    previousCloses(store, tickers, dayStart),
    latestQuoteBars(store, tickers, nowMs),
    latestOpenInterest(store, tickers, nowMs),
    underlyingPrices(store, [...new Set(contracts.map((c) => c.underlying_ticker))], nowMs),
  ]);
  return contracts.map((c) =>
    contractSnapshot(c, {
      day: days.get(c.ticker),
      prevClose: prevCloses.get(c.ticker),
      quote: quotes.get(c.ticker),
      openInterest: interest.get(c.ticker),
      underlying: underlyings.get(c.underlying_ticker),
      nowMs,
    }),
  );
}

interface ContractData {
  day: DayRow | undefined;
  prevClose: number | undefined;
  quote: QuoteBarClose | undefined;
  openInterest: number | undefined;
  underlying: UnderlyingPrice | undefined;
  nowMs: number;
}

function contractSnapshot(c: ContractRow, d: ContractData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const isCall = c.contract_type === 'call';
  const day: Record<string, unknown> = {};
  if (d.day) {
    Object.assign(day, {
      open: d.day.o,
      high: d.day.h,
      low: d.day.l,
      close: d.day.c,
      volume: d.day.v,
      vwap: roundTo(d.day.vw, 4),
      last_updated: d.day.last_t * NS,
    });
    if (d.prevClose !== undefined) {
      Object.assign(day, {
        previous_close: d.prevClose,
        change: roundTo(d.day.c - d.prevClose, 4),
        change_percent: d.prevClose !== 0 ? roundTo(((d.day.c - d.prevClose) / d.prevClose) * 100, 4) : 0,
      });
    }
  }

  let midpoint: number | undefined;
  let twoSided = false;
  if (d.quote) {
    const bid = d.quote.bid ?? 0;
    const ask = d.quote.ask ?? 0;
    twoSided = bid > 0 && ask > 0;
    // An empty side (no bid, no offer) is not a price of 0: a one-sided quote's midpoint is its side.
    midpoint = twoSided ? (bid + ask) / 2 : Math.max(bid, ask);
    out.last_quote = {
      ask,
      ask_size: d.quote.ask !== null ? (d.quote.askSize ?? 0) : 0,
      bid,
      bid_size: d.quote.bid !== null ? (d.quote.bidSize ?? 0) : 0,
      last_updated: BigInt(Math.floor(d.quote.asOf)) * NS,
      midpoint,
      timeframe: 'REAL-TIME',
    };
  }
  const premium = twoSided ? midpoint : (d.day?.c ?? midpoint);
  if (premium !== undefined)
    out.break_even_price = roundTo(isCall ? c.strike_price + premium : c.strike_price - premium, 4);
  out.day = day;
  out.details = {
    contract_type: c.contract_type,
    exercise_style: c.exercise_style,
    expiration_date: c.expiration_date,
    shares_per_contract: c.shares_per_contract,
    strike_price: c.strike_price,
    ticker: c.ticker,
  };

  if (twoSided && midpoint !== undefined && d.underlying) {
    const years = (expiryInstant(c.expiration_date) - d.nowMs) / YEAR_MS;
    const inputs = {
      type: isCall ? ('call' as const) : ('put' as const),
      spot: d.underlying.price,
      strike: c.strike_price,
      years,
    };
    const iv = years > 0 ? impliedVolatility(midpoint, inputs) : undefined;
    if (iv !== undefined) {
      out.greeks = blackScholesGreeks(inputs, iv);
      out.implied_volatility = iv;
    }
  }
  if (d.openInterest !== undefined) out.open_interest = d.openInterest;
  if (d.underlying) {
    const u: Record<string, unknown> = {
      change_to_break_even:
        out.break_even_price !== undefined
          ? roundTo((out.break_even_price as number) - d.underlying.price, 4)
          : 0,
      last_updated: BigInt(Math.floor(d.underlying.asOfMs)) * NS,
      ticker: d.underlying.ticker,
      timeframe: 'REAL-TIME',
    };
    if (d.underlying.isIndex) u.value = d.underlying.price;
    else u.price = d.underlying.price;
    out.underlying_asset = u;
  } else {
    out.underlying_asset = { change_to_break_even: 0, ticker: c.underlying_ticker };
  }
  return out;
}

/**
 * When a contract stops trading: the close of its expiration day's session (13:00 New York on an early
 * close), 16:00 New York when the calendar has no session that day.
 */
export function expiryInstant(date: string): number {
  const session = tradingSession(date);
  if (session) return session.close;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return zonedToUtc(NEW_YORK, y, m, d, 16);
}

/**
 * The session so far of each contract, from its minute bars (a daily bar for a finished session without
 * any).
 */
async function sessionDays(
  store: Store,
  tickers: readonly string[],
  dayStart: number,
  nowMs: number,
): Promise<Map<string, DayRow>> {
  const d = store.dialect;
  // Named apart from the columns: ClickHouse would read `v` in `sum(… * v)` as the alias `sum(v)`.
  const agg = `SELECT ticker, day_o AS o, day_h AS h, day_l AS l, day_c AS c, day_v AS v, day_vw AS vw, last_t
    FROM (SELECT ticker, ${d.argMin('o', 't')} AS day_o, max(h) AS day_h, min(l) AS day_l,
        ${d.argMax('c', 't')} AS day_c, sum(v) AS day_v,
        CASE WHEN sum(v) > 0 THEN sum(coalesce(vw, (h + l + c) / 3) * v) / sum(v) ELSE ${d.argMax('c', 't')} END AS day_vw,
        max(t) AS last_t
      FROM bars WHERE ${d.inList('ticker', '$1')} AND resolution = $2 AND t >= $3 AND t + $5 <= $4
      GROUP BY ticker)`;
  const list = listValue([...tickers]);
  const rows = await store.all<DayRow>(agg, [
    list,
    'minute',
    BigInt(dayStart),
    BigInt(Math.floor(nowMs)),
    60_000n,
  ]);
  const out = new Map(rows.map((r) => [r.ticker, r]));
  if (
    out.size < tickers.length &&
    nowMs >= dailyBarFinalAt(tickers[0] as string, dayOf(dayStart, NEW_YORK))
  ) {
    const daily = await store.all<DayRow>(agg, [list, 'day', BigInt(dayStart), BigInt(dayStart + 1), 0n]);
    for (const r of daily) if (!out.has(r.ticker)) out.set(r.ticker, r);
  }
  return out;
}

/** The close of each contract's last bar before the session: its previous close. */
async function previousCloses(
  store: Store,
  tickers: readonly string[],
  dayStart: number,
): Promise<Map<string, number>> {
  const rows = await store.all<{ ticker: string; c: number }>(
    `SELECT ticker, ${store.dialect.argMax('c', 't')} AS c FROM bars
      WHERE ${store.dialect.inList('ticker', '$1')} AND resolution IN ('minute', 'day') AND t < $2
      GROUP BY ticker`,
    [listValue([...tickers]), BigInt(dayStart)],
  );
  return new Map(rows.map((r) => [r.ticker, r.c]));
}
