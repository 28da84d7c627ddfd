import type { Context, Hono } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import { expandPath } from '../../core/path.js';
import { aggregateBars } from '../../operations/aggregates.js';
import { ema, macd, rsi, sma } from '../../operations/indicators.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, originOf, sendJson } from '../http.js';
import { keysetPage, keysetPosition } from '../listing/keyset-page.js';
import { assetClassOf, type Bar, firstDataTime, marketTimeZone, queryBars } from '../market/index.js';
import * as calc from '../market/indicators.js';
import type { BarTimespan } from '../market/windows.js';
import { parseRequest, routePattern, type ServerDefaults, timestampBounds } from '../validate.js';

/** The aggregates the indicator was computed from are linked by their own operation's path. */
const AGGREGATES_PATH = aggregateBars().path;

/** The service's defaults: 10 values per page, MACD 12/26/9. */
const DEFAULTS: ServerDefaults = { limit: 10, short_window: 12, long_window: 26, signal_window: 9 };

/** Base aggregates scanned at most to compute one indicator series. */
const MAX_BASE = 500_000;

type Kind = 'sma' | 'ema' | 'rsi' | 'macd';

/** SMA, EMA, RSI and MACD over the same bars as the aggregates endpoint. */
export function indicatorRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  const ops: [Kind, OperationSpec][] = [
    ['sma', sma()],
    ['ema', ema()],
    ['rsi', rsi()],
    ['macd', macd()],
  ];
  for (const [kind, op] of ops) app.get(routePattern(op), (c) => indicator(c, ctx, op, kind));
}

const SERIES: Record<string, (b: Bar) => number> = {
  open: (b) => b.o,
  high: (b) => b.h,
  low: (b) => b.l,
  close: (b) => b.c,
};

/**
 * One indicator page. The series is computed over every bar of the ticker up to the upper timestamp
 * bound (so a value does not depend on the filter), then filtered, ordered and paged; the cursor keeps
 * the request and the timestamp of the last value sent.
 */
async function indicator(
  c: Context<AppEnv>,
  ctx: ServerContext,
  op: OperationSpec,
  kind: Kind,
): Promise<Response> {
  const req = parseRequest(op, c, DEFAULTS);
  const v = req.values;
  const ticker = v.get('ticker') as string;
  const timespan = v.get('timespan') as BarTimespan;
  const adjusted = !ticker.startsWith('I:') && v.get('adjusted') !== false;
  const desc = v.get('order') !== 'asc';
  const limit = v.get('limit') as number;
  const expand = v.get('expand_underlying') === true;
  const pick = SERIES[v.get('series_type') as string] ?? SERIES.close;
  const bounds = timestampBounds(v, marketTimeZone(ticker));
  let lo = bounds.gte === undefined ? -Infinity : Number((bounds.gte + 999_999n) / 1_000_000n);
  let hi = bounds.lt === undefined ? Infinity : Number((bounds.lt + 999_999n) / 1_000_000n) - 1;
  const [pos] = keysetPosition(req, ['int']) ?? [];
  if (pos !== undefined) {
    if (desc) hi = Math.min(hi, Number(pos) - 1);
    else lo = Math.max(lo, Number(pos) + 1);
  }

  const first = await firstDataTime(ctx.store, ticker);
  const end = Math.min(hi, await ctx.now(assetClassOf(ticker)));
  let bars: Bar[] = [];
  if (first !== undefined && first <= end) {
    const page = await queryBars(ctx.store, {
      ticker,
      multiplier: 1,
      timespan,
      fromMs: first,
      toMs: end,
      adjusted,
      sort: 'asc',
      limit: MAX_BASE,
    });
    bars = page.bars;
  }
  const series = bars.map(pick as (b: Bar) => number);
  const values: Record<string, number>[] = [];
  const window = v.get('window') as number;
  if (kind === 'macd') {
    const points = calc.macd(
      series,
      v.get('short_window') as number,
      v.get('long_window') as number,
      v.get('signal_window') as number,
    );
    points.forEach((p, i) => {
      if (p)
        values.push({
          timestamp: (bars[i] as Bar).t,
          value: p.value,
          signal: p.signal,
          histogram: p.histogram,
        });
    });
  } else {
    const fn = kind === 'sma' ? calc.sma : kind === 'ema' ? calc.ema : calc.rsi;
    fn(series, window).forEach((x, i) => {
      if (x !== undefined) values.push({ timestamp: (bars[i] as Bar).t, value: x });
    });
  }
  const inRange = values.filter((x) => (x.timestamp as number) >= lo && (x.timestamp as number) <= hi);
  if (desc) inRange.reverse();
  const page = keysetPage(c, req, inRange, limit, (x) => [x.timestamp as number], {
    limit: String(limit),
    order: desc ? 'desc' : 'asc',
  });
  const selected = page.rows;

  const fromMs = bars[0]?.t ?? 0;
  const toMs = bars[bars.length - 1]?.t ?? 0;
  const underlying: Record<string, unknown> = {
    url: `${originOf(c)}${expandPath(AGGREGATES_PATH, { ticker, multiplier: '1', timespan, from: String(fromMs), to: String(toMs) })}?limit=50000&sort=desc${adjusted ? '' : '&adjusted=false'}`,
  };
  if (expand) {
    const shown = new Set(selected.map((x) => x.timestamp));
    underlying.aggregates = (desc ? [...bars].reverse() : bars)
      .filter((b) => shown.has(b.t))
      .map(aggregateJson);
  }
  return sendJson(c, {
    results: { underlying, values: selected },
    status: 'OK',
    request_id: c.get('requestId'),
    ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
  });
}

function aggregateJson(b: Bar): Record<string, number> {
  const out: Record<string, number> = { c: b.c, h: b.h, l: b.l };
  if (b.n !== undefined) out.n = b.n;
  Object.assign(out, { o: b.o, t: b.t, v: b.v });
  if (b.vw !== undefined) out.vw = Math.round(b.vw * 10_000) / 10_000;
  return out;
}
