import type { Context, Hono } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import { cryptoDailyOpenClose } from '../../operations/aggregates.js';
import { currencyConversion, lastCryptoTrade, lastForexQuote } from '../../operations/last.js';
import { historicTicks } from '../../operations/trades-quotes.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, badRequest, notFound, sendJson } from '../http.js';
import { intersect } from '../listing/where.js';
import {
  dailyBar,
  lastQuote,
  lastQuoteBar,
  lastTrade,
  normaliseLists,
  roundPrice,
  roundVolume,
} from '../market/index.js';
import { queryTicks, queryTrades } from '../market/ticks.js';
import { FOREX_EXCHANGE_ID } from '../snapshots/v2-snapshot.js';
import type { QuoteRow, TradeRow } from '../store/tick-rows.js';
import { dayStartNs, parseRequest, routePattern } from '../validate.js';

/** Coinbase's id in the service's crypto exchange list: the vendor of the stored crypto data. */
const COINBASE = 1;

/** A forex quote as the v1 endpoints write it (`timestamp` in ms). */
interface ForexLast {
  ask: number;
  bid: number;
  /** The quote's exchange, else the service's forex id (the stored quotes name none). */
  exchange: number;
  timestamp: number;
}

/**
 * The latest quote of a currency pair (`C:EURUSD`) at or before `atMs`: the last quote tick, or the
 * closing quote of the last quote bar when that is more recent (most pairs are stored as bars only).
 */
async function latestForexQuote(
  ctx: ServerContext,
  ticker: string,
  atMs: number,
): Promise<ForexLast | undefined> {
  const [tick, bar] = await Promise.all([
    lastQuote(ctx.store, ticker, atMs),
    lastQuoteBar(ctx.store, ticker, atMs),
  ]);
  const tickMs = tick ? Number(tick.sip_timestamp / 1_000_000n) : -Infinity;
  // A bar's closing quote is only known to be later than a tick when the whole bar is.
  const p = (x: number) => roundPrice(ticker, x);
  if (tick && tick.bid_price !== null && tick.ask_price !== null && (!bar || tickMs >= bar.start)) {
    const exchange = tick.bid_exchange ?? tick.ask_exchange ?? FOREX_EXCHANGE_ID;
    return { ask: p(tick.ask_price), bid: p(tick.bid_price), exchange, timestamp: tickMs };
  }
  return bar
    ? { ask: p(bar.ask), bid: p(bar.bid), exchange: FOREX_EXCHANGE_ID, timestamp: bar.t }
    : undefined;
}

const pairOf = (c: Context<AppEnv>, op: OperationSpec) => {
  const values = parseRequest(op, c).values;
  return { values, from: values.get('from') as string, to: values.get('to') as string };
};

/** v1 forex and crypto: last quote, last trade, conversion, historic ticks, crypto daily open/close. */
export function forexCryptoRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.get(routePattern(lastForexQuote), async (c) => {
    const { from, to } = pairOf(c, lastForexQuote);
    const last = await latestForexQuote(ctx, `C:${from}${to}`, await ctx.now('fx'));
    if (!last) throw notFound();
    return sendJson(c, { last, request_id: c.get('requestId'), status: 'success', symbol: `${from}/${to}` });
  });

  app.get(routePattern(lastCryptoTrade), async (c) => {
    const { from, to } = pairOf(c, lastCryptoTrade);
    const ticker = `X:${from}${to}`;
    const now = await ctx.now('crypto');
    // A trade tick: a bar's close is no trade (it has no size, exchange or time of its own).
    const trade = await lastTrade(ctx.store, ticker, now);
    if (!trade) throw notFound();
    const r = normaliseLists(trade);
    const last = {
      conditions: r.conditions ?? [],
      exchange: r.exchange ?? COINBASE,
      price: roundPrice(ticker, r.price),
      size: roundVolume(r.size),
      timestamp: Number(r.sip_timestamp / 1_000_000n),
    };
    return sendJson(c, { last, request_id: c.get('requestId'), status: 'success', symbol: `${from}-${to}` });
  });

  app.get(routePattern(currencyConversion), async (c) => {
    const { values, from, to } = pairOf(c, currencyConversion);
    const amount = (values.get('amount') as number | undefined) ?? 1;
    const precision = Math.min((values.get('precision') as number | undefined) ?? 2, 4);
    const now = await ctx.now('fx');
    // The direct pair's bid, else the inverse pair's (1 / bid), as the service's recorded answers do.
    let quote = await latestForexQuote(ctx, `C:${from}${to}`, now);
    let symbol = `${from}/${to}`;
    let rate = quote?.bid;
    if (!quote) {
      quote = await latestForexQuote(ctx, `C:${to}${from}`, now);
      symbol = `${to}/${from}`;
      rate = quote && quote.bid !== 0 ? 1 / quote.bid : undefined;
    }
    if (!quote || rate === undefined) throw notFound();
    const scale = 10 ** precision;
    const converted = Math.round(amount * rate * scale) / scale;
    if (!Number.isFinite(converted)) throw badRequest(`The amount ${amount} is too large to convert.`);
    return sendJson(c, {
      converted,
      from,
      initialAmount: amount,
      last: quote,
      request_id: c.get('requestId'),
      status: 'success',
      symbol,
      to,
    });
  });

  const forexTicks = historicTicks('forex');
  app.get(routePattern(forexTicks), async (c) => {
    const started = performance.now();
    const { values, from, to } = pairOf(c, forexTicks);
    const date = (values.get('date') as { date: string }).date;
    const rows = await historicRows(ctx, 'quotes', `C:${from}${to}`, date, values);
    const ticks = rows.map((r) => {
      const tick: Record<string, unknown> = {};
      if (r.ask_price !== null) tick.a = r.ask_price;
      if (r.bid_price !== null) tick.b = r.bid_price;
      tick.x = r.bid_exchange ?? r.ask_exchange ?? FOREX_EXCHANGE_ID;
      tick.t = Number(r.sip_timestamp / 1_000_000n);
      return tick;
    });
    return sendJson(c, {
      day: date,
      map: { a: 'ask', b: 'bid', t: 'timestamp', x: 'exchange' },
      msLatency: Math.round(performance.now() - started),
      pair: `${from}/${to}`,
      status: 'success',
      ticks,
      type: 'forex',
    });
  });

  const cryptoTicks = historicTicks('crypto');
  app.get(routePattern(cryptoTicks), async (c) => {
    const started = performance.now();
    const { values, from, to } = pairOf(c, cryptoTicks);
    const date = (values.get('date') as { date: string }).date;
    const rows = await historicRows(ctx, 'trades', `X:${from}${to}`, date, values);
    return sendJson(c, {
      day: date,
      map: { c: 'conditions', i: 'id', p: 'price', s: 'size', t: 'timestamp', x: 'exchange' },
      msLatency: Math.round(performance.now() - started),
      status: 'success',
      symbol: `${from}-${to}`,
      ticks: rows.map(cryptoTradeJson),
      type: 'crypto',
    });
  });

  app.get(routePattern(cryptoDailyOpenClose), async (c) => {
    const { values, from, to } = pairOf(c, cryptoDailyOpenClose);
    const ticker = `X:${from}${to}`;
    const date = (values.get('date') as { date: string }).date;
    const bar = await dailyBar(ctx.store, ticker, date, { adjusted: values.get('adjusted') !== false });
    if (!bar) throw notFound();
    const day = { gte: dayStartNs(date, 'UTC', 0), lt: dayStartNs(date, 'UTC', 1) };
    const [first, last] = await Promise.all([
      queryTrades(ctx.store, { ticker, bounds: day, desc: false, limit: 2 }),
      queryTrades(ctx.store, { ticker, bounds: day, desc: true, limit: 2 }),
    ]);
    return sendJson(c, {
      symbol: `${from}-${to}`,
      isUTC: true,
      day: `${date}T00:00:00.000Z`,
      open: bar.o,
      close: bar.c,
      openTrades: first.map(cryptoTradeJson),
      closingTrades: [...last].reverse().map(cryptoTradeJson),
    });
  });
}

function cryptoTradeJson(row: TradeRow): Record<string, unknown> {
  const r = normaliseLists(row);
  const out: Record<string, unknown> = {
    p: r.price,
    s: r.size,
    x: r.exchange ?? COINBASE,
    c: r.conditions ?? [],
    t: Number(r.sip_timestamp / 1_000_000n),
  };
  if (r.id !== null) out.i = r.id;
  return out;
}

/** Ticks of one UTC day after the `offset` (ms), oldest first, at most `limit`. */
function historicRows(
  ctx: ServerContext,
  table: 'quotes' | 'trades',
  ticker: string,
  date: string,
  values: ReadonlyMap<string, unknown>,
): Promise<(TradeRow & QuoteRow)[]> {
  const offset = values.get('offset') as number | undefined;
  const limit = (values.get('limit') as number | undefined) ?? 100;
  return queryTicks(ctx.store, table, {
    ticker,
    bounds: intersect(
      { gte: dayStartNs(date, 'UTC', 0), lt: dayStartNs(date, 'UTC', 1) },
      // The offset is the `t` (ms) of the last tick seen: resume after that millisecond.
      offset === undefined ? {} : { gte: (BigInt(offset) + 1n) * 1_000_000n },
    ),
    desc: false,
    limit,
  });
}
