/**
 * The snapshot routes ask the store a fixed number of queries for a whole page of tickers, however many
 * it holds, and a page answers for each ticker what that ticker's snapshot alone answers. Over the test
 * store (every market-data file), through a store that counts the queries asked of it, at the store's
 * latest data (as `mdq serve` sets "now") and mid-session on 2013-10-08, when stocks have minute bars and
 * ticks of the day so far.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApp } from '../../../src/server/app.js';
import { type AssetClass, latestDataTimes } from '../../../src/server/market/now.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { type CountingStore, countingStore } from '../../support/counting-store.js';
import { openTestStore } from '../../support/store.js';

type Body = any;

type Get = (path: string) => Promise<{ body: Body; queries: number }>;

/**
 * A GET of the app over `store` at each instant the routes are asked at: the store's latest data per
 * asset class, and a fixed one mid-session. Each GET gives the body and the number of queries it asked.
 */
async function getters(store: DuckDbStore): Promise<[string, Get][]> {
  const counting = countingStore(store);
  const times = await latestDataTimes(store);
  const latest = async (cls?: AssetClass) =>
    (cls !== undefined && times.byClass[cls]) || (times.latest as number);
  const midSession = Date.parse('2013-10-08T14:30:00-04:00');
  return [
    ['at the latest data', getter(counting, latest)],
    ['mid-session 2013-10-08', getter(counting, async () => midSession)],
  ];
}

/** GETs `path` from an app over `counting`, with the number of queries it asked. */
function getter(counting: CountingStore, now: (cls?: AssetClass) => Promise<number>): Get {
  const app = createApp({ store: counting.store, now, log: () => {} });
  return async (path) => {
    counting.reset();
    const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return { body: await res.json(), queries: counting.queries() };
  };
}

describe('snapshot routes: a fixed number of store queries per page', () => {
  test('/v3/snapshot: a page of 250 tickers costs a fixed number of queries, and each item is its own', async (t) => {
    const store = await openTestStore(t);
    if (!store) return;
    t.after(() => store.close());
    for (const [when, get] of await getters(store)) {
      // Facts a read-only store keeps (splits, tick hours) are read once: warm them first.
      await get('/v3/snapshot?limit=250');
      const page = await get('/v3/snapshot?limit=250');
      const results = page.body.results as Body[];
      const types = new Set(results.map((r) => r.type));
      assert.ok(results.length >= 100, `${when}: ${results.length} tickers`);
      for (const type of ['fx', 'indices', 'options', 'stocks'])
        assert.ok(types.has(type), `${when}: ${type}`);
      assert.ok(page.queries <= 30, `${when}: ${page.queries} queries for ${results.length} tickers`);
      // Each ticker alone gives what the page gives it.
      for (const r of results.filter((_, i) => i % 7 === 0 || isEdge(results, i))) {
        const alone = await get(`/v3/snapshot?ticker.any_of=${encodeURIComponent(r.ticker)}`);
        assert.deepEqual(alone.body.results, [r], `${when}: ${r.ticker}`);
        assert.ok(alone.queries <= 10, `${when}: ${alone.queries} queries for ${r.ticker}`);
      }
      // The same tickers listed, in another order, and one the store does not know.
      const listed = results.slice(0, 40).map((r) => r.ticker as string);
      const asked = [...listed].reverse();
      asked.splice(5, 0, 'NOSUCHTICKER', 'X:BTCUSD');
      const any = await get(
        `/v3/snapshot?ticker.any_of=${asked.map(encodeURIComponent).join(',')}&limit=250`,
      );
      const crypto = await get('/v3/snapshot?ticker.any_of=X:BTCUSD');
      const byTicker = new Map([...results, ...crypto.body.results].map((r) => [r.ticker, r]));
      assert.deepEqual(
        any.body.results,
        asked.map((a) => byTicker.get(a) ?? { error: 'NOT_FOUND', message: 'Ticker not found.', ticker: a }),
        when,
      );
      assert.ok(any.queries <= 31, `${when}: ${any.queries} queries for ${asked.length} listed tickers`);
    }
  });

  test('/v3/snapshot of options of several underlyings: the queries of one option', async (t) => {
    const store = await openTestStore(t);
    if (!store) return;
    t.after(() => store.close());
    // One contract of each underlying: SPX's are an index's, priced from I:SPX.
    const contracts = (
      await store.all<{ ticker: string }>(
        'SELECT min(ticker) AS ticker FROM option_contracts GROUP BY underlying_ticker ORDER BY ticker',
      )
    ).map((r) => r.ticker);
    assert.ok(contracts.length >= 4, `${contracts.length} underlyings`);
    for (const [when, get] of await getters(store)) {
      await get(`/v3/snapshot?ticker.any_of=${contracts.join(',')}`);
      const page = await get(`/v3/snapshot?ticker.any_of=${contracts.join(',')}`);
      const results = page.body.results as Body[];
      assert.deepEqual(
        results.map((r) => r.ticker),
        contracts,
      );
      assert.ok(
        results.some((r) => r.underlying_asset !== undefined),
        `${when}: some underlyings priced`,
      );
      let most = 0;
      for (const r of results) {
        const one = await get(`/v3/snapshot?ticker.any_of=${r.ticker}`);
        assert.deepEqual(one.body.results, [r], `${when}: ${r.ticker}`);
        most = Math.max(most, one.queries);
      }
      assert.ok(page.queries <= most, `${when}: ${page.queries} queries for ${results.length} options`);
    }
  });

  test('v2 stocks tickers, gainers and losers: the queries of one ticker, whatever the count', async (t) => {
    const store = await openTestStore(t);
    if (!store) return;
    t.after(() => store.close());
    const base = '/v2/snapshot/locale/us/markets/stocks';
    for (const [when, get] of await getters(store)) {
      await get(`${base}/tickers`);
      const all = await get(`${base}/tickers`);
      const tickers = all.body.tickers as Body[];
      assert.ok(tickers.length >= 8, `${when}: ${tickers.length} tickers`);
      assert.ok(
        tickers.some((s) => s.day.v > 0),
        `${when}: some tickers traded`,
      );
      let most = 0;
      for (const s of tickers) {
        const one = await get(`${base}/tickers/${s.ticker}`);
        assert.deepEqual(one.body.ticker, s, `${when}: ${s.ticker}`);
        const listed = await get(`${base}/tickers?tickers=${s.ticker}`);
        assert.deepEqual(listed.body.tickers, [s], `${when}: ${s.ticker} listed`);
        most = Math.max(most, one.queries, listed.queries);
      }
      assert.ok(most <= 8, `${when}: ${most} queries for one ticker`);
      assert.ok(all.queries <= most, `${when}: ${all.queries} queries for ${tickers.length} tickers`);
      for (const direction of ['gainers', 'losers']) {
        const movers = await get(`${base}/${direction}`);
        assert.ok(movers.queries <= most + 1, `${when}: ${movers.queries} queries for ${direction}`);
        const byTicker = new Map(tickers.map((s) => [s.ticker, s]));
        for (const s of movers.body.tickers as Body[]) assert.deepEqual(s, byTicker.get(s.ticker), s.ticker);
      }
    }
  });

  test('v2 forex and crypto tickers: each item is its own, a fixed number of queries', async (t) => {
    const store = await openTestStore(t);
    if (!store) return;
    t.after(() => store.close());
    for (const [when, get] of await getters(store)) {
      for (const path of ['global/markets/forex', 'global/markets/crypto']) {
        const base = `/v2/snapshot/locale/${path}`;
        await get(`${base}/tickers`);
        const all = await get(`${base}/tickers`);
        const tickers = all.body.tickers as Body[];
        assert.ok(tickers.length >= 1, `${when}: ${path}`);
        for (const s of tickers) {
          const one = await get(`${base}/tickers/${s.ticker}`);
          assert.deepEqual(one.body.ticker, s, `${when}: ${s.ticker}`);
        }
        assert.ok(all.queries <= 8, `${when}: ${all.queries} queries for ${tickers.length} ${path} tickers`);
      }
    }
  });

  test('/v3/snapshot/indices: one page costs what one index does', async (t) => {
    const store = await openTestStore(t);
    if (!store) return;
    t.after(() => store.close());
    for (const [when, get] of await getters(store)) {
      await get('/v3/snapshot/indices?limit=250');
      const page = await get('/v3/snapshot/indices?limit=250');
      const results = page.body.results as Body[];
      assert.ok(results.length >= 2, `${when}: ${results.length} indices`);
      let most = 0;
      for (const r of results) {
        const one = await get(`/v3/snapshot/indices?ticker.any_of=${r.ticker}`);
        assert.deepEqual(one.body.results, [r], `${when}: ${r.ticker}`);
        most = Math.max(most, one.queries);
      }
      assert.ok(page.queries <= most + 1, `${when}: ${page.queries} queries for ${results.length} indices`);
      const asked = [...results.map((r) => r.ticker), 'I:NOSUCH'].reverse();
      const any = await get(`/v3/snapshot/indices?ticker.any_of=${asked.join(',')}&limit=250`);
      assert.deepEqual(
        any.body.results,
        asked.map(
          (a) =>
            results.find((r) => r.ticker === a) ?? {
              ticker: a,
              error: 'NOT_FOUND',
              message: 'Ticker not found.',
            },
        ),
      );
    }
  });
  test('grouped daily: the queries of one ticker, and each bar the daily bar of /v1/open-close', async (t) => {
    const store = await openTestStore(t);
    if (!store) return;
    t.after(() => store.close());
    const [, get] = (await getters(store))[0] as [string, Get];
    // AAPL's 7-for-1 split of 2014-06-09 adjusts its 2013 bars; crypto stamps come from the day's data.
    for (const [market, date] of [
      ['us/market/stocks', '2013-10-07'],
      ['us/market/stocks', '2014-06-06'],
      ['global/market/fx', '2014-05-01'],
      ['global/market/crypto', '2018-04-04'],
    ] as const) {
      for (const adjusted of [true, false]) {
        const path = `/v2/aggs/grouped/locale/${market}/${date}?adjusted=${adjusted}`;
        await get(path);
        const grouped = await get(path);
        const results = grouped.body.results as Body[];
        assert.ok(results.length >= 1, path);
        assert.ok(grouped.queries <= 4, `${path}: ${grouped.queries} queries for ${results.length} tickers`);
        for (const r of results) {
          const alone = await get(`/v1/open-close/${r.T}/${date}?adjusted=${adjusted}`);
          const { open, high, low, close, volume } = alone.body;
          assert.deepEqual([r.o, r.h, r.l, r.c], [open, high, low, close], `${path}: ${r.T}`);
          if (volume !== undefined) assert.equal(r.v, volume, `${path}: ${r.T}`);
        }
      }
    }
  });
});

/** The first and last item of each asset class in a page: checked alone besides every seventh. */
function isEdge(results: readonly Body[], i: number): boolean {
  const type = results[i]?.type;
  return results[i - 1]?.type !== type || results[i + 1]?.type !== type;
}
