import { startOfDay } from '../../src/dates/time-zone.js';
import type { SeenRequest } from './recording-server.js';

/** What a handler answers. */
export interface Answer {
  status?: number;
  body: string;
  headers?: Record<string, string>;
}

/** A named request handler of the recording server; `config` comes from the test. */
export type Handler = (req: SeenRequest, origin: string, config: any) => Answer;

/** Three pages of AAPL trades linked by next_url / previous_url on the server's own origin. */
function paginated(req: SeenRequest, origin: string): Answer {
  const cursor = req.query.find(([k]) => k === 'cursor')?.[1];
  const n = cursor ? Number(cursor.slice(1)) : 1;
  const link = (m: number) => `${origin}/v3/trades/AAPL?cursor=p${m}`;
  const body = {
    status: 'OK',
    request_id: `req-${n}`,
    results: [1, 2, 3].map((i) => ({ id: String((n - 1) * 3 + i), price: n * 10 + i })),
    ...(n < 3 && { next_url: link(n + 1) }),
    ...(n > 1 && { previous_url: n === 2 ? `${origin}/v3/trades/AAPL?limit=3` : link(n - 1) }),
  };
  return { body: JSON.stringify(body) };
}

/** A fixed answer set by the test. */
function fixed(_req: SeenRequest, _origin: string, config: Answer): Answer {
  return config ?? { body: '{}' };
}

/** Settings of the `minuteBars` handler. */
export interface MinuteBarsConfig {
  /** One bar every `stepMinutes` minutes (t a multiple of the step), from `dataStart` to `dataEnd` (ms, end excluded). */
  stepMinutes: number;
  dataStart: number;
  dataEnd: number;
  /** Periods `[lo, hi)` (ms) without any bar: a halted symbol; chunks inside them come back empty. */
  gaps?: [number, number][];
  /** Most bars per page below the request's `limit`: forces next_url paging within a chunk. */
  cap?: number;
  /** Fault: the first page of a window also holds the bars up to this many ms outside it, on both sides. */
  spillMs?: number;
  /** `status` of an answer without bars. @default 'OK' */
  emptyStatus?: string;
  /** Time zone of `YYYY-MM-DD` bounds. @default 'UTC' */
  timeZone?: string;
  /**
   * How bars are written, beyond {@link minuteBarAt}: `sparse` leaves `vw` out of every third bar and `n`
   * out of every fifth (the first bar of a page keeps both); `numbers` writes negative prices, exponents
   * and long mantissas; `otc` adds `otc: true` to every bar; `pageOrder` writes the keys of the pages
   * after the first in another order.
   */
  barShape?: 'sparse' | 'numbers' | 'otc' | 'pageOrder';
}

/** A page's bars as the `barShape` setting writes them (see {@link MinuteBarsConfig}). */
function shapeBars(bars: Record<string, unknown>[], shape: MinuteBarsConfig['barShape'], later: boolean) {
  return bars.map((bar, i) => {
    const k = (bar.t as number) / 60_000;
    switch (shape) {
      case 'sparse': {
        const { vw, n, ...rest } = bar;
        return {
          ...rest,
          ...(i === 0 || k % 3 !== 0 ? { vw } : {}),
          ...(i === 0 || k % 5 !== 0 ? { n } : {}),
        };
      }
      case 'numbers':
        return {
          ...bar,
          o: -(bar.o as number) / 7,
          h: (bar.h as number) * 1e-9,
          l: (bar.l as number) * 1e25,
          vw: (bar.vw as number) / 3,
        };
      case 'otc':
        return { ...bar, otc: true };
      case 'pageOrder':
        return later ? Object.fromEntries(Object.entries(bar).reverse()) : bar;
      default:
        return bar;
    }
  });
}

const MINUTE_PATH = /^\/v2\/aggs\/ticker\/([^/]+)\/range\/1\/minute\/([^/]+)\/([^/]+)$/;

/** The bar the handler serves at `t`: its values are a function of `t`, so a test can tell bars apart. */
export function minuteBarAt(t: number): {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  vw: number;
  t: number;
  n: number;
} {
  const k = t / 60_000;
  const base = 100 + (k % 97) / 10;
  return {
    o: base,
    h: base + 0.5,
    l: base - 0.5,
    c: base + 0.1,
    v: 1000 + (k % 13),
    vw: base + 0.05,
    t,
    n: 1 + (k % 5),
  };
}

/**
 * Minute bars of `/v2/aggs/ticker/{t}/range/1/minute/{from}/{to}` like the real API: `from`/`to` in ms
 * or `YYYY-MM-DD` (a `to` day runs to its end), `sort`, `limit`, and a next_url that keeps the path with
 * `{from}` replaced by the next bar's ms plus a `cursor` holding `limit` and `sort` (the real API's cursor
 * is base64url of such a query).
 */
function minuteBars(req: SeenRequest, origin: string, config: MinuteBarsConfig): Answer {
  const m = MINUTE_PATH.exec(req.path);
  if (!m)
    return {
      status: 404,
      body: JSON.stringify({ status: 'NOT_FOUND', request_id: 'x', message: 'no route' }),
    };
  const [, ticker, fromText, toText] = m as unknown as [string, string, string, string];
  const q = new URLSearchParams(req.query);
  const cursor = q.get('cursor');
  const params = cursor ? new URLSearchParams(Buffer.from(cursor, 'base64url').toString()) : q;
  const limit = Number(params.get('limit') ?? 5000);
  const sort = params.get('sort') ?? 'asc';
  const tz = config.timeZone ?? 'UTC';
  const bound = (text: string, end: boolean) => {
    const day = decodeURIComponent(text);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return Number(day);
    if (!end) return startOfDay(day, tz);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    return startOfDay(next, tz) - 1;
  };
  const spill = cursor ? 0 : (config.spillMs ?? 0);
  const lo = Math.max(bound(fromText, false) - spill, config.dataStart);
  const hi = Math.min(bound(toText, true) + (config.spillMs ?? 0), config.dataEnd - 1);
  const step = config.stepMinutes * 60_000;
  const all: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) {
    if (!(config.gaps ?? []).some(([a, b]) => t >= a && t < b)) all.push(t);
  }
  if (sort === 'desc') all.reverse();
  const take = Math.min(limit, config.cap ?? limit);
  const page = all.slice(0, take).map(minuteBarAt);
  const rest = all[take];
  const body: Record<string, unknown> = {
    ticker: decodeURIComponent(ticker),
    queryCount: page.length,
    resultsCount: page.length,
    adjusted: true,
    status: page.length ? 'OK' : (config.emptyStatus ?? 'OK'),
    request_id: `bars-${req.path.length}-${page.length}`,
    count: page.length,
  };
  if (page.length) body.results = config.barShape ? shapeBars(page, config.barShape, cursor !== null) : page;
  if (rest !== undefined) {
    const next = Buffer.from(`limit=${limit}&sort=${sort}`).toString('base64url');
    const path =
      sort === 'desc'
        ? `/v2/aggs/ticker/${ticker}/range/1/minute/${fromText}/${rest}`
        : `/v2/aggs/ticker/${ticker}/range/1/minute/${rest}/${toText}`;
    body.next_url = `${origin}${path}?cursor=${next}`;
  }
  return { body: JSON.stringify(body) };
}

/** Settings of the `futuresMinuteBars` handler. */
export interface FuturesMinuteBarsConfig {
  /** One candle every `stepMinutes` minutes from `dataStart` to `dataEnd` (ms, end excluded). */
  stepMinutes: number;
  dataStart: number;
  dataEnd: number;
  /** Most candles per page below the request's `limit`: forces next_url paging within a chunk. */
  cap?: number;
}

/**
 * Minute candles of `/futures/v1/aggs/{ticker}?resolution=1min` by `window_start.gte`/`.lte` (ns), sorted
 * by `sort`, paged by a next_url whose cursor holds the rest of the query; each candle's values are a
 * function of its start (as {@link minuteBarAt}).
 */
function futuresMinuteBars(req: SeenRequest, origin: string, config: FuturesMinuteBarsConfig): Answer {
  const ticker = /^\/futures\/v1\/aggs\/([^/]+)$/.exec(req.path)?.[1];
  const q = new URLSearchParams(req.query);
  const cursor = q.get('cursor');
  const params = cursor ? new URLSearchParams(Buffer.from(cursor, 'base64url').toString()) : q;
  if (!ticker || params.get('resolution') !== '1min') {
    return { status: 400, body: JSON.stringify({ status: 'ERROR', request_id: 'x', error: 'unexpected' }) };
  }
  const ms = (key: string, fallback: number) => {
    const v = params.get(key);
    return v === null ? fallback : Number(BigInt(v) / 1_000_000n);
  };
  const lo = Math.max(ms('window_start.gte', config.dataStart), config.dataStart);
  const hi = Math.min(ms('window_start.lte', config.dataEnd - 1), config.dataEnd - 1);
  const all: number[] = [];
  const step = config.stepMinutes * 60_000;
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) all.push(t);
  if (params.get('sort') === 'window_start.desc') all.reverse();
  const limit = Number(params.get('limit') ?? 1000);
  const take = Math.min(limit, config.cap ?? limit);
  const page = all.slice(0, take).map((t) => {
    const { o, h, l, c, v, n } = minuteBarAt(t);
    return {
      ticker,
      window_start: `${t}000000`,
      open: o,
      high: h,
      low: l,
      close: c,
      volume: v,
      transactions: n,
    };
  });
  const body: Record<string, unknown> = { status: 'OK', request_id: `f-${page.length}`, results: page };
  const rest = all[take];
  if (rest !== undefined) {
    const next = new URLSearchParams(params);
    next.delete('cursor');
    next.set(
      params.get('sort') === 'window_start.desc' ? 'window_start.lte' : 'window_start.gte',
      `${rest}000000`,
    );
    body.next_url = `${origin}${req.path}?cursor=${Buffer.from(next.toString()).toString('base64url')}`;
  }
  // Nanosecond starts as bare integers, as the service writes them.
  return { body: JSON.stringify(body).replace(/"window_start":"(\d+)"/g, '"window_start":$1') };
}

/** Ticker details whose `request_id` is the `date` asked for: tells the answers of bulk requests apart. */
function echoDate(req: SeenRequest): Answer {
  const day = req.query.find(([k]) => k === 'date')?.[1] ?? 'none';
  const results = {
    ticker: 'AAPL',
    name: 'Apple',
    market: 'stocks',
    locale: 'us',
    active: true,
    currency_name: 'usd',
  };
  return { body: JSON.stringify({ status: 'OK', request_id: day, results }) };
}

export const handlers: Record<string, Handler> = {
  fixed,
  paginated,
  minuteBars,
  futuresMinuteBars,
  echoDate,
};
