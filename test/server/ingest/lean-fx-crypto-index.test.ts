import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ingestLean, leanLayout } from '../../../src/server/ingest/lean.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir, marketDataDir } from '../../support/shared.js';
import { n, onlyEntryRows, tempStore, wallToUtc } from './helpers.js';

const FILES = [
  'forex/oanda/tick/eurusd/20140504_quote.zip',
  'forex/oanda/minute/eurusd/20140504_quote.zip',
  'forex/oanda/daily/nzdusd.zip',
  'crypto/coinbase/minute/btcusd/20161007_trade.zip',
  'crypto/coinbase/minute/btcusd/20170903_quote.zip',
  'crypto/coinbase/second/btcusd/20161008_trade.zip',
  'crypto/coinbase/daily/btcusd_trade.zip',
  'index/usa/minute/spx/20210104_trade.zip',
  'index/usa/hour/ndx.zip',
  'index/usa/daily/spx.zip',
];
const VIX = 'datahub-finance-vix/vix-daily.csv';

describe('ingestLean: forex, crypto, indices and VIX', () => {
  let store: DuckDbStore;
  let root: string;
  const cleanups: (() => void)[] = [];

  before(async () => {
    if (!existsSync(leanDir)) return;
    // Laid out like the market-data folder: lean/ plus the VIX history beside it.
    root = mkdtempSync(join(tmpdir(), 'mdq-marketdata-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    for (const p of FILES) {
      mkdirSync(dirname(join(root, 'lean', p)), { recursive: true });
      symlinkSync(join(leanDir, p), join(root, 'lean', p));
    }
    mkdirSync(join(root, 'datahub-finance-vix'));
    symlinkSync(join(marketDataDir, VIX), join(root, VIX));
    const temp = await tempStore();
    cleanups.push(temp.cleanup);
    store = temp.store;
    const summary = await ingestLean(store, root);
    assert.equal(summary.filesIngested, FILES.length + 1);
  });
  after(() => {
    for (const c of cleanups.reverse()) c();
  });

  it('finds the VIX file beside the Lean root, given either folder', (t) => {
    if (!hasShared(t, leanDir)) return;
    assert.equal(leanLayout(root).vixFile, join(root, VIX));
    assert.equal(leanLayout(join(root, 'lean')).vixFile, join(root, VIX));
    assert.equal(leanLayout(join(root, 'lean')).leanRoot, join(root, 'lean'));
  });

  it('EURUSD ticks: C:EURUSD quotes in UTC, no sizes (CRLF file)', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const raw = onlyEntryRows('forex/oanda/tick/eurusd/20140504_quote.zip');
    const rows = await store.all<Record<string, unknown>>(
      "SELECT * FROM quotes WHERE ticker = 'C:EURUSD' ORDER BY sip_timestamp, sequence_number",
    );
    assert.equal(rows.length, raw.length);
    const [ms, bid, ask] = raw[raw.length - 1] as string[];
    const last = rows[rows.length - 1];
    assert.equal(last?.sip_timestamp, BigInt(Date.UTC(2014, 4, 4) + Number(ms)) * 1_000_000n);
    assert.deepEqual([last?.bid_price, last?.ask_price, last?.bid_size], [Number(bid), Number(ask), null]);
  });

  it('EURUSD minute quote bars, and midpoint bars derived from them', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const raw = onlyEntryRows('forex/oanda/minute/eurusd/20140504_quote.zip');
    const r = raw[0] as string[];
    const t0 = Date.UTC(2014, 4, 4) + Number(r[0]);
    const [qb] = await store.all<Record<string, unknown>>(
      "SELECT * FROM quote_bars WHERE ticker = 'C:EURUSD' AND resolution = 'minute' AND t = $1",
      [BigInt(t0)],
    );
    assert.deepEqual(
      [qb?.bid_o, qb?.bid_c, qb?.ask_o, qb?.ask_c, qb?.bid_size],
      [Number(r[1]), Number(r[4]), Number(r[6]), Number(r[9]), null],
    );
    const [bar] = await store.all<Record<string, unknown>>(
      "SELECT * FROM bars WHERE ticker = 'C:EURUSD' AND resolution = 'minute' AND t = $1",
      [BigInt(t0)],
    );
    assert.equal(bar?.o, (Number(r[1]) + Number(r[6])) / 2);
    assert.equal(bar?.c, (Number(r[4]) + Number(r[9])) / 2);
    const [daily] = await store.all<{ n: bigint; first: bigint }>(
      "SELECT count(*) AS n, min(t) AS first FROM quote_bars WHERE ticker = 'C:NZDUSD' AND resolution = 'day'",
    );
    assert.equal(n(daily?.n), onlyEntryRows('forex/oanda/daily/nzdusd.zip').length);
    assert.equal(n(daily?.first), Date.UTC(2007, 0, 1), 'forex days start at UTC midnight');
  });

  it('BTCUSD minute, second and daily bars in UTC', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const raw = onlyEntryRows('crypto/coinbase/minute/btcusd/20161007_trade.zip');
    const last = raw[raw.length - 1] as string[];
    const [bar] = await store.all<Record<string, unknown>>(
      "SELECT * FROM bars WHERE ticker = 'X:BTCUSD' AND resolution = 'minute' AND t = $1",
      [BigInt(Date.UTC(2016, 9, 7) + Number(last[0]))],
    );
    assert.deepEqual([bar?.o, bar?.h, bar?.l, bar?.c, bar?.v], last.slice(1, 6).map(Number));
    const [counts] = await store.all<{ s: bigint; d: bigint; dayStart: bigint }>(
      `SELECT count(*) FILTER (WHERE resolution = 'second') AS s, count(*) FILTER (WHERE resolution = 'day') AS d,
              min(t) FILTER (WHERE resolution = 'day') AS dayStart FROM bars WHERE ticker = 'X:BTCUSD'`,
    );
    assert.equal(n(counts?.s), onlyEntryRows('crypto/coinbase/second/btcusd/20161008_trade.zip').length);
    assert.equal(n(counts?.d), onlyEntryRows('crypto/coinbase/daily/btcusd_trade.zip').length);
    assert.equal(n(counts?.dayStart), Date.UTC(2014, 11, 1));
    const [ticker] = await store.all<Record<string, unknown>>(
      "SELECT market, locale, base_currency_symbol, currency_symbol FROM tickers WHERE ticker = 'X:BTCUSD'",
    );
    assert.deepEqual(ticker, {
      market: 'crypto',
      locale: 'global',
      base_currency_symbol: 'BTC',
      currency_symbol: 'USD',
    });
  });

  it('SPX minute bars are Chicago time: 08:30 CT is 14:30 UTC', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const raw = onlyEntryRows('index/usa/minute/spx/20210104_trade.zip');
    const first = raw[0] as string[];
    assert.equal(first[0], '30600000');
    const t0 = wallToUtc('20210104', Number(first[0]), 'America/Chicago');
    assert.equal(t0, Date.UTC(2021, 0, 4, 14, 30));
    const [bar] = await store.all<Record<string, unknown>>(
      "SELECT * FROM bars WHERE ticker = 'I:SPX' AND resolution = 'minute' ORDER BY t LIMIT 1",
    );
    assert.equal(n(bar?.t), t0);
    assert.deepEqual([bar?.o, bar?.h, bar?.l, bar?.c, bar?.v], [...first.slice(1, 5).map(Number), 0]);
    const ndx = onlyEntryRows('index/usa/hour/ndx.zip');
    const h = ndx[0] as string[];
    const hourStart = wallToUtc(
      (h[0] as string).slice(0, 8),
      Number((h[0] as string).slice(9, 11)) * 3_600_000,
      'America/Chicago',
    );
    const [hour] = await store.all<Record<string, unknown>>(
      "SELECT t, c FROM bars WHERE ticker = 'I:NDX' AND resolution = 'hour' ORDER BY t LIMIT 1",
    );
    assert.deepEqual([n(hour?.t), hour?.c], [hourStart, Number(h[4])]);
    const [daily] = await store.all<{ t: bigint }>(
      "SELECT t FROM bars WHERE ticker = 'I:SPX' AND resolution = 'day' ORDER BY t LIMIT 1",
    );
    assert.equal(n(daily?.t), Date.UTC(2021, 0, 4, 5), 'index days start at midnight New York');
  });

  it('VIX daily history as I:VIX day bars', async (t) => {
    if (!hasShared(t, marketDataDir)) return;
    const lines = readFileSync(join(marketDataDir, VIX), 'utf8').trim().split(/\r?\n/).slice(1);
    const [count] = await store.all<{ n: bigint }>(
      "SELECT count(*) AS n FROM bars WHERE ticker = 'I:VIX' AND resolution = 'day'",
    );
    assert.equal(n(count?.n), lines.length);
    const [date, o, h, l, c] = (lines[lines.length - 1] as string).split(',') as string[];
    const [y, m, d] = (date as string).split('-');
    const [bar] = await store.all<Record<string, unknown>>(
      "SELECT * FROM bars WHERE ticker = 'I:VIX' AND resolution = 'day' AND t = $1",
      [BigInt(wallToUtc(`${y}${m}${d}`, 0, 'America/New_York'))],
    );
    assert.deepEqual([bar?.o, bar?.h, bar?.l, bar?.c], [o, h, l, c].map(Number));
    const [ticker] = await store.all<Record<string, unknown>>(
      "SELECT market, type FROM tickers WHERE ticker = 'I:VIX'",
    );
    assert.deepEqual(ticker, { market: 'indices', type: 'INDEX' });
  });
});
