import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { restClient } from '@polygon.io/client-js';
import { zonedToUtc } from '../../../src/dates/time-zone.js';
import { blackScholesGreeks, blackScholesPrice } from '../../../src/server/greeks/index.js';
import { leanDir } from '../../support/shared.js';
import {
  follow,
  get,
  leanEntries,
  leanEntryNames,
  leanRows,
  responseValidator,
  snapshotServer,
} from './snapshot-fixture.js';

const NY = 'America/New_York';
const close = (actual: number, expected: number, what: string, tol = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
const px = (s: string | undefined) => (s === undefined || s === '' ? undefined : Number(s) / 10_000);

// 2015-12-24, noon New York: a half day (close 13:00) with GOOG's full option chain.
const NOW = '2015-12-24T12:00:00-05:00';
const NOW_MS = Date.parse(NOW);
const CUT = NOW_MS - zonedToUtc(NY, 2015, 12, 24);
const GOOG = 'option/usa/minute/goog';

/** Rows of one contract's entry in a Lean option zip, complete by now (bar start + 1 minute ≤ now). */
function contractRows(
  file: string,
  right: 'call' | 'put',
  strike: number,
  expiry: string,
  cut = CUT,
): string[][] {
  const suffix = `_${right}_${strike * 10_000}_${expiry}.csv`;
  const entries = leanEntries(file, (n) => n.endsWith(suffix));
  const name = [...entries.keys()][0];
  assert.ok(name, `${file} has the ${right} ${strike} ${expiry}`);
  return (entries.get(name) ?? []).filter((r) => Number(r[0]) + 60_000 <= cut);
}

/** The OCC ticker of a Lean entry name (`..._call_7500000_20151224.csv`). */
function tickerOfEntry(underlying: string, name: string): string | undefined {
  const m = /_(call|put)_(\d+)_(\d{2})(\d{2})(\d{2})(\d{2})\.csv$/.exec(name);
  if (!m) return undefined;
  const strike = String(Math.round(Number(m[2]) / 10)).padStart(8, '0');
  return `O:${underlying}${m[4]}${m[5]}${m[6]}${m[1] === 'call' ? 'C' : 'P'}${strike}`;
}

describe('GET /v3/snapshot/options/{underlying}/{contract}', () => {
  it('computes day, quote, open interest, IV, greeks and break-even from the raw files', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const { status, body } = await get(server, '/v3/snapshot/options/GOOG/O:GOOG151224C00750000');
    assert.equal(status, 200);
    assert.equal(body.status, 'OK');
    const r = body.results;

    const trades = contractRows(`${GOOG}/20151224_trade_american.zip`, 'call', 750, '20151224');
    const prev = leanEntries(`${GOOG}/20151223_trade_american.zip`, (n) =>
      n.endsWith('_call_7500000_20151224.csv'),
    );
    const prevRows = [...prev.entries()].find(([n]) => n.endsWith('_call_7500000_20151224.csv'))?.[1];
    const prevClose = px(prevRows?.at(-1)?.[4]) as number;
    const dayClose = px(trades.at(-1)?.[4]) as number;
    close(r.day.open, px(trades[0]?.[1]) as number, 'day.open');
    close(r.day.high, Math.max(...trades.map((x) => px(x[2]) as number)), 'day.high');
    close(r.day.low, Math.min(...trades.map((x) => px(x[3]) as number)), 'day.low');
    close(r.day.close, dayClose, 'day.close');
    assert.equal(
      r.day.volume,
      trades.reduce((s, x) => s + Number(x[5]), 0),
    );
    close(r.day.previous_close, prevClose, 'day.previous_close');
    close(r.day.change, dayClose - prevClose, 'day.change');

    const q = contractRows(`${GOOG}/20151224_quote_american.zip`, 'call', 750, '20151224').at(-1) as string[];
    const bid = px(q[4]) as number;
    const ask = px(q[9]) as number;
    assert.ok(bid > 0 && ask > 0, 'the last quote is two-sided');
    assert.deepEqual(
      {
        bid: r.last_quote.bid,
        ask: r.last_quote.ask,
        bid_size: r.last_quote.bid_size,
        ask_size: r.last_quote.ask_size,
      },
      { bid, ask, bid_size: Number(q[5]), ask_size: Number(q[10]) },
    );
    const mid = (bid + ask) / 2;
    close(r.last_quote.midpoint, mid, 'midpoint');
    close(r.break_even_price, 750 + mid, 'break_even_price');

    const oi = leanEntries(`${GOOG}/20151224_openinterest_american.zip`, (n) =>
      n.endsWith('_call_7500000_20151224.csv'),
    );
    const oiRow = [...oi.entries()].find(([n]) => n.endsWith('_call_7500000_20151224.csv'))?.[1]?.[0];
    assert.equal(r.open_interest, Number(oiRow?.[1]));

    const spotRow = leanRows('equity/usa/minute/goog/20151224_trade.zip')
      .filter((x) => Number(x[0]) + 60_000 <= CUT)
      .at(-1);
    const spot = px(spotRow?.[4]) as number;
    assert.equal(r.underlying_asset.ticker, 'GOOG');
    close(r.underlying_asset.price, spot, 'underlying price');
    close(r.underlying_asset.change_to_break_even, 750 + mid - spot, 'change_to_break_even');

    // The half day closes at 13:00: one hour to expiry.
    const years = (zonedToUtc(NY, 2015, 12, 24, 13) - NOW_MS) / (365 * 86_400_000);
    const inputs = { type: 'call' as const, spot, strike: 750, years, rate: 0 };
    assert.equal(typeof r.implied_volatility, 'number');
    close(blackScholesPrice(inputs, r.implied_volatility), mid, 'price at the implied volatility', 1e-7);
    const g = blackScholesGreeks(inputs, r.implied_volatility);
    for (const k of ['delta', 'gamma', 'theta', 'vega'] as const) close(r.greeks[k], g[k], k, 1e-9);
    assert.ok(r.greeks.delta > 0 && r.greeks.delta < 1 && r.greeks.gamma > 0 && r.greeks.theta < 0);

    assert.deepEqual(r.details, {
      contract_type: 'call',
      exercise_style: 'american',
      expiration_date: '2015-12-24',
      shares_per_contract: 100,
      strike_price: 750,
      ticker: 'O:GOOG151224C00750000',
    });
    assert.deepEqual(responseValidator('/v3/snapshot/options/{underlyingAsset}/{optionContract}')(body), []);
  });

  it('gives no IV or greeks for a quote below intrinsic value or one-sided', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const chain = await get(server, '/v3/snapshot/options/GOOG?expiration_date=2015-12-24&limit=250');
    let checked = 0;
    for (const r of chain.body.results) {
      const q = r.last_quote;
      if (!q) continue;
      const spot = r.underlying_asset.price as number;
      const k = r.details.strike_price as number;
      const intrinsic = r.details.contract_type === 'call' ? spot - k : k - spot;
      if (q.bid === 0 || q.ask === 0 || q.midpoint <= intrinsic) {
        assert.equal(r.implied_volatility, undefined, r.details.ticker);
        assert.equal(r.greeks, undefined, r.details.ticker);
        checked++;
      }
    }
    assert.ok(checked > 0);
  });

  it('answers 404 for an unknown contract or one of another underlying', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    for (const path of [
      '/v3/snapshot/options/GOOG/O:GOOG151224C09990000',
      '/v3/snapshot/options/AAPL/O:GOOG151224C00750000',
    ]) {
      const res = await get(server, path);
      assert.equal(res.status, 404);
      assert.equal(res.body.status, 'NOT_FOUND');
    }
  });

  it('values an index option (SPX, European) against the index', async (t) => {
    const server = await snapshotServer(t, '2021-01-14T12:00:00-05:00');
    if (!server) return;
    const { status, body } = await get(server, '/v3/snapshot/options/I:SPX/O:SPX210115C03800000');
    assert.equal(status, 200);
    const u = body.results.underlying_asset;
    assert.equal(u.ticker, 'I:SPX');
    // 12:00 New York = 11:00 in Chicago, the SPX file's zone.
    const row = leanRows('index/usa/minute/spx/20210114_trade.zip')
      .filter((x) => Number(x[0]) + 60_000 <= 11 * 3_600_000)
      .at(-1);
    close(u.value, Number(row?.[4]), 'index value');
    assert.equal(u.price, undefined);
    assert.equal(body.results.details.exercise_style, 'european');
  });
});

describe('GET /v3/snapshot/options/{underlying}', () => {
  it('lists the filtered chain over cursor pages, in ticker order', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const want = new Set<string>();
    for (const f of readdirSync(`${leanDir}${GOOG}`)) {
      for (const name of leanEntryNames(`${GOOG}/${f}`)) {
        const ticker = tickerOfEntry('GOOG', name);
        const strike = Number(ticker?.slice(-8)) / 1000;
        if (ticker?.includes('151224') && strike >= 700 && strike <= 800) want.add(ticker);
      }
    }
    const got: string[] = [];
    let page = await get(
      server,
      '/v3/snapshot/options/GOOG?expiration_date=2015-12-24&strike_price.gte=700&strike_price.lte=800&limit=7',
    );
    for (;;) {
      assert.equal(page.status, 200);
      assert.ok(page.body.results.length <= 7);
      got.push(...page.body.results.map((r: { details: { ticker: string } }) => r.details.ticker));
      if (!page.body.next_url) break;
      assert.ok(page.body.next_url.startsWith(`${server.url}/v3/snapshot/options/GOOG?cursor=`));
      page = await follow(page.body.next_url);
    }
    assert.deepEqual(got, [...want].sort());
  });

  it('filters by type, sorts by strike descending and clamps limit to 250', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const puts = await get(
      server,
      '/v3/snapshot/options/GOOG?contract_type=put&sort=strike_price&order=desc&limit=50',
    );
    const strikes = puts.body.results.map(
      (r: { details: { strike_price: number } }) => r.details.strike_price,
    );
    assert.deepEqual(
      strikes,
      [...strikes].sort((a, b) => b - a),
    );
    assert.ok(
      puts.body.results.every(
        (r: { details: { contract_type: string } }) => r.details.contract_type === 'put',
      ),
    );
    const big = await get(server, '/v3/snapshot/options/GOOG?limit=1000');
    assert.equal(big.status, 200);
    assert.equal(big.body.results.length, 250);
    assert.ok(big.body.next_url);
    const bad = await get(server, '/v3/snapshot/options/GOOG?strike_price=abc');
    assert.equal(bad.status, 400);
  });

  it('conforms to the schema where the data has every field (trades both days, open interest)', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const chain = await get(server, '/v3/snapshot/options/GOOG?expiration_date=2015-12-24&strike_price=750');
    assert.equal(chain.body.results.length, 2);
    assert.deepEqual(responseValidator('/v3/snapshot/options/{underlyingAsset}')(chain.body), []);
  });

  it('leaves out what the store cannot know: open interest and previous close of SPY 2023-08-03', async (t) => {
    const server = await snapshotServer(t, '2023-08-03T15:00:00-04:00');
    if (!server) return;
    const chain = await get(server, '/v3/snapshot/options/SPY');
    assert.equal(chain.body.results.length, 4);
    for (const r of chain.body.results) {
      assert.equal(r.open_interest, undefined);
      assert.equal(r.day.previous_close, undefined);
      assert.equal(typeof r.day.close, 'number');
    }
  });

  it('works with the official JS client (v8)', async (t) => {
    const server = await snapshotServer(t, '2023-08-03T15:00:00-04:00');
    if (!server) return;
    const rest = restClient('test-key', server.url);
    const one = (await rest.getOptionContract('SPY', 'O:SPY230901C00430000')) as any;
    assert.equal(one.results.details.ticker, 'O:SPY230901C00430000');
    assert.equal(typeof one.results.implied_volatility, 'number');
    const listed = (await rest.getOptionsChain('SPY')) as any;
    assert.equal(listed.results.length, 4);
  });
});
