import type { Context, Hono } from 'hono';
import type { TickerPrefix } from '../../core/operation.js';
import { decodeParam } from '../../core/wire-values.js';
import {
  cryptoBook,
  gainersAndLosers,
  indicesSnapshot,
  snapshotAll,
  snapshotTicker,
} from '../../operations/snapshots.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, notFound, sendJson } from '../http.js';
import { sortKeysDeep, withKeyOrder } from '../key-order.js';
import { pageOffset, withNextUrl } from '../listing/offset-page.js';
import type { AssetClass } from '../market/now.js';
import { roundPrice, roundVolume } from '../market/precision.js';
import { listMarketTickers, marketTickers, tickerNames } from '../market/reference.js';
import { indexSnapshots } from '../snapshots/index-snapshot.js';
import { latestQuoteBars } from '../snapshots/latest-bars.js';
import { CRYPTO_EXCHANGE_ID, type V2Market, v2Snapshot, v2Snapshots } from '../snapshots/v2-snapshot.js';
import type { Store } from '../store/store.js';
import { parseRequest, routePattern } from '../validate.js';

/** Each v2 market: its path segment, the store's market name and the ticker prefix. */
const MARKETS: readonly {
  market: V2Market;
  path: 'us/markets/stocks' | 'global/markets/forex' | 'global/markets/crypto';
  store: AssetClass;
  prefix: TickerPrefix | '';
}[] = [
  { market: 'stocks', path: 'us/markets/stocks', store: 'stocks', prefix: '' },
  { market: 'forex', path: 'global/markets/forex', store: 'fx', prefix: 'C:' },
  { market: 'crypto', path: 'global/markets/crypto', store: 'crypto', prefix: 'X:' },
];

/** A minute bar's keys in the service's order: not sorted like the rest of a v2 snapshot. */
const MINUTE_KEYS = ['av', 'c', 'h', 'l', 'o', 'v', 'vw', 't', 'n'];

/** A v2 snapshot as the service writes it: keys sorted at every depth, but a minute bar's in its order. */
function v2Keys(body: Record<string, unknown>): Record<string, unknown> {
  const out = sortKeysDeep(body);
  if (out.min && typeof out.min === 'object')
    out.min = withKeyOrder(out.min as Record<string, unknown>, MINUTE_KEYS);
  return out;
}

/** An index snapshot item in the service's order (its session's keys sorted). */
const indexKeys = (item: Record<string, unknown>) =>
  withKeyOrder({ ...item, ...(item.session !== undefined && { session: sortKeysDeep(item.session) }) }, [
    'value',
    'name',
    'ticker',
    'type',
    'market_status',
    'session',
  ]);

/** Gainers and losers list this many tickers. */
const MOVERS = 20;
/** Stocks need this session volume to rank as a gainer or loser (the service's rule). */
const MOVER_MIN_VOLUME = 10_000;

/** A ticker with its market prefix: the prefix is optional in requests, as the client adds it anyway. */
function withPrefix(ticker: string, prefix: TickerPrefix | ''): string {
  return prefix === '' || /^[A-Z]:/i.test(ticker) ? ticker : `${prefix}${ticker}`;
}

/**
 * The `tickers` query list: comma-separated, repeated keys (`tickers=A&tickers=B`, how the official JS
 * client sends arrays), or both; each item checked as the declaration's list type.
 */
function requestedTickers(
  c: Context<AppEnv>,
  op: ReturnType<typeof snapshotAll>,
  prefix: TickerPrefix | '',
): string[] | undefined {
  const param = op.params.find((p) => p.wire === 'tickers');
  const raw = new URL(c.req.url).searchParams.getAll('tickers').filter((s) => s.trim() !== '');
  if (!param || raw.length === 0) return undefined;
  return (decodeParam(param, raw.join(',')) as string[]).map((t) => withPrefix(t, prefix));
}

/**
 * v2 snapshots of stocks, forex and crypto (one ticker, all or listed tickers, gainers and losers), the
 * crypto level-2 book, and the v3 indices snapshot.
 */
export function snapshotRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  for (const m of MARKETS) {
    const all = snapshotAll(m.path);
    const one = snapshotTicker(m.path);
    const movers = gainersAndLosers(m.path);

    app.get(routePattern(all), async (c) => {
      parseRequest(all, c);
      const list = await marketTickers(ctx.store, m.store, requestedTickers(c, all, m.prefix));
      const snaps = await v2Snapshots(ctx.store, list, m.market, await ctx.now(m.store));
      return sendJson(c, { count: snaps.length, status: 'OK', tickers: snaps.map((s) => v2Keys(s.body)) });
    });

    if (m.market === 'crypto') {
      app.get(routePattern(cryptoBook), async (c) => {
        const { values } = parseRequest(cryptoBook, c);
        const ticker = withPrefix(String(values.get('ticker')), 'X:');
        if ((await marketTickers(ctx.store, 'crypto', [ticker])).length === 0)
          throw notFound('Ticker not found.');
        return sendJson(c, {
          data: sortKeysDeep(await bookOf(ctx.store, ticker, await ctx.now('crypto'))),
          status: 'OK',
        });
      });
    }

    app.get(routePattern(one), async (c) => {
      const { values } = parseRequest(one, c);
      const ticker = withPrefix(String(values.get('ticker')), m.prefix);
      if ((await marketTickers(ctx.store, m.store, [ticker])).length === 0)
        throw notFound('Ticker not found.');
      const snap = await v2Snapshot(ctx.store, ticker, m.market, await ctx.now(m.store));
      return sendJson(c, { request_id: c.get('requestId'), status: 'OK', ticker: v2Keys(snap.body) });
    });

    app.get(routePattern(movers), async (c) => {
      const { values } = parseRequest(movers, c);
      const gainers = values.get('direction') === 'gainers';
      const list = await marketTickers(ctx.store, m.store);
      const snaps = (await v2Snapshots(ctx.store, list, m.market, await ctx.now(m.store)))
        .filter((s) => s.ranked && (m.market !== 'stocks' || s.volume >= MOVER_MIN_VOLUME))
        .filter((s) => (gainers ? s.changePerc > 0 : s.changePerc < 0))
        .sort((a, b) => (gainers ? b.changePerc - a.changePerc : a.changePerc - b.changePerc))
        .slice(0, MOVERS);
      return sendJson(c, { status: 'OK', tickers: snaps.map((s) => v2Keys(s.body)) });
    });
  }

  app.get(routePattern(indicesSnapshot), async (c) => {
    const req = parseRequest(indicesSnapshot, c, { limit: 10 });
    const v = req.values;
    const limit = typeof v.get('limit') === 'number' ? (v.get('limit') as number) : 10;
    const order = v.get('order') === 'desc' ? 'desc' : 'asc';
    const nowMs = await ctx.now('indices');
    const offset = pageOffset(req);
    const anyOf = v.get('ticker.any_of');
    let results: Record<string, unknown>[];
    let fetched: number;
    if (Array.isArray(anyOf)) {
      // Requested tickers answer in request order; unknown ones as NOT_FOUND items inside the 200.
      const page = anyOf.slice(offset, offset + limit + 1);
      fetched = page.length;
      const names = await tickerNames(ctx.store, 'indices');
      const asked = page.slice(0, limit).map((a) => ({
        asked: a,
        ticker: names.has(a) ? a : names.has(`I:${a}`) ? `I:${a}` : undefined,
      }));
      const known = asked.flatMap(({ ticker }) =>
        ticker === undefined ? [] : [{ ticker, name: names.get(ticker) ?? null }],
      );
      const snaps = (await indexSnapshots(ctx.store, known, nowMs)).values();
      results = asked.map(({ asked: a, ticker }) =>
        ticker === undefined
          ? { ticker: a, error: 'NOT_FOUND', message: 'Ticker not found.' }
          : indexKeys(snaps.next().value as Record<string, unknown>),
      );
    } else {
      const rows = await listMarketTickers(ctx.store, 'indices', v, order, { limit, offset });
      fetched = rows.length;
      results = (await indexSnapshots(ctx.store, rows.slice(0, limit), nowMs)).map(indexKeys);
    }
    const body = { request_id: c.get('requestId'), results, status: 'OK' };
    return sendJson(c, withNextUrl(c, req, body, fetched, limit));
  });
}

/**
 * The crypto level-2 book, built from the latest quote bar (the store has no order-book data): one bid
 * and one ask level, each at the bar's closing price with its last size, on Coinbase's exchange id;
 * `bidCount`/`askCount` are those sizes, `updated` the instant the closing values held (ms).
 */
async function bookOf(store: Store, ticker: string, nowMs: number): Promise<Record<string, unknown>> {
  const q = (await latestQuoteBars(store, [ticker], nowMs)).get(ticker);
  const x = String(CRYPTO_EXCHANGE_ID);
  // Sizes summed over a bar carry float noise (2.2616530700000004): written at eight decimals.
  const bidSize = roundVolume(q?.bidSize ?? 0);
  const askSize = roundVolume(q?.askSize ?? 0);
  const bids = q?.bid != null ? [{ p: q.bid, x: { [x]: bidSize } }] : [];
  const asks = q?.ask != null ? [{ p: q.ask, x: { [x]: askSize } }] : [];
  return {
    ticker,
    bids,
    asks,
    bidCount: q?.bid != null ? bidSize : 0,
    askCount: q?.ask != null ? askSize : 0,
    spread: q?.bid != null && q.ask != null ? roundPrice(ticker, q.ask - q.bid) : 0,
    updated: q ? q.asOf : 0,
  };
}
