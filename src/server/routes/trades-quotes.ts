import type { Context, Hono } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import { NEW_YORK } from '../../dates/time-zone.js';
import { legacyTicks, optionTicksV3, quotesV3, tradesV3 } from '../../operations/trades-quotes.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, put, sendJson } from '../http.js';
import { keysetPage, keysetPosition } from '../listing/keyset-page.js';
import { intersect } from '../listing/where.js';
import { decimalString, marketTimeZone, normaliseLists } from '../market/index.js';
import { queryTicks } from '../market/ticks.js';
import { FOREX_EXCHANGE_ID } from '../snapshots/v2-snapshot.js';
import type { QuoteRow, TradeRow } from '../store/tick-rows.js';
import { dayStartNs, parseRequest, routePattern, type ServerDefaults, timestampBounds } from '../validate.js';

/** The service's defaults for v3 lists: newest first, 1000 per page. */
const V3_DEFAULTS: ServerDefaults = { order: 'desc', sort: 'timestamp', limit: 1000 };
/** Legacy v2 ticks: oldest first unless `reverse`. */
const V2_DEFAULTS: ServerDefaults = { reverse: false };

type Table = 'trades' | 'quotes';

/** Trades and quotes v3 (next_url paging) and the legacy v2 ticks (timestamp offset paging). */
export function tradesQuotesRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  const trades = tradesV3({ name: 'listTrades' });
  app.get(routePattern(trades), (c) => v3List(c, ctx, trades, 'trades'));
  const quotes = quotesV3({ name: 'listQuotes' });
  app.get(routePattern(quotes), (c) => v3List(c, ctx, quotes, 'quotes'));
  const v2Trades = legacyTicks('trades');
  app.get(routePattern(v2Trades), (c) => v2Ticks(c, ctx, v2Trades, 'trades'));
  const v2Quotes = legacyTicks('nbbo');
  app.get(routePattern(v2Quotes), (c) => v2Ticks(c, ctx, v2Quotes, 'quotes'));
  // The newer option endpoints: the same lists, ordered by `sort`, each record naming its contract.
  for (const table of ['trades', 'quotes'] as const) {
    const op = optionTicksV3(table);
    app.get(routePattern(op), (c) => v3List(c, ctx, op, table, { newer: true }));
  }
}

/** The newer endpoints' defaults: 1000 a page, newest first. */
const NEWER_DEFAULTS: ServerDefaults = { limit: 1000 };

async function v3List(
  c: Context<AppEnv>,
  ctx: ServerContext,
  op: OperationSpec,
  table: Table,
  { newer = false } = {},
): Promise<Response> {
  const req = parseRequest(op, c, newer ? NEWER_DEFAULTS : V3_DEFAULTS);
  const ticker = req.values.get('ticker') as string;
  const desc = newer ? req.values.get('sort') !== 'timestamp.asc' : req.values.get('order') !== 'asc';
  const limit = req.values.get('limit') as number;
  const after = keysetPosition(req, ['int', 'int']);
  const rows = await queryTicks(ctx.store, table, {
    ticker,
    bounds: timestampBounds(req.values, marketTimeZone(ticker)),
    desc,
    limit: limit + 1,
    ...(after && { after }),
  });
  const page = keysetPage(
    c,
    req,
    rows,
    limit,
    (r) => [r.sip_timestamp, r.sequence_number],
    newer
      ? { limit: String(limit), sort: desc ? 'timestamp.desc' : 'timestamp.asc' }
      : { order: desc ? 'desc' : 'asc', limit: String(limit), sort: 'timestamp' },
  );
  const results = page.rows.map((r) => {
    const record = table === 'trades' ? tradeJson(ticker, r) : quoteJson(ticker, r);
    return newer ? { ...record, ticker } : record;
  });
  return sendJson(c, {
    results,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}

/** A v3 trade record in the shape of the ticker's asset class. */
function tradeJson(ticker: string, row: TradeRow): Record<string, unknown> {
  const r = normaliseLists(row);
  const out: Record<string, unknown> = {};
  const crypto = ticker.startsWith('X:');
  const option = ticker.startsWith('O:');
  put(out, 'conditions', r.conditions);
  if (!crypto) put(out, 'correction', r.correction);
  put(out, 'exchange', r.exchange);
  // The vendor's ticks carry no trade id; the sequence number is unique per ticker and day like one.
  if (!option) out.id = r.id ?? String(r.sequence_number);
  put(out, 'participant_timestamp', r.participant_timestamp);
  out.price = r.price;
  if (!crypto) out.sequence_number = r.sequence_number;
  out.sip_timestamp = r.sip_timestamp;
  out.size = r.size;
  // Stock trades carry the size as a decimal string too; option and crypto trades do not.
  if (!option && !crypto) out.decimal_size = decimalString(r.size);
  if (!option && !crypto) {
    put(out, 'tape', r.tape);
    put(out, 'trf_id', r.trf_id);
    put(out, 'trf_timestamp', r.trf_timestamp);
  }
  return out;
}

/** A v3 quote record in the shape of the ticker's asset class (forex: prices and exchanges only). */
function quoteJson(ticker: string, row: QuoteRow): Record<string, unknown> {
  const r = normaliseLists(row);
  const out: Record<string, unknown> = {};
  const forex = ticker.startsWith('C:');
  // A forex source names no venue (Oanda's quotes): the service's forex id, as every forex route writes.
  const fxExchange = forex ? FOREX_EXCHANGE_ID : undefined;
  put(out, 'ask_exchange', r.ask_exchange ?? fxExchange);
  put(out, 'ask_price', r.ask_price);
  if (!forex) put(out, 'ask_size', r.ask_size);
  put(out, 'bid_exchange', r.bid_exchange ?? fxExchange);
  put(out, 'bid_price', r.bid_price);
  if (!forex) put(out, 'bid_size', r.bid_size);
  if (forex) {
    // Forex quotes carry one timestamp, the participant's; the store keeps it as the SIP time.
    out.participant_timestamp = r.participant_timestamp ?? r.sip_timestamp;
    return out;
  }
  put(out, 'conditions', r.conditions);
  put(out, 'indicators', r.indicators);
  put(out, 'participant_timestamp', r.participant_timestamp);
  out.sequence_number = r.sequence_number;
  out.sip_timestamp = r.sip_timestamp;
  put(out, 'tape', r.tape);
  return out;
}

const TRADE_MAP = {
  I: { name: 'orig_id', type: 'string' },
  c: { name: 'conditions', type: 'int' },
  e: { name: 'correction', type: 'int' },
  f: { name: 'trf_timestamp', type: 'int64' },
  i: { name: 'id', type: 'string' },
  p: { name: 'price', type: 'float64' },
  q: { name: 'sequence_number', type: 'int64' },
  r: { name: 'trf_id', type: 'int' },
  s: { name: 'size', type: 'int' },
  t: { name: 'sip_timestamp', type: 'int64' },
  x: { name: 'exchange', type: 'int' },
  y: { name: 'participant_timestamp', type: 'int64' },
  z: { name: 'tape', type: 'int' },
};

const QUOTE_MAP = {
  P: { name: 'ask_price', type: 'float64' },
  S: { name: 'ask_size', type: 'int' },
  X: { name: 'ask_exchange', type: 'int' },
  c: { name: 'conditions', type: 'int' },
  f: { name: 'trf_timestamp', type: 'int64' },
  i: { name: 'indicators', type: 'int' },
  p: { name: 'bid_price', type: 'float64' },
  q: { name: 'sequence_number', type: 'int64' },
  s: { name: 'bid_size', type: 'int' },
  t: { name: 'sip_timestamp', type: 'int64' },
  x: { name: 'bid_exchange', type: 'int' },
  y: { name: 'participant_timestamp', type: 'int64' },
  z: { name: 'tape', type: 'int' },
};

/**
 * Legacy v2 ticks of one New York day: ascending by default, `reverse=true` for newest first;
 * `timestamp` is the offset (results strictly after it, or before it when reversed) and
 * `timestampLimit` the latest timestamp allowed.
 */
async function v2Ticks(
  c: Context<AppEnv>,
  ctx: ServerContext,
  op: OperationSpec,
  table: Table,
): Promise<Response> {
  const started = performance.now();
  const req = parseRequest(op, c, V2_DEFAULTS);
  const ticker = req.values.get('ticker') as string;
  const date = (req.values.get('date') as { date: string }).date;
  const reverse = req.values.get('reverse') === true;
  const limit = req.values.get('limit') as number;
  const offset = req.values.get('timestamp') as bigint | undefined;
  const until = req.values.get('timestampLimit') as bigint | undefined;
  // `timestamp` is exclusive: results strictly after it, or before it when reversed.
  const rows = await queryTicks(ctx.store, table, {
    ticker,
    bounds: intersect(
      { gte: dayStartNs(date, NEW_YORK, 0), lt: dayStartNs(date, NEW_YORK, 1) },
      offset === undefined ? {} : reverse ? { lt: offset } : { gte: offset + 1n },
      until === undefined ? {} : { lt: until + 1n },
    ),
    desc: reverse,
    limit,
  });
  const results = rows.map((row) => {
    const r = normaliseLists(row);
    const out: Record<string, unknown> = { T: ticker, t: r.sip_timestamp };
    put(out, 'y', r.participant_timestamp);
    if (table === 'trades') {
      put(out, 'f', r.trf_timestamp);
      out.q = r.sequence_number;
      out.i = r.id ?? String(r.sequence_number);
      put(out, 'x', r.exchange);
      out.s = r.size;
      put(out, 'c', r.conditions);
      out.p = r.price;
      put(out, 'z', r.tape);
      put(out, 'e', r.correction);
      put(out, 'r', r.trf_id);
    } else {
      out.q = r.sequence_number;
      put(out, 'c', r.conditions);
      put(out, 'i', r.indicators);
      put(out, 'p', r.bid_price);
      put(out, 'x', r.bid_exchange);
      put(out, 's', r.bid_size);
      put(out, 'P', r.ask_price);
      put(out, 'X', r.ask_exchange);
      put(out, 'S', r.ask_size);
      put(out, 'z', r.tape);
    }
    return out;
  });
  return sendJson(c, {
    ticker,
    results_count: results.length,
    db_latency: Math.round(performance.now() - started),
    success: true,
    map: table === 'trades' ? TRADE_MAP : QUOTE_MAP,
    results,
  });
}
