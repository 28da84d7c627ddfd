import type { Context, Hono } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import { NEW_YORK } from '../../dates/time-zone.js';
import { legacyTicks, quotesV3, tradesV3 } from '../../operations/trades-quotes.js';
import type { ServerContext } from '../context.js';
import { nextUrl } from '../cursor.js';
import { type AppEnv, badRequest, originOf, put, sendJson } from '../http.js';
import { decimalString, marketTimeZone, normaliseLists } from '../market/index.js';
import type { SqlValue } from '../store/store.js';
import type { QuoteRow, TradeRow } from '../store/tick-rows.js';
import {
  dayStartNs,
  type NsBounds,
  parseRequest,
  routePattern,
  type ServerDefaults,
  timestampBounds,
} from '../validate.js';

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
}

/** Where the next page resumes: after (asc) or before (desc) this (timestamp, sequence number). */
const POSITION = /^(\d{1,20})\.(\d{1,20})$/;

async function v3List(
  c: Context<AppEnv>,
  ctx: ServerContext,
  op: OperationSpec,
  table: Table,
): Promise<Response> {
  const req = parseRequest(op, c, V3_DEFAULTS);
  const ticker = req.values.get('ticker') as string;
  const bounds = timestampBounds(req.values, marketTimeZone(ticker));
  const desc = req.values.get('order') !== 'asc';
  const limit = req.values.get('limit') as number;
  let after: { ts: bigint; seq: bigint } | undefined;
  const pos = req.fromCursor ? req.query.get('pos') : null;
  if (pos !== null) {
    const m = POSITION.exec(pos);
    if (!m) throw badRequest('The cursor is malformed; use the next_url of a previous response as is.');
    after = { ts: BigInt(m[1] as string), seq: BigInt(m[2] as string) };
  }
  const where = ['ticker = $1'];
  const params: SqlValue[] = [ticker];
  addBounds(where, params, bounds);
  if (after) {
    params.push(after.ts, after.seq);
    const n = params.length;
    where.push(`(sip_timestamp, sequence_number) ${desc ? '<' : '>'} ($${n - 1}, $${n})`);
  }
  const dir = desc ? 'DESC' : 'ASC';
  params.push(BigInt(limit + 1));
  const rows = await ctx.store.all<TradeRow & QuoteRow>(
    `SELECT * FROM ${table} WHERE ${where.join(' AND ')}
      ORDER BY sip_timestamp ${dir}, sequence_number ${dir} LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > limit;
  // The store may share result arrays between requests (its cache): never trimmed in place.
  const page = more ? rows.slice(0, limit) : rows;
  const results = page.map((r) => (table === 'trades' ? tradeJson(ticker, r) : quoteJson(ticker, r)));
  let next: string | undefined;
  const last = page[page.length - 1];
  if (more && last) {
    const state = new URLSearchParams();
    for (const [k, v] of req.query) if (k !== 'pos' && k !== 'cursor' && k !== 'apiKey') state.append(k, v);
    state.set('order', desc ? 'desc' : 'asc');
    state.set('limit', String(limit));
    state.set('sort', 'timestamp');
    state.set('pos', `${last.sip_timestamp}.${last.sequence_number}`);
    next = nextUrl(originOf(c), new URL(c.req.url).pathname, state);
  }
  return sendJson(c, {
    results,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(next !== undefined && { next_url: next }),
  });
}

function addBounds(where: string[], params: SqlValue[], b: NsBounds): void {
  if (b.gte !== undefined) {
    params.push(b.gte);
    where.push(`sip_timestamp >= $${params.length}`);
  }
  if (b.lt !== undefined) {
    params.push(b.lt);
    where.push(`sip_timestamp < $${params.length}`);
  }
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
  put(out, 'ask_exchange', r.ask_exchange);
  put(out, 'ask_price', r.ask_price);
  if (!forex) put(out, 'ask_size', r.ask_size);
  put(out, 'bid_exchange', r.bid_exchange);
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
  const where = ['ticker = $1', 'sip_timestamp >= $2', 'sip_timestamp < $3'];
  const params: SqlValue[] = [ticker, dayStartNs(date, NEW_YORK, 0), dayStartNs(date, NEW_YORK, 1)];
  if (offset !== undefined) {
    params.push(offset);
    where.push(`sip_timestamp ${reverse ? '<' : '>'} $${params.length}`);
  }
  if (until !== undefined) {
    params.push(until);
    where.push(`sip_timestamp <= $${params.length}`);
  }
  const dir = reverse ? 'DESC' : 'ASC';
  params.push(BigInt(limit));
  const rows = await ctx.store.all<TradeRow & QuoteRow>(
    `SELECT * FROM ${table} WHERE ${where.join(' AND ')}
      ORDER BY sip_timestamp ${dir}, sequence_number ${dir} LIMIT $${params.length}`,
    params,
  );
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
