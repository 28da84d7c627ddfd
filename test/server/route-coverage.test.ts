/**
 * Coverage of the server: every operation mdq's clients declare has a route, and every route answers
 * the official `@massive.com/client-js` (a client nobody here wrote), over a store of the real Lean files
 * plus reference data loaded from recorded responses with `ingestJson`. Values of the newer routes are
 * checked against the raw files and recordings.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { restClient } from '@massive.com/client-js';
import { Hono } from 'hono';
import { CLIENT_FAMILIES } from '../../src/cli/families.js';
import { createApp } from '../../src/server/app.js';
import { startServer } from '../../src/server/index.js';
import { ingestJson } from '../../src/server/ingest/json.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { routePattern } from '../../src/server/validate.js';
import { hasShared, leanDir, recordedDir, referenceDir } from '../support/shared.js';
import { fixtureStorePath, leanRows } from './app-fixture.js';

/** The GET route patterns of the app. */
async function appRoutes(): Promise<string[]> {
  const store = await DuckDbStore.open(':memory:');
  try {
    const app = createApp({ store, now: async () => 0, log: () => {} });
    return [
      ...new Set(app.routes.filter((r) => r.method === 'GET' && !r.path.includes('*')).map((r) => r.path)),
    ];
  } finally {
    store.close();
  }
}

/** A forwarding proxy that notes the path of every request, so the test sees what the client called. */
async function recordingProxy(upstream: string): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    paths.push(new URL(req.url ?? '/', 'http://x').pathname);
    const out = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, server };
}

const RECORDED = {
  dividends: `${recordedDir}v3/reference/dividends.json`,
  news: `${recordedDir}v2/reference/news&ticker=NFLX.json`,
  financials: `${recordedDir}vX/reference/financials.json`,
  details: `${recordedDir}v3/reference/tickers/AAPL.json`,
  events: `${recordedDir}vX/reference/tickers/META/events&types=ticker_change.json`,
};
const recorded = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** The documented 200 example of a path in the official OpenAPI spec (no recording exists for it). */
const specExample = (path: string) =>
  JSON.parse(readFileSync(`${referenceDir}openapi.json`, 'utf8')).paths[path].get.responses['200'].content[
    'application/json'
  ].example;

/**
 * Operations (`family.operation`) the local server does not answer yet (the README says so): their paths
 * get the API's 404 error body, which the test below checks.
 */
const NOT_SERVED = new Set<string>();

/**
 * Routes the official client has no method for: the older futures path generation (`/futures/vX/...`),
 * which mdq's own `FuturesClient` with `version: 'vX'` reaches in futures.test.ts, and the web page at
 * `/`, which test/web/page.test.ts loads in a browser.
 */
const NO_OFFICIAL_METHOD = /^\/futures\/vX\/|^\/$/;

describe('route coverage', () => {
  test('every operation the clients declare has a route', async () => {
    const routes = new Set(await appRoutes());
    const missing: string[] = [];
    for (const family of CLIENT_FAMILIES) {
      for (const [name, op] of Object.entries(family.operations)) {
        if (NOT_SERVED.has(`${family.name}.${name}`)) continue;
        if (!routes.has(routePattern(op))) missing.push(`${family.name}.${name} ${op.path}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  test("a path the server does not answer gets the API's 404 error body, never a 500", async (t) => {
    const store = await DuckDbStore.open(':memory:');
    t.after(() => store.close());
    const app = createApp({ store, now: async () => 0, log: () => {} });
    // A path no operation declares gets the same body.
    const unknown = await app.request('/futures/v1/exchange-fees', {
      headers: { Authorization: 'Bearer k' },
    });
    assert.deepEqual(
      [unknown.status, ((await unknown.json()) as { status: string }).status],
      [404, 'NOT_FOUND'],
    );
    for (const family of CLIENT_FAMILIES) {
      for (const [name, op] of Object.entries(family.operations)) {
        if (!NOT_SERVED.has(`${family.name}.${name}`)) continue;
        const path = op.path.replace(/\{[^}]+\}/g, 'X');
        const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
        assert.equal(res.status, 404, path);
        const body = (await res.json()) as { status: string };
        assert.equal(body.status, 'NOT_FOUND', path);
      }
    }
  });

  test('every route answers the official client, over the Lean files and ingested responses', async (t) => {
    if (!hasShared(t, leanDir) || !hasShared(t, RECORDED.dividends)) return;
    const dir = mkdtempSync(join(tmpdir(), 'mdq-coverage-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'store.duckdb');
    copyFileSync(await fixtureStorePath(), db);
    const iposFile = join(dir, 'ipos.json');
    writeFileSync(iposFile, JSON.stringify(specExample('/vX/reference/ipos')));
    const related = specExample('/v1/related-companies/{ticker}');
    const relatedFile = join(dir, 'related.json');
    writeFileSync(relatedFile, JSON.stringify(related));
    const store = await DuckDbStore.open(db);
    try {
      await ingestJson(store, [...Object.values(RECORDED), iposFile, relatedFile]);
    } finally {
      store.close();
    }
    const server = await startServer({ db, port: 0, log: () => {}, now: '2013-10-07' });
    t.after(() => server.close());
    const proxy = await recordingProxy(server.url);
    t.after(() => new Promise<void>((resolve) => proxy.server.close(() => resolve())));
    const api = restClient('any-key', proxy.url);
    const paged = restClient('any-key', proxy.url, { pagination: true });

    // The newer routes, with their values checked.
    const spyTicks = leanRows('equity/usa/tick/spy/20131007_trade.zip');
    const spyLast = Number(spyTicks[spyTicks.length - 1]?.[1]) / 10_000;
    const snaps = await api.getSnapshots({ tickerAnyOf: 'SPY,C:EURUSD,X:BTCUSD,I:SPX,APx' });
    assert.deepEqual(
      snaps.results?.map((r) => r.type ?? r.error),
      ['stocks', 'fx', 'crypto', 'indices', 'NOT_FOUND'],
    );
    assert.equal(snaps.results?.[0]?.last_trade?.price, spyLast);
    const all = await api.getSnapshots({ type: 'stocks' as never, limit: 250 });
    const walked = await paged.getSnapshots({ type: 'stocks' as never, limit: 3 });
    assert.ok((all.results?.length ?? 0) > 3 && (all.results?.length ?? 0) < 250);
    assert.ok(all.results?.every((r) => r.type === 'stocks'));
    assert.deepEqual(
      walked.results?.map((r) => r.ticker).sort(),
      all.results?.map((r) => r.ticker).sort(),
      'every ticker once over the pages',
    );
    const summaries = await api.getSnapshotSummary({ tickerAnyOf: 'SPY,APx' });
    assert.equal(summaries.results?.[0]?.price, spyLast);
    assert.equal(summaries.results?.[1]?.error, 'NOT_FOUND');

    const map = leanRows('equity/usa/map_files/googl.csv');
    const events = await api.getEvents({ id: 'GOOGL', types: 'ticker_change' });
    const changes = events.results?.events?.map((e) => e.ticker_change?.ticker);
    assert.deepEqual(changes, ['GOOGL', 'GOOG']);
    const first = map[0]?.[0] as string;
    assert.equal(
      events.results?.events?.[1]?.date,
      `${first.slice(0, 4)}-${first.slice(4, 6)}-${first.slice(6)}`,
    );
    const meta = await api.getEvents({ id: 'META' });
    assert.deepEqual(meta.results, recorded(RECORDED.events).results);

    const v3Splits = await api.listStockSplits({ ticker: 'AAPL', limit: 1000 });
    const v1Splits = await api.getStocksV1Splits({ ticker: 'AAPL', sort: 'execution_date.desc' });
    assert.ok((v1Splits.results?.length ?? 0) > 0);
    assert.deepEqual(
      v1Splits.results?.map((s) => [s.execution_date, s.split_from, s.split_to]),
      (v3Splits.results ?? [])
        .map((s) => [s.execution_date, s.split_from, s.split_to])
        .sort((a, b) => String(b[0]).localeCompare(String(a[0]))),
    );
    const newest = v1Splits.results?.[0];
    assert.equal(newest?.historical_adjustment_factor, (newest?.split_from ?? 0) / (newest?.split_to ?? 1));

    const dividends = recorded(RECORDED.dividends).results as { ticker: string; cash_amount: number }[];
    const v3Dividends = await api.listDividends({ limit: 1000 });
    assert.equal(v3Dividends.results?.length, dividends.length);
    const v1Dividends = await api.getStocksV1Dividends({ limit: 1000 });
    assert.equal(v1Dividends.results?.length, dividends.length);
    for (const d of v1Dividends.results ?? []) assert.equal(d.split_adjusted_cash_amount, d.cash_amount);
    const exchanges = await api.getStocksV1Exchanges({});
    assert.ok(exchanges.results?.some((x) => x.mic === 'XNYS' && typeof x.id === 'string'));
    // The venues of the stored crypto and forex data, as /v3/reference/exchanges lists them.
    const cryptoVenues = await api.getCryptoV1Exchanges({});
    assert.deepEqual(cryptoVenues.results, [
      { id: '1', type: 'exchange', name: 'Coinbase', url: 'https://www.coinbase.com' },
    ]);
    const forexVenues = await api.getForexV1Exchanges({});
    assert.deepEqual(forexVenues.results, [{ id: '48', type: 'exchange', name: 'Currency Banks 1' }]);
    const optionVenues = await api.getOptionsV1Exchanges({});
    assert.equal(optionVenues.status, 'OK');
    const financials = await api.listFinancials({ limit: 100 });
    assert.equal(financials.results?.length, recorded(RECORDED.financials).results.length);
    const news = await api.listNews({ ticker: 'NFLX', limit: 100 });
    assert.deepEqual(
      news.results?.map((n) => n.id).sort(),
      (recorded(RECORDED.news).results as { id: string }[]).map((n) => n.id).sort(),
    );
    const ipoList = await api.listIPOs({ limit: 100 });
    assert.deepEqual(
      ipoList.results?.map((r) => r.ticker),
      (specExample('/vX/reference/ipos').results as { ticker: string }[]).map((r) => r.ticker),
    );
    const ipoListV1 = await api.getV1ReferenceIpos({ limit: 100, sort: 'ticker.asc' });
    assert.deepEqual(ipoListV1.results, ipoList.results);
    const peers = await api.getRelatedCompanies({ ticker: related.stock_symbol });
    assert.deepEqual(peers.results, related.results);
    const details = await api.getTicker({ ticker: 'AAPL' });
    assert.equal(details.results?.market_cap, recorded(RECORDED.details).results.market_cap);

    // Every other route, once.
    const calls: (() => Promise<unknown>)[] = [
      () => api.getCurrencyConversion({ from: 'EUR', to: 'USD', amount: 100 }),
      () => api.deprecatedGetHistoricCryptoTrades({ from: 'BTC', to: 'USD', date: '2018-04-04' }),
      () => api.deprecatedGetHistoricForexQuotes({ from: 'EUR', to: 'USD', date: '2014-05-01', limit: 3 }),
      () => api.getStocksEMA({ stockTicker: 'SPY', timespan: 'day' as never, window: 5 }),
      () => api.getStocksMACD({ stockTicker: 'SPY', timespan: 'day' as never }),
      () => api.getCryptoRSI({ cryptoTicker: 'X:BTCUSD', timespan: 'day' as never }),
      () => api.getStocksSMA({ stockTicker: 'SPY', timespan: 'day' as never, window: 5 }),
      // No crypto trades before "now" (2013): the service's 404 in its error shape.
      () =>
        api.getLastCryptoTrade({ from: 'BTC', to: 'USD' }).then(
          () => assert.fail('a last trade before any crypto data'),
          (e: { response?: { status: number; data: { status: string } } }) => {
            assert.equal(e.response?.status, 404);
            assert.equal(e.response?.data.status, 'NOT_FOUND');
          },
        ),
      () => api.getLastCurrencyQuote({ from: 'EUR', to: 'USD' }),
      () => api.getMarketStatus(),
      () => api.getMarketHolidays(),
      () => api.getStocksOpenClose({ stocksTicker: 'SPY', date: '2013-10-07' }),
      () => api.getCryptoOpenClose({ from: 'BTC', to: 'USD', date: '2018-04-04' }),
      () => api.getGroupedCryptoAggregates({ date: '2018-04-04' }),
      () => api.getGroupedForexAggregates({ date: '2014-05-01' }),
      () => api.getGroupedStocksAggregates({ date: '2013-10-07' }),
      () => api.getPreviousStocksAggregates({ stocksTicker: 'SPY' }),
      () =>
        api.getStocksAggregates({
          stocksTicker: 'SPY',
          multiplier: 1,
          timespan: 'day' as never,
          from: '2013-10-01',
          to: '2013-10-07',
        }),
      () => api.getLastStocksQuote({ stocksTicker: 'IBM' }),
      () => api.getLastStocksTrade({ stocksTicker: 'IBM' }),
      () => api.getCryptoSnapshotDirection({ direction: 'gainers' as never }),
      () => api.getCryptoSnapshotTickers({ tickers: ['X:BTCUSD'] }),
      () => api.getCryptoSnapshotTicker({ ticker: 'X:BTCUSD' }),
      () => api.deprecatedGetCryptoSnapshotTickerBook({ ticker: 'X:BTCUSD' }),
      () => api.getForexSnapshotDirection({ direction: 'losers' as never }),
      () => api.getForexSnapshotTickers({ tickers: ['C:EURUSD'] }),
      () => api.getForexSnapshotTicker({ ticker: 'C:EURUSD' }),
      () => api.getStocksSnapshotDirection({ direction: 'gainers' as never }),
      () => api.getStocksSnapshotTickers({ tickers: ['SPY'] }),
      () => api.getStocksSnapshotTicker({ stocksTicker: 'SPY' }),
      () => api.deprecatedGetHistoricStocksQuotes({ ticker: 'IBM', date: '2013-10-07', limit: 2 }),
      () => api.deprecatedGetHistoricStocksTrades({ ticker: 'SPY', date: '2013-10-07', limit: 2 }),
      () => api.getStocksQuotes({ stockTicker: 'IBM', timestamp: '2013-10-07', limit: 2 }),
      () => api.getStocksTrades({ stockTicker: 'SPY', timestamp: '2013-10-07', limit: 2 }),
      () => api.listConditions({ assetClass: 'stocks' as never }),
      () => api.listExchanges({}),
      () => api.listOptionsContracts({ underlyingTicker: 'SPY', limit: 2 }),
      () => api.getOptionsContract({ optionsTicker: 'O:SPY230901C00430000' }),
      () => api.listTickers({ limit: 2 }),
      () => api.listTickerTypes({}),
      () => api.getIndicesSnapshot({ tickerAnyOf: 'I:SPX' }),
      () => api.getOptionsChain({ underlyingAsset: 'SPY', limit: 2 }),
      () => api.getOptionContract({ underlyingAsset: 'SPY', optionContract: 'O:SPY230901C00430000' }),
      () => api.getOptionsV3TradesTicker({ ticker: 'O:SPY230901C00430000', limit: 2 }),
      () => api.getOptionsV3QuotesTicker({ ticker: 'O:SPY230901C00430000', limit: 2 }),
      () => api.aggregatesV1({ ticker: 'ESZ3', resolution: '1session', limit: 2 }),
      () => api.getFuturesV1TradesTicker({ ticker: 'GCZ3', limit: 2 }),
      () => api.getFuturesV1QuotesTicker({ ticker: 'GCZ3', limit: 2 }),
      () => api.getFuturesV1Contracts({ productCode: 'ES' }),
      () => api.getFuturesV1Products({}),
      () => api.getFuturesV1Schedules({ productCode: 'ES', sessionEndDate: '2013-10-08' }),
      () => api.getFuturesV1MarketStatus({}),
      () => api.getFuturesV1Snapshot({ productCode: 'GC', limit: 2 }),
      () => api.getFuturesV1Exchanges({}),
    ];
    for (const call of calls) {
      await call().catch((e: Error) => {
        throw new Error(`${proxy.paths[proxy.paths.length - 1]}: ${e.message}`);
      });
    }

    // Which route answered each request, by the server's own patterns.
    const routes = await appRoutes();
    const matcher = new Hono();
    for (const r of routes) matcher.get(r, (c) => c.text(r));
    const hit = new Set<string>();
    for (const p of proxy.paths) {
      const res = await matcher.request(p);
      if (res.status === 200) hit.add(await res.text());
    }
    assert.deepEqual(
      routes.filter((r) => !hit.has(r) && !NO_OFFICIAL_METHOD.test(r)),
      [],
      'routes no official client call reached',
    );
  });
});
