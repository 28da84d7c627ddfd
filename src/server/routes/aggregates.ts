import type { Context, Hono } from 'hono';
import { expandPath } from '../../core/path.js';
import { NEW_YORK } from '../../dates/time-zone.js';
import { aggregateBars, dailyOpenClose, groupedDaily, previousClose } from '../../operations/aggregates.js';
import type { ServerContext } from '../context.js';
import { nextUrl } from '../cursor.js';
import { type AppEnv, badRequest, notFound, originOf, sendJson } from '../http.js';
import {
  assetClassOf,
  type Bar,
  dailyBar,
  dailyBars,
  dayBarStamp,
  dayBarStamps,
  extendedHours,
  marketTimeZone,
  previousSessionBar,
  priceRounder,
  queryBars,
  rounder,
  roundPrice,
  roundVolume,
} from '../market/index.js';
import { tickersWithData } from '../market/tickers-with-data.js';
import type { BarTimespan } from '../market/windows.js';
import { dayStartMs, parseRequest, routePattern } from '../validate.js';

/** `results` key omitted when empty, as the service does for aggregates without data. */
const withResults = (results: readonly unknown[]) => (results.length > 0 ? { results } : {});

/** Aggregates: custom range bars, grouped daily, previous close, daily open/close. */
export function aggregateRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  const range = aggregateBars();
  app.get(routePattern(range), async (c) => {
    const req = parseRequest(range, c);
    const ticker = req.values.get('ticker') as string;
    const tz = marketTimeZone(ticker);
    const fromMs = boundMs(req.values.get('from'), tz, 'start');
    const toMs = boundMs(req.values.get('to'), tz, 'end');
    if (fromMs > toMs) throw badRequest("The 'from' date must be on or before the 'to' date.");
    const multiplier = req.values.get('multiplier') as number;
    const timespan = req.values.get('timespan') as BarTimespan;
    const index = ticker.startsWith('I:');
    const adjusted = !index && req.values.get('adjusted') !== false;
    const sort = req.values.get('sort') === 'desc' ? 'desc' : 'asc';
    const limit = req.values.get('limit') as number;
    const page = await queryBars(ctx.store, {
      ticker,
      multiplier,
      timespan,
      fromMs,
      toMs,
      adjusted,
      sort,
      limit,
    });
    const results = page.bars.map(barWriter(ticker));
    let next: string | undefined;
    if (page.nextFromMs !== undefined || page.nextToMs !== undefined) {
      // The route pattern always has {from} and {to}.
      const from = page.nextFromMs !== undefined ? String(page.nextFromMs) : (c.req.param('from') as string);
      const to = page.nextToMs !== undefined ? String(page.nextToMs) : (c.req.param('to') as string);
      const path = expandPath(range.path, { ticker, multiplier: String(multiplier), timespan, from, to });
      const cursor: Record<string, string> = { limit: String(limit), sort };
      if (!index) cursor.adjusted = String(adjusted);
      next = nextUrl(originOf(c), path, cursor);
    }
    return sendJson(c, {
      ticker,
      queryCount: page.queryCount,
      resultsCount: results.length,
      ...(index ? {} : { adjusted }),
      ...withResults(results),
      status: 'OK',
      request_id: c.get('requestId'),
      count: results.length,
      ...(next !== undefined && { next_url: next }),
    });
  });

  const prev = previousClose();
  app.get(routePattern(prev), async (c) => {
    const req = parseRequest(prev, c);
    const ticker = req.values.get('ticker') as string;
    const index = ticker.startsWith('I:');
    const adjusted = !index && req.values.get('adjusted') !== false;
    const session = await previousSessionBar(ctx.store, ticker, await ctx.now(assetClassOf(ticker)), {
      adjusted,
    });
    const results = session
      ? [
          {
            T: ticker,
            ...barJson(
              { ...session.bar, t: await dayBarStamp(ctx.store, ticker, session.date, 'previous') },
              ticker,
            ),
          },
        ]
      : [];
    return sendJson(c, {
      ticker,
      queryCount: results.length,
      resultsCount: results.length,
      ...(index ? {} : { adjusted }),
      ...withResults(results),
      status: 'OK',
      request_id: c.get('requestId'),
      count: results.length,
    });
  });

  for (const market of ['us/market/stocks', 'global/market/fx', 'global/market/crypto'] as const) {
    const op = groupedDaily(market);
    app.get(routePattern(op), async (c) => {
      const req = parseRequest(op, c);
      const date = (req.values.get('date') as { date: string }).date;
      const adjusted = req.values.get('adjusted') !== false;
      const prefix = market === 'global/market/fx' ? 'C:' : market === 'global/market/crypto' ? 'X:' : '';
      const tz = prefix === '' ? NEW_YORK : 'UTC';
      const tickers = await tickersWithData(
        ctx.store,
        prefix,
        dayStartMs(date, tz, 0),
        dayStartMs(date, tz, 1),
      );
      const bars = await dailyBars(ctx.store, tickers, date, { adjusted });
      const traded = tickers.filter((t) => bars.has(t));
      const stamps = await dayBarStamps(ctx.store, traded, date, 'grouped');
      const results = traded.map((ticker) => ({
        T: ticker,
        ...barJson({ ...(bars.get(ticker) as Bar), t: stamps.get(ticker) as number }, ticker),
      }));
      return sendJson(c, {
        queryCount: results.length,
        resultsCount: results.length,
        adjusted,
        ...withResults(results),
        status: 'OK',
        request_id: c.get('requestId'),
        count: results.length,
      });
    });
  }

  const openClose = dailyOpenClose();
  app.get(routePattern(openClose), async (c) => openCloseResponse(c, ctx, parseRequest(openClose, c).values));
}

async function openCloseResponse(
  c: Context<AppEnv>,
  ctx: ServerContext,
  values: ReadonlyMap<string, unknown>,
): Promise<Response> {
  const ticker = values.get('ticker') as string;
  const date = (values.get('date') as { date: string }).date;
  const index = ticker.startsWith('I:');
  const adjusted = !index && values.get('adjusted') !== false;
  const bar = await dailyBar(ctx.store, ticker, date, { adjusted });
  if (!bar) throw notFound();
  const extended =
    marketTimeZone(ticker) === NEW_YORK ? await extendedHours(ctx.store, ticker, date, { adjusted }) : {};
  return sendJson(c, {
    status: 'OK',
    from: date,
    symbol: ticker,
    open: roundPrice(ticker, bar.o),
    high: roundPrice(ticker, bar.h),
    low: roundPrice(ticker, bar.l),
    close: roundPrice(ticker, bar.c),
    ...(index ? {} : { volume: roundVolume(bar.v) }),
    ...(extended.afterHours !== undefined && { afterHours: roundPrice(ticker, extended.afterHours) }),
    ...(extended.preMarket !== undefined && { preMarket: roundPrice(ticker, extended.preMarket) }),
  });
}

/**
 * A bar in the service's key order; indices carry no volume, vw or count. Prices at the ticker's
 * precision and vw to four decimals, as the service writes them; volumes without float noise.
 */
function barJson(b: Bar, ticker: string): Record<string, number | undefined> {
  return barWriter(ticker)(b);
}

/**
 * {@link barJson} for the bars of one ticker: the rounding of its prices is worked out once, not once
 * a bar (a page holds up to 50 000).
 */
function barWriter(ticker: string): (b: Bar) => Record<string, number | undefined> {
  const p = priceRounder(ticker);
  if (ticker.startsWith('I:')) return (b) => ({ o: p(b.o), h: p(b.h), l: p(b.l), c: p(b.c), t: b.t });
  // One object shape for every bar (cheaper to build and to write); JSON leaves out the undefined vw
  // and n.
  return (b) => ({
    v: roundVolume(b.v),
    vw: b.vw === undefined ? undefined : roundVw(b.vw),
    o: p(b.o),
    c: p(b.c),
    h: p(b.h),
    l: p(b.l),
    t: b.t,
    n: b.n,
  });
}

const roundVw = rounder(4);

/**
 * A `from`/`to` path value in Unix ms: a date is its first (`start`) or last (`end`) millisecond in the
 * market's time zone, so that `to` includes its whole day.
 */
function boundMs(value: unknown, tz: string, side: 'start' | 'end'): number {
  const v = value as { date: string } | { ms: number };
  if ('ms' in v) return v.ms;
  return side === 'start' ? dayStartMs(v.date, tz, 0) : dayStartMs(v.date, tz, 1) - 1;
}
