import type { Context, Hono } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import type { DecodedValue } from '../../core/wire-values.js';
import { dayOf } from '../../dates/time-zone.js';
import { futuresOperationsOf } from '../../operations/futures.js';
import { parseFuturesTicker } from '../../symbols/futures-ticker.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, badRequest, sendJson } from '../http.js';
import { keysetPage, keysetPosition } from '../listing/keyset-page.js';
import { pageOffset, withNextUrl } from '../listing/offset-page.js';
import {
  FUTURES_PRODUCTS,
  type FuturesCandle,
  type FuturesWindow,
  futuresDataDates,
  futuresSnapshots,
  futuresWindow,
  marketStateAt,
  queryFuturesAggs,
  sessionEndDate,
  sessionEvents,
  storedFuturesContracts,
  tradingDates,
} from '../market/futures.js';
import { futuresCandleBounds, futuresTickBounds } from '../market/futures-bounds.js';
import { queryTicks } from '../market/ticks.js';
import { FUTURES_EXCHANGES } from '../reference-data/futures-exchanges.js';
import { parseRequest, routePattern } from '../validate.js';

/**
 * Futures (both path generations, `v1` and `vX`): aggregates from the stored bars, trades and quotes
 * from the stored ticks (Lean's data has no tick quotes: only those a caching server stored), contracts,
 * products, schedules and market status from the exchange's rules (`market/futures.ts`), the snapshot
 * from the stored data up to the server's "now", exchanges from CME Group's markets (`reference-data/futures-exchanges.ts`).
 */
export function futuresRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  for (const version of ['v1', 'vX'] as const) {
    const ops = futuresOperationsOf(version);
    app.get(routePattern(ops.getAggregates), (c) => aggregates(c, ctx, ops.getAggregates));
    app.get(routePattern(ops.getTrades), (c) => ticks(c, ctx, ops.getTrades, 'trades'));
    app.get(routePattern(ops.getQuotes), (c) => ticks(c, ctx, ops.getQuotes, 'quotes'));
    app.get(routePattern(ops.getContracts), (c) => contracts(c, ctx, ops.getContracts));
    app.get(routePattern(ops.getProducts), (c) => products(c, ctx, ops.getProducts));
    app.get(routePattern(ops.getSchedules), (c) => schedules(c, ctx, ops.getSchedules));
    app.get(routePattern(ops.getMarketStatus), (c) => marketStatus(c, ctx, ops.getMarketStatus));
    app.get(routePattern(ops.getSnapshot), (c) => snapshot(c, ctx, ops.getSnapshot));
    app.get(routePattern(ops.getExchanges), (c) => exchanges(c, ops.getExchanges));
  }
}

/** A contract ticker from the path, checked. */
function contractTicker(c: Context<AppEnv>, values: ReadonlyMap<string, DecodedValue>): string {
  const ticker = String(values.get('ticker') ?? c.req.param('ticker'));
  try {
    // The store keys contracts as the service writes them, with a one-digit year (`ESZ23` is `ESZ3`).
    const p = parseFuturesTicker(ticker, { referenceDate: 2000 });
    return `${p.productCode}${p.monthCode}${p.year % 10}`;
  } catch (e) {
    throw badRequest((e as Error).message);
  }
}

async function aggregates(c: Context<AppEnv>, ctx: ServerContext, op: OperationSpec): Promise<Response> {
  const req = parseRequest(op, c, { resolution: '1session', limit: 1000, sort: 'window_start.desc' });
  const ticker = contractTicker(c, req.values);
  const resolution = String(req.values.get('resolution'));
  const window = futuresWindow(resolution);
  if (typeof window === 'string') {
    throw badRequest(`resolution ${JSON.stringify(resolution)} is not available here: ${window}.`);
  }
  const limit = req.values.get('limit') as number;
  const asc = req.values.get('sort') === 'window_start.asc';
  const { gte, lt } = futuresCandleBounds(req.values, window);
  const after = keysetPosition(req, ['int']);
  const rows = await queryFuturesAggs(ctx.store, {
    ticker,
    window,
    ...(gte !== undefined && { gte }),
    ...(lt !== undefined && { lt }),
    asc,
    limit: limit + 1,
    ...(after && { after: after[0] }),
  });
  const page = keysetPage(c, req, rows, limit, (r) => [r.window_start], {
    limit: String(limit),
    sort: asc ? 'window_start.asc' : 'window_start.desc',
    resolution,
  });
  const results = page.rows.map((r) => ({
    close: r.close,
    dollar_volume: r.dollar_volume,
    high: r.high,
    low: r.low,
    open: r.open,
    session_end_date: candleSessionEnd(window, r),
    ...(r.settlement_price !== undefined && { settlement_price: r.settlement_price }),
    ticker,
    ...(r.transactions !== undefined && { transactions: r.transactions }),
    volume: r.volume,
    window_start: r.window_start,
  }));
  return sendJson(c, {
    results,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}

/**
 * The `session_end_date` of a candle: for one built from daily bars, the trading date of its last
 * session (a daily bar starts at UTC midnight of its trading date); for an intraday candle, the trading
 * date of its start.
 */
function candleSessionEnd(window: FuturesWindow, candle: FuturesCandle): string {
  if (window.source === 'day') return dayOf(candle.last, 'UTC');
  return sessionEndDate(Number(candle.window_start / 1_000_000n));
}

/** Trades or quotes of a contract (from the stored ticks), by timestamp. */
async function ticks(
  c: Context<AppEnv>,
  ctx: ServerContext,
  op: OperationSpec,
  table: 'trades' | 'quotes',
): Promise<Response> {
  const req = parseRequest(op, c, { limit: table === 'trades' ? 10 : 100, sort: 'timestamp.desc' });
  const ticker = contractTicker(c, req.values);
  const limit = req.values.get('limit') as number;
  const sort = String(req.values.get('sort'));
  const first = sort.split(',')[0] as string;
  if (!/^(timestamp|sequence_number)(\.(asc|desc))?$/.test(first)) {
    throw badRequest(
      `sort ${JSON.stringify(sort)} is not available here: the local server orders by timestamp (timestamp.asc or timestamp.desc).`,
    );
  }
  const desc = !first.endsWith('.asc');
  const bounds = futuresTickBounds(req.values);
  const after = keysetPosition(req, ['int', 'int']);
  // Lean's futures data has quote bars only: quotes are those the caching server stored, if any.
  const rows = await queryTicks(ctx.store, table, {
    ticker,
    bounds,
    desc,
    limit: limit + 1,
    ...(after && { after }),
  });
  const page = keysetPage(c, req, rows, limit, (r) => [r.sip_timestamp, r.sequence_number], {
    limit: String(limit),
    sort: desc ? 'timestamp.desc' : 'timestamp.asc',
  });
  const sessionOf = (ns: bigint) => sessionEndDate(Number(BigInt(ns) / 1_000_000n));
  const results =
    table === 'trades'
      ? page.rows.map((r) => ({
          ...(r.channel != null && { channel: Number(r.channel) }),
          price: r.price,
          ...(r.report_sequence != null && { report_sequence: BigInt(r.report_sequence) }),
          sequence_number: r.sequence_number,
          session_end_date: sessionOf(r.sip_timestamp),
          size: r.size,
          ticker,
          timestamp: r.sip_timestamp,
        }))
      : page.rows.map((r) => ({
          ...(r.ask_price !== null && { ask_price: r.ask_price }),
          ...(r.ask_size !== null && { ask_size: r.ask_size }),
          ...(r.ask_timestamp != null && { ask_timestamp: BigInt(r.ask_timestamp) }),
          ...(r.bid_price !== null && { bid_price: r.bid_price }),
          ...(r.bid_size !== null && { bid_size: r.bid_size }),
          ...(r.bid_timestamp != null && { bid_timestamp: BigInt(r.bid_timestamp) }),
          ...(r.channel != null && { channel: Number(r.channel) }),
          ...(r.report_sequence != null && { report_sequence: BigInt(r.report_sequence) }),
          sequence_number: r.sequence_number,
          session_end_date: sessionOf(r.sip_timestamp),
          ticker,
          timestamp: r.sip_timestamp,
        }));
  return sendJson(c, {
    results,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}

type Row = Record<string, string | number | boolean | undefined>;

/** The value of a date parameter, as `YYYY-MM-DD`. */
function dateText(v: DecodedValue): string {
  return typeof v === 'object' && v !== null && 'date' in v ? v.date : String(v);
}

/**
 * Keeps the rows matching every filter of the request: `field`, `field.any_of` and the range bounds
 * `field.gt/.gte/.lt/.lte`, for each of `fields` (compared as text, which orders dates and codes).
 */
function filterRows(
  rows: Row[],
  values: ReadonlyMap<string, DecodedValue>,
  fields: readonly string[],
): Row[] {
  return rows.filter((row) =>
    fields.every((f) => {
      const have = row[f];
      const text = have === undefined ? undefined : String(have);
      const exact = values.get(f);
      if (exact !== undefined) {
        const want =
          typeof exact === 'boolean' || typeof exact === 'number' ? String(exact) : dateText(exact);
        if (text?.toUpperCase() !== want.toUpperCase()) return false;
      }
      const any = values.get(`${f}.any_of`);
      if (any !== undefined) {
        const list = (Array.isArray(any) ? any : String(any).split(',')).map((s) => s.toUpperCase());
        if (text === undefined || !list.includes(text.toUpperCase())) return false;
      }
      for (const [op, ok] of [
        ['gt', (a: string, b: string) => a > b],
        ['gte', (a: string, b: string) => a >= b],
        ['lt', (a: string, b: string) => a < b],
        ['lte', (a: string, b: string) => a <= b],
      ] as const) {
        const v = values.get(`${f}.${op}`);
        if (v !== undefined && (text === undefined || !ok(text, dateText(v)))) return false;
      }
      return true;
    }),
  );
}

/**
 * Sorts by `sort` (`col.asc,col2.desc`), then cuts the page: these lists are small and computed whole
 * for each request, so pages go by offset.
 */
function sortAndPage(
  c: Context<AppEnv>,
  req: ReturnType<typeof parseRequest>,
  rows: Row[],
  sort: string,
): { rows: Row[]; nextUrl?: string } {
  const keys = sort.split(',').map((s) => {
    const [col, dir] = s.split('.') as [string, string | undefined];
    return { col, desc: dir === 'desc' };
  });
  rows.sort((a, b) => {
    for (const { col, desc } of keys) {
      const x = String(a[col] ?? '');
      const y = String(b[col] ?? '');
      if (x !== y) return (x < y ? -1 : 1) * (desc ? -1 : 1);
    }
    return 0;
  });
  const limit = req.values.get('limit') as number;
  const offset = pageOffset(req);
  const slice = rows.slice(offset, offset + limit + 1);
  const { next_url: nextUrl } = withNextUrl<{ next_url?: string }>(c, req, {}, slice.length, limit);
  return { rows: slice.slice(0, limit), ...(nextUrl !== undefined && { nextUrl }) };
}

/** The day contract and product facts are given for: `date`, else the server's "now". */
async function asOf(ctx: ServerContext, values: ReadonlyMap<string, DecodedValue>): Promise<string> {
  const d = values.get('date');
  return d === undefined ? dayOf(await ctx.now('futures'), 'UTC') : dateText(d);
}

async function contracts(c: Context<AppEnv>, ctx: ServerContext, op: OperationSpec): Promise<Response> {
  const req = parseRequest(op, c, { limit: 100, sort: 'product_code.asc' });
  const date = await asOf(ctx, req.values);
  const all: Row[] = (await storedFuturesContracts(ctx.store)).map((k) => {
    const active = k.first_trade_date <= date && date <= k.last_trade_date;
    const days = Math.round((Date.parse(k.settlement_date) - Date.parse(date)) / 86_400_000);
    return { ...k, active, date, ...(active && { days_to_maturity: days }) };
  });
  // `date` picks the facts' day; the others filter.
  const values = new Map(req.values);
  values.delete('date');
  const rows = filterRows(all, values, [
    'product_code',
    'ticker',
    'active',
    'type',
    'first_trade_date',
    'last_trade_date',
  ]);
  const sort = String(req.values.get('sort'));
  const page = sortAndPage(
    c,
    req,
    rows,
    sort.includes(',') || sort.includes('ticker') ? sort : `${sort},ticker`,
  );
  return sendJson(c, {
    results: page.rows,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}

async function products(c: Context<AppEnv>, ctx: ServerContext, op: OperationSpec): Promise<Response> {
  const req = parseRequest(op, c, { limit: 100, sort: 'date.asc' });
  const date = await asOf(ctx, req.values);
  const all: Row[] = FUTURES_PRODUCTS.map(({ tickSize, listedAhead, lastTradeDate, ...p }) => ({
    ...p,
    date,
  }));
  const values = new Map(req.values);
  values.delete('date');
  const rows = filterRows(all, values, [
    'name',
    'product_code',
    'trading_venue',
    'sector',
    'sub_sector',
    'asset_class',
    'asset_sub_class',
    'type',
  ]);
  const sort = String(req.values.get('sort'));
  const page = sortAndPage(c, req, rows, `${sort},product_code`);
  return sendJson(c, {
    results: page.rows,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}

/** The longest span of trading dates one schedules request may cover. */
const MAX_SCHEDULE_DAYS = 3660;

const isoTime = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, '+00:00');

async function schedules(c: Context<AppEnv>, ctx: ServerContext, op: OperationSpec): Promise<Response> {
  const req = parseRequest(op, c, { limit: 10, sort: 'product_code.asc' });
  // Trading dates: the bounds given, else those of the stored futures data.
  const exact = req.values.get('session_end_date');
  const text = (wire: string) => {
    const v = req.values.get(wire);
    return v === undefined ? undefined : dateText(v);
  };
  const shift = (date: string, days: number) => {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  };
  const stored = await futuresDataDates(ctx.store);
  const lows = [
    text('session_end_date.gte'),
    text('session_end_date.gt') && shift(text('session_end_date.gt') as string, 1),
  ];
  const highs = [
    text('session_end_date.lte'),
    text('session_end_date.lt') && shift(text('session_end_date.lt') as string, -1),
  ];
  const given = (list: (string | undefined)[]) =>
    list.filter((d): d is string => typeof d === 'string' && d !== '');
  let from = exact !== undefined ? dateText(exact) : given(lows).sort().at(-1);
  let to = exact !== undefined ? dateText(exact) : given(highs).sort()[0];
  from ??= stored?.from;
  to ??= stored?.to;
  if (from === undefined || to === undefined) from = to = dayOf(await ctx.now('futures'), 'UTC');
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 > MAX_SCHEDULE_DAYS) {
    throw badRequest(
      `session_end_date from ${from} to ${to} spans more than ${MAX_SCHEDULE_DAYS} days; narrow it with session_end_date.gte and session_end_date.lte.`,
    );
  }
  const all: Row[] = [];
  for (const date of to < from ? [] : tradingDates(from, to)) {
    for (const p of FUTURES_PRODUCTS) {
      for (const e of sessionEvents(date)) {
        all.push({
          event: e.event,
          product_code: p.product_code,
          product_name: p.name,
          session_end_date: date,
          timestamp: isoTime(e.ms),
          trading_venue: p.trading_venue,
        });
      }
    }
  }
  const values = new Map(req.values);
  for (const k of [...values.keys()]) if (k.startsWith('session_end_date')) values.delete(k);
  const rows = filterRows(all, values, ['product_code', 'trading_venue']);
  const sort = String(req.values.get('sort'));
  const page = sortAndPage(c, req, rows, `${sort},session_end_date,product_code,timestamp`);
  return sendJson(c, {
    results: page.rows,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}

async function marketStatus(c: Context<AppEnv>, ctx: ServerContext, op: OperationSpec): Promise<Response> {
  const req = parseRequest(op, c, { limit: 10 });
  const state = marketStateAt(await ctx.now('futures'));
  const all: Row[] = FUTURES_PRODUCTS.map((p) => ({
    market_event: state.market_event,
    name: p.name,
    product_code: p.product_code,
    session_end_date: state.session_end_date,
    timestamp: isoTime(state.at),
    trading_venue: p.trading_venue,
  }));
  const rows = filterRows(all, req.values, ['product_code']);
  const page = sortAndPage(c, req, rows, 'product_code.asc');
  return sendJson(c, {
    results: page.rows,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}

async function snapshot(c: Context<AppEnv>, ctx: ServerContext, op: OperationSpec): Promise<Response> {
  const req = parseRequest(op, c, { limit: 100, sort: 'ticker.asc' });
  const now = await ctx.now('futures');
  const listed = (await storedFuturesContracts(ctx.store)).map((k) => ({ ...k }) as Row);
  const rows = filterRows(listed, req.values, ['product_code', 'ticker']);
  const page = sortAndPage(c, req, rows, `${String(req.values.get('sort'))},ticker`);
  const snapshots = await futuresSnapshots(
    ctx.store,
    page.rows.map((k) => String(k.ticker)),
    now,
  );
  const results = [];
  for (const k of page.rows) {
    const ticker = String(k.ticker);
    const data = snapshots.get(ticker) ?? {};
    const settlement = BigInt(Date.parse(String(k.settlement_date))) * 1_000_000n;
    const out: Record<string, unknown> = {
      details: {
        ...(data.openInterest !== undefined && { open_interest: data.openInterest }),
        settlement_date: settlement,
      },
    };
    if (data.lastMinute) {
      const m = data.lastMinute;
      out.last_minute = {
        close: m.c,
        high: m.h,
        last_updated: m.t + 60_000,
        low: m.l,
        open: m.o,
        volume: m.v,
      };
    }
    if (data.lastTrade) {
      out.last_trade = {
        last_updated: data.lastTrade.ns,
        price: data.lastTrade.price,
        size: data.lastTrade.size,
      };
    }
    out.product_code = k.product_code;
    if (data.session) {
      const d = data.session;
      out.session = { close: d.c, high: d.h, low: d.l, open: d.o, volume: d.v };
    }
    out.ticker = ticker;
    results.push(out);
  }
  return sendJson(c, {
    count: results.length,
    results,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}

/** The futures exchanges, paged by offset in the order listed. */
function exchanges(c: Context<AppEnv>, op: OperationSpec): Response {
  const req = parseRequest(op, c, { limit: 100 });
  const page = sortAndPage(c, req, [...FUTURES_EXCHANGES], 'id.asc');
  return sendJson(c, {
    count: page.rows.length,
    results: page.rows,
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}
