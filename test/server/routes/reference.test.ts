import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { nextTradingDay } from '../../../src/server/calendar/index.js';
import { leanDir, recordedDir, referenceDir } from '../../support/shared.js';
import {
  follow,
  get,
  leanEntryNames,
  leanRows,
  responseValidator,
  snapshotServer,
} from './snapshot-fixture.js';

const NOW = '2015-12-24T12:00:00-05:00';
const recorded = (path: string) => JSON.parse(readFileSync(`${recordedDir}${path}`, 'utf8'));

/** Every result of a paged list, following `next_url` as the JS client does. */
async function all(first: { status: number; body: any }): Promise<{ results: any[]; pages: number }> {
  const results: any[] = [];
  let page = first;
  let pages = 0;
  for (;;) {
    assert.equal(page.status, 200);
    results.push(...page.body.results);
    pages++;
    if (!page.body.next_url) return { results, pages };
    page = await follow(page.body.next_url);
  }
}

/** The OCC tickers of the contracts in the GOOG option files. */
function googContracts(): Set<string> {
  const out = new Set<string>();
  for (const f of readdirSync(`${leanDir}option/usa/minute/goog`)) {
    for (const name of leanEntryNames(`option/usa/minute/goog/${f}`)) {
      const m = /_(call|put)_(\d+)_\d{2}(\d{6})\.csv$/.exec(name);
      if (m)
        out.add(`O:GOOG${m[3]}${m[1] === 'call' ? 'C' : 'P'}${String(Number(m[2]) / 10).padStart(8, '0')}`);
    }
  }
  return out;
}

describe('GET /v3/reference/tickers', () => {
  it('pages every non-option ticker in ticker order with counts per page', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const first = await get(server, '/v3/reference/tickers?limit=3');
    assert.equal(first.body.count, 3);
    const { results, pages } = await all(first);
    const tickers = results.map((r) => r.ticker);
    assert.ok(pages > 2);
    assert.deepEqual(tickers, [...tickers].sort());
    for (const want of [
      'AAPL',
      'AIG',
      'BAC',
      'GOOG',
      'IBM',
      'SPY',
      'C:EURUSD',
      'X:BTCUSD',
      'I:SPX',
      'I:VIX',
    ]) {
      assert.ok(tickers.includes(want), want);
    }
    assert.ok(tickers.every((x) => !x.startsWith('O:')));
    assert.deepEqual(responseValidator('/v3/reference/tickers')(first.body), []);
  });

  it('filters by market, search, ticker range, and clamps limit', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const crypto = await get(server, '/v3/reference/tickers?market=crypto');
    const cryptoTickers = crypto.body.results.map((r: { ticker: string }) => r.ticker);
    // The crypto pairs of the data folder.
    const pairs = readdirSync(`${leanDir}crypto/coinbase/minute`).map((p) => `X:${p.toUpperCase()}`);
    assert.deepEqual(cryptoTickers, [...pairs].sort());
    assert.ok(
      crypto.body.results.every(
        (r: { locale: string; market: string }) => r.locale === 'global' && r.market === 'crypto',
      ),
    );
    assert.equal((await get(server, '/v3/reference/tickers?market=otc')).body.results.length, 0);
    const search = await get(server, '/v3/reference/tickers?search=btc');
    const found = search.body.results.map((r: { ticker: string }) => r.ticker);
    assert.deepEqual(found, pairs.filter((p) => p.includes('BTC')).sort());
    const everything = await all(await get(server, '/v3/reference/tickers?limit=1000'));
    const range = await get(server, '/v3/reference/tickers?ticker.gte=I&ticker.lt=J&order=desc');
    assert.deepEqual(
      range.body.results.map((r: { ticker: string }) => r.ticker),
      everything.results
        .map((r) => r.ticker as string)
        .filter((x) => x >= 'I' && x < 'J')
        .sort()
        .reverse(),
    );
    assert.ok(range.body.results.some((r: { ticker: string }) => r.ticker === 'IBM'));
    const exact = await get(server, '/v3/reference/tickers?ticker=IBM');
    assert.deepEqual(
      exact.body.results.map((r: { ticker: string }) => r.ticker),
      ['IBM'],
    );
    assert.equal((await get(server, '/v3/reference/tickers?limit=5000')).status, 200);
    const bad = await get(server, '/v3/reference/tickers?active=maybe');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.status, 'ERROR');
  });

  it('sorts by a declared key the store has, by ticker for one it lacks, and refuses others', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const list = async (query: string) =>
      (await all(await get(server, `/v3/reference/tickers?limit=1000&${query}`))).results as {
        ticker: string;
        market: string;
      }[];
    const byTicker = (await list('')).map((r) => r.ticker);
    const byMarket = await list('sort=market&order=desc');
    const markets = byMarket.map((r) => r.market);
    assert.deepEqual(markets, [...markets].sort().reverse());
    assert.ok(new Set(markets).size > 1);
    // Within a market, ties go by ticker.
    for (let i = 1; i < byMarket.length; i++) {
      const a = byMarket[i - 1] as { ticker: string; market: string };
      const b = byMarket[i] as { ticker: string; market: string };
      if (a.market === b.market) assert.ok(a.ticker > b.ticker, `${a.ticker} before ${b.ticker}`);
    }
    // cik is a declared sort key the store has no column for.
    assert.deepEqual(
      (await list('sort=cik')).map((r) => r.ticker),
      byTicker,
    );
    const undeclared = await get(server, '/v3/reference/tickers?sort=active');
    assert.equal(undeclared.status, 400);
    assert.match(undeclared.body.error, /sort/);
  });
});

describe('GET /v3/reference/tickers/{ticker} and /types', () => {
  it('details a known ticker and answers NOT_FOUND for others', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const ibm = await get(server, '/v3/reference/tickers/IBM');
    assert.equal(ibm.status, 200);
    assert.equal(ibm.body.results.ticker, 'IBM');
    assert.equal(ibm.body.results.market, 'stocks');
    assert.deepEqual(responseValidator('/v3/reference/tickers/{ticker}')(ibm.body), []);
    const fx = await get(server, '/v3/reference/tickers/C%3AEURUSD');
    assert.equal(fx.body.results.market, 'fx');
    for (const path of ['/v3/reference/tickers/NOPE', '/v3/reference/tickers/O:GOOG151224C00750000']) {
      const res = await get(server, path);
      assert.equal(res.status, 404);
      assert.equal(res.body.status, 'NOT_FOUND');
    }
  });

  it('lists the type codes of the recorded response', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const types = await get(server, '/v3/reference/tickers/types?asset_class=stocks');
    for (const r of recorded('v3/reference/tickers/types.json').results)
      assert.ok(
        types.body.results.some((x: object) => JSON.stringify(x) === JSON.stringify(r)),
        r.code,
      );
    assert.ok(types.body.results.every((x: { asset_class: string }) => x.asset_class === 'stocks'));
    assert.deepEqual(responseValidator('/v3/reference/tickers/types')(types.body), []);
  });
});

describe('GET /v3/reference/options/contracts', () => {
  it('lists the contracts of the files, active as of now by default, expired relative to as_of', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const goog = googContracts();
    const active = await all(
      await get(server, '/v3/reference/options/contracts?underlying_ticker=GOOG&limit=1000'),
    );
    assert.deepEqual(
      active.results.map((r) => r.ticker),
      [...goog].sort(),
    );
    const expired = await all(
      await get(
        server,
        '/v3/reference/options/contracts?underlying_ticker=GOOG&as_of=2015-12-25&expired=true&limit=1000',
      ),
    );
    assert.deepEqual(
      expired.results.map((r) => r.ticker),
      [...goog].filter((x) => x.includes('151224')).sort(),
    );
    const page = await get(
      server,
      '/v3/reference/options/contracts?underlying_ticker=GOOG&contract_type=put&strike_price.gte=700&strike_price.lt=710&expiration_date=2015-12-24',
    );
    assert.ok(page.body.results.length > 0);
    for (const r of page.body.results) {
      assert.equal(r.contract_type, 'put');
      assert.ok(r.strike_price >= 700 && r.strike_price < 710);
      assert.equal(r.cfi, 'OPASPS');
    }
    assert.deepEqual(responseValidator('/v3/reference/options/contracts')(page.body), []);
    const clamped = await get(server, '/v3/reference/options/contracts?limit=5000');
    assert.equal(clamped.body.results.length, 1000);
    assert.ok(clamped.body.next_url);
  });

  it('gives one contract with or without O:, and 404 for an unknown one', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    for (const id of ['O:GOOG151224C00750000', 'GOOG151224C00750000', 'O%3AGOOG151224C00750000']) {
      const res = await get(server, `/v3/reference/options/contracts/${id}`);
      assert.equal(res.status, 200, id);
      assert.equal(res.body.results.ticker, 'O:GOOG151224C00750000');
      assert.equal(res.body.results.underlying_ticker, 'GOOG');
      assert.equal(res.body.results.strike_price, 750);
    }
    const spx = await get(server, '/v3/reference/options/contracts/O:SPX210115C03800000');
    assert.equal(spx.body.results.cfi, 'OCEICS');
    assert.deepEqual(responseValidator('/v3/reference/options/contracts/{options_ticker}')(spx.body), []);
    assert.equal((await get(server, '/v3/reference/options/contracts/O:GOOG151224C09990000')).status, 404);
  });
});

describe('GET /v3/reference/splits', () => {
  it('has the splits the AAPL factor file implies, newest first', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    // A split changes the factor file's split factor between two rows; it executes on the next trading
    // day after the earlier row's date.
    const rows = leanRows('equity/usa/factor_files/aapl.csv');
    const want: { date: string; ratio: number }[] = [];
    for (let i = 0; i + 1 < rows.length; i++) {
      const a = Number(rows[i]?.[2]);
      const b = Number(rows[i + 1]?.[2]);
      if (Math.abs(b / a - 1) > 1e-6) {
        const d = rows[i]?.[0] as string;
        want.push({
          date: nextTradingDay(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`),
          ratio: b / a,
        });
      }
    }
    assert.ok(want.some((w) => w.date === '2014-06-09'));
    const { results } = await all(await get(server, '/v3/reference/splits?ticker=AAPL&limit=2'));
    assert.deepEqual(
      results.map((r) => r.execution_date),
      want
        .map((w) => w.date)
        .sort()
        .reverse(),
    );
    for (const r of results) {
      const w = want.find((x) => x.date === r.execution_date);
      assert.ok(Math.abs(r.split_to / r.split_from - (w?.ratio ?? 0)) < 1e-3, r.execution_date);
      assert.match(r.id, /^E[0-9a-f]{64}$/);
    }
    const asc = await get(server, '/v3/reference/splits?ticker=AAPL&order=asc&execution_date.gte=2010-01-01');
    assert.deepEqual(
      asc.body.results.map((r: { execution_date: string }) => r.execution_date),
      ['2014-06-09', '2020-08-31'],
    );
    assert.equal(
      (await get(server, '/v3/reference/splits?ticker=AAPL&reverse_split=true')).body.results.length,
      0,
    );
    assert.deepEqual(responseValidator('/v3/reference/splits')(asc.body), []);
  });
});

describe('static and empty reference endpoints', () => {
  it('conditions: the recorded stock conditions, paged by 10', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const res = await get(server, '/v3/reference/conditions?asset_class=stocks');
    const want = recorded('v3/reference/conditions&asset_class=stocks.json').results;
    assert.deepEqual(
      res.body.results.map((r: { id: number; name: string }) => [r.id, r.name]),
      want.map((r: { id: number; name: string }) => [r.id, r.name]),
    );
    assert.equal(res.body.count, 10);
    assert.ok(res.body.next_url);
    const sweep = await get(server, '/v3/reference/conditions?id=14');
    assert.equal(sweep.body.results[0].name, 'Intermarket Sweep');
    assert.deepEqual(responseValidator('/v3/reference/conditions')(res.body), []);
  });

  it('exchanges: every recorded exchange, plus the crypto venue', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const res = await get(server, '/v3/reference/exchanges');
    for (const r of recorded('v3/reference/exchanges.json').results) {
      assert.ok(
        res.body.results.some((x: object) => JSON.stringify(x) === JSON.stringify(r)),
        r.name,
      );
    }
    const crypto = await get(server, '/v3/reference/exchanges?asset_class=crypto');
    assert.deepEqual(
      crypto.body.results.map((r: { id: number }) => r.id),
      [1],
    );
    assert.deepEqual(responseValidator('/v3/reference/exchanges')(res.body), []);
  });

  it('dividends and news: an OK envelope without results (the store has no source for them)', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    for (const path of ['/v3/reference/dividends?ticker=AAPL', '/v2/reference/news?ticker=AAPL&limit=5000']) {
      const res = await get(server, path);
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'OK');
      assert.deepEqual(res.body.results, []);
    }
    assert.equal((await get(server, '/v3/reference/dividends?frequency=x')).status, 400);
    assert.deepEqual(
      responseValidator('/v3/reference/dividends')((await get(server, '/v3/reference/dividends')).body),
      [],
    );
  });
});

describe('values the specification enumerates', () => {
  it('every value it lists for a query parameter of a reference path is answered, not refused', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    type Param = { name: string; in: string; schema?: { enum?: unknown[] }; $ref?: string };
    const spec = JSON.parse(readFileSync(`${referenceDir}openapi.json`, 'utf8'));
    const resolve = (p: Param): Param =>
      p.$ref ? spec.components.parameters[p.$ref.split('/').pop() as string] : p;
    const refused: string[] = [];
    let asked = 0;
    for (const [path, item] of Object.entries<any>(spec.paths)) {
      if (!/^\/(v3|vX)\/reference\/(dividends|exchanges|ipos|conditions|tickers\/types|splits)$/.test(path))
        continue;
      const params = [...(item.parameters ?? []), ...(item.get?.parameters ?? [])].map(resolve);
      for (const p of params.filter((p) => p.in === 'query')) {
        for (const value of p.schema?.enum ?? []) {
          const url = `${path}?${p.name}=${encodeURIComponent(String(value))}`;
          const res = await get(server, url);
          asked++;
          if (res.status !== 200) refused.push(`${url}: ${res.status} ${res.body.error ?? ''}`);
        }
      }
    }
    assert.ok(asked > 40, `${asked} values asked`);
    assert.deepEqual(refused, []);
  });
});
