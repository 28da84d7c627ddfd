import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { leanSubset, n, tempStore, wallToUtc, zipRows } from './helpers.js';

const NY = 'America/New_York';
const FILES = [
  'option/usa/minute/spy/20230803_trade_american.zip',
  'option/usa/minute/spy/20230803_quote_american.zip',
  'option/usa/minute/twx/20140605_openinterest_american.zip',
  'option/usa/daily/aapl_2015_trade_american.zip',
  'indexoption/usa/minute/spx/20210104_trade_european.zip',
  'indexoption/usa/daily/spx_2021_openinterest_european.zip',
];

/** The service's ticker for a Lean entry name, worked out here from the name alone. */
function tickerOfEntry(entry: string, underlying: string): string {
  const m = /_(call|put)_(\d+)_(\d{4})(\d{2})(\d{2})\.csv$/.exec(entry) as RegExpExecArray;
  const strikeUsd = Number(m[2]) / 10_000;
  const strike = String(Math.round(strikeUsd * 1000)).padStart(8, '0');
  return `O:${underlying}${(m[3] as string).slice(2)}${m[4]}${m[5]}${m[1] === 'call' ? 'C' : 'P'}${strike}`;
}

describe('ingestLean: options', () => {
  let store: DuckDbStore;
  const cleanups: (() => void)[] = [];

  before(async () => {
    if (!existsSync(leanDir)) return;
    const subset = leanSubset(FILES);
    const temp = await tempStore();
    cleanups.push(subset.cleanup, temp.cleanup);
    store = temp.store;
    const summary = await ingestLean(store, subset.dir);
    assert.equal(summary.filesIngested, FILES.length);
  });
  after(() => {
    for (const c of cleanups.reverse()) c();
  });

  it('SPY 430 call minute bars: ticker from the entry name, prices in dollars, times in UTC', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const entries = zipRows('option/usa/minute/spy/20230803_trade_american.zip');
    let checked = 0;
    for (const [entry, rows] of entries) {
      const ticker = tickerOfEntry(entry, 'SPY');
      const stored = await store.all<Record<string, unknown>>(
        "SELECT * FROM bars WHERE ticker = $1 AND resolution = 'minute' ORDER BY t",
        [ticker],
      );
      assert.equal(stored.length, rows.length, entry);
      const first = rows[0] as string[];
      assert.equal(n(stored[0]?.t), wallToUtc('20230803', Number(first[0]), NY));
      assert.deepEqual(
        [stored[0]?.o, stored[0]?.h, stored[0]?.l, stored[0]?.c, stored[0]?.v],
        [...first.slice(1, 5).map((x) => Number(x) / 10_000), Number(first[5])],
      );
      checked++;
    }
    assert.ok(checked > 0);
    const [contract] = await store.all<Record<string, unknown>>(
      "SELECT underlying_ticker, contract_type, exercise_style, strftime(expiration_date, '%Y-%m-%d') AS exp, strike_price, shares_per_contract FROM option_contracts WHERE ticker = 'O:SPY230901C00430000'",
    );
    assert.deepEqual(contract, {
      underlying_ticker: 'SPY',
      contract_type: 'call',
      exercise_style: 'american',
      exp: '2023-09-01',
      strike_price: 430,
      shares_per_contract: 100,
    });
  });

  it('SPY option quote bars: one row per entry row, empty sides stay NULL', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const entries = zipRows('option/usa/minute/spy/20230803_quote_american.zip');
    for (const [entry, rows] of entries) {
      const ticker = tickerOfEntry(entry, 'SPY');
      const [count] = await store.all<{ n: bigint; emptyBids: bigint }>(
        'SELECT count(*) AS n, count(*) FILTER (WHERE bid_c IS NULL) AS emptyBids FROM quote_bars WHERE ticker = $1',
        [ticker],
      );
      assert.equal(n(count?.n), rows.length, entry);
      assert.equal(n(count?.emptyBids), rows.filter((r) => r[4] === '').length, entry);
      const last = rows[rows.length - 1] as string[];
      const [row] = await store.all<Record<string, unknown>>(
        'SELECT * FROM quote_bars WHERE ticker = $1 AND t = $2',
        [ticker, BigInt(wallToUtc('20230803', Number(last[0]), NY))],
      );
      assert.equal(row?.ask_c, last[9] === '' ? null : Number(last[9]) / 10_000);
      assert.equal(row?.ask_size, Number(last[10]));
    }
  });

  it('TWX open interest: one value per contract, stamped in New York time', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const entries = zipRows('option/usa/minute/twx/20140605_openinterest_american.zip');
    const [count] = await store.all<{ n: bigint }>(
      "SELECT count(*) AS n FROM open_interest WHERE ticker LIKE 'O:TWX%'",
    );
    assert.equal(
      n(count?.n),
      [...entries.values()].reduce((s, r) => s + r.length, 0),
    );
    const [entry, rows] = [...entries][7] as [string, string[][]];
    const [ms, oi] = rows[0] as string[];
    const [row] = await store.all<{ t: bigint; open_interest: number }>(
      'SELECT t, open_interest FROM open_interest WHERE ticker = $1',
      [tickerOfEntry(entry, 'TWX')],
    );
    assert.equal(n(row?.t), wallToUtc('20140605', Number(ms), NY));
    assert.equal(row?.open_interest, Number(oi));
  });

  it('daily option bars and SPX index options (European) from the yearly archives', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const [entry, rows] = [...zipRows('option/usa/daily/aapl_2015_trade_american.zip')][0] as [
      string,
      string[][],
    ];
    const ticker = tickerOfEntry(entry, 'AAPL');
    assert.equal(ticker, 'O:AAPL160115C00100000');
    const last = rows[rows.length - 1] as string[];
    const [bar] = await store.all<Record<string, unknown>>(
      "SELECT t, c, v FROM bars WHERE ticker = $1 AND resolution = 'day' ORDER BY t DESC LIMIT 1",
      [ticker],
    );
    assert.equal(n(bar?.t), wallToUtc((last[0] as string).slice(0, 8), 0, NY));
    assert.equal(bar?.c, Number(last[4]) / 10_000);
    assert.equal(bar?.v, Number(last[5]));

    const oi = zipRows('indexoption/usa/daily/spx_2021_openinterest_european.zip');
    const [spxEntry, spxRows] = [...oi][0] as [string, string[][]];
    const spxTicker = tickerOfEntry(spxEntry, 'SPX');
    const stored = await store.all<{ t: bigint; open_interest: number }>(
      'SELECT t, open_interest FROM open_interest WHERE ticker = $1 ORDER BY t',
      [spxTicker],
    );
    assert.deepEqual(
      stored.map((r) => [n(r.t), r.open_interest]),
      spxRows.map((r) => [wallToUtc((r[0] as string).slice(0, 8), 0, NY), Number(r[1])]),
    );
    const [contract] = await store.all<Record<string, unknown>>(
      'SELECT underlying_ticker, exercise_style FROM option_contracts WHERE ticker = $1',
      [spxTicker],
    );
    assert.deepEqual(contract, { underlying_ticker: 'SPX', exercise_style: 'european' });
    const [contracts] = await store.all<{ n: bigint }>(
      "SELECT count(*) AS n FROM option_contracts WHERE underlying_ticker = 'SPX'",
    );
    assert.equal(n(contracts?.n), 6, 'six SPX contracts (DATA.md 4.6)');
  });
});
