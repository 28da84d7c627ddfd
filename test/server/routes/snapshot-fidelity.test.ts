/**
 * Fidelity of what the server derives from the store: the "now" each asset class's snapshots use, data
 * of other sessions kept out of snapshots, fields the store has (trade ids, decimal sizes, exchanges),
 * prices without float noise, one-sided quotes and crypto last trades.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { restClient } from '@polygon.io/client-js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir, referenceDir } from '../../support/shared.js';
import { openTestStore, withStoreFile } from '../../support/store.js';
import { get, leanRows, responseValidator, snapshotServer } from './snapshot-fixture.js';

/** A server over the prepared test store with no `now` given: each class takes its own from the data. */
async function serverWithDataNow(t: TestContext): Promise<RunningServer | undefined> {
  if (!hasShared(t, leanDir)) return undefined;
  const store = await openTestStore(t);
  if (!store) return undefined;
  const server = await startServer({ store, port: 0, log: () => {} });
  t.after(async () => {
    await server.close();
    store.close();
  });
  return server;
}

/** Decimals in the shortest text of a number (`1.38718` → 5; float noise shows as 15 or more). */
const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;

describe('the server’s "now" without --now', () => {
  it('is per asset class: the latest tick or intraday bar of the class, not a long daily series', async (t) => {
    const server = await serverWithDataNow(t);
    if (!server) return;
    // Stocks: SPY's minute bars of 2023-08-03 are the latest stock data (VIX's daily file runs to 2026).
    const spy = (await get(server, '/v2/snapshot/locale/us/markets/stocks/tickers/SPY')).body.ticker;
    const minutes = leanRows('equity/usa/minute/spy/20230803_trade.zip');
    assert.equal(
      spy.day.v,
      minutes.reduce((a, r) => a + Number(r[5]), 0),
      'the whole day of 2023-08-03',
    );
    // SPY's ticks are of 2013 and its daily file ends in 2021: neither is today's or yesterday's.
    assert.equal(spy.lastTrade, undefined);
    assert.deepEqual(spy.prevDay, { o: 0, h: 0, l: 0, c: 0, v: 0, vw: 0 });
    assert.equal(spy.todaysChange, 0);

    // Crypto: the minute bars of 2018-04-06.
    const btc = (await get(server, '/v2/snapshot/locale/global/markets/crypto/tickers/X:BTCUSD')).body.ticker;
    const btcMinutes = leanRows('crypto/coinbase/minute/btcusd/20180406_trade.zip');
    assert.equal(btc.day.o, Number(btcMinutes[0]?.[1]));
    assert.ok(btc.day.v > 0);

    // Forex: the minute quote bars of 2018-04-04, with the service's forex exchange id.
    const eur = (await get(server, '/v2/snapshot/locale/global/markets/forex/tickers/C:EURUSD')).body.ticker;
    // The closing quote of the last minute of 2018-04-04 held at its end.
    assert.equal(eur.lastQuote.t, Date.UTC(2018, 3, 5));
    assert.equal(eur.lastQuote.x, 48);
    assert.ok(eur.day.c > 0);

    // Options: SPY's chain of 2023-08-03 lists contracts that traded that day.
    const chain = (await get(server, '/v3/snapshot/options/SPY?limit=250')).body;
    assert.ok(chain.results.length > 0);
    assert.ok(chain.results.some((r: { day: { volume?: number } }) => (r.day.volume ?? 0) > 0));
  });
});

describe('fields the store has, at their precision', () => {
  const NOW = '2013-10-08T14:30:00-04:00';

  it('stock trades carry decimal_size and ds; the snapshot’s last trade has the trade’s id', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const trades = (await get(server, '/v3/trades/SPY?timestamp=2013-10-08&limit=5&order=asc')).body.results;
    assert.equal(trades.length, 5);
    for (const r of trades) assert.equal(r.decimal_size, `${r.size}.0`);
    const last = (await get(server, '/v2/last/trade/SPY')).body.results;
    assert.equal(last.ds, `${last.s}.0`);
    const snap = (await get(server, '/v2/snapshot/locale/us/markets/stocks/tickers/SPY')).body.ticker;
    assert.notEqual(snap.lastTrade.i, '');
    assert.equal(snap.lastTrade.i, last.i);
    assert.equal(snap.lastTrade.ds, `${snap.lastTrade.s}.0`);
    assert.equal(snap.day.dv, `${snap.day.v}.0`);
  });

  it('forex bars (bid/ask midpoints) carry the decimals of their quotes, without float noise', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const { body } = await get(
      server,
      '/v2/aggs/ticker/C:EURUSD/range/1/minute/2014-05-01/2014-05-01?limit=50000',
    );
    const rows = leanRows('forex/oanda/minute/eurusd/20140501_quote.zip');
    assert.equal(body.results.length, rows.length);
    for (const [i, bar] of body.results.entries()) {
      for (const k of ['o', 'h', 'l', 'c']) assert.ok(decimals(bar[k]) <= 6, `${k} ${bar[k]}`);
      const row = rows[i] as string[];
      // The midpoint of two five-decimal quotes, exactly.
      assert.equal(bar.o, Math.round(((Number(row[1]) + Number(row[6])) / 2) * 1e6) / 1e6);
    }
    const last = (await get(server, '/v1/last_quote/currencies/EUR/USD')).body.last;
    assert.equal(last.exchange, 48);
    const day = (await get(server, '/v2/aggs/ticker/X:BTCUSD/range/1/day/2018-04-04/2018-04-04')).body;
    assert.ok(decimals(day.results[0].v) <= 8, `crypto volume ${day.results[0].v}`);
  });
});

describe('quotes and trades a snapshot shows', () => {
  it('a one-sided option quote is not averaged with 0', async (t) => {
    // The last quote bar of this SPX call before 16:15 New York on 2021-01-14 has an ask and no bid.
    const server = await snapshotServer(t, Date.UTC(2021, 0, 14, 21, 15));
    if (!server) return;
    const { body } = await get(server, '/v3/snapshot/options/SPX/O:SPX210115C04250000');
    const q = body.results.last_quote;
    assert.equal(q.bid, 0);
    assert.equal(q.ask, 0.05);
    assert.equal(q.midpoint, 0.05);
    assert.equal(body.results.implied_volatility, undefined);
  });

  it('a crypto last trade is a stored trade, in /v1/last/crypto and in the snapshot', async (t) => {
    if (!hasShared(t, referenceDir)) return;
    await withStoreFile(async (path) => {
      const writer = await DuckDbStore.open(path);
      const at = Date.UTC(2018, 3, 5, 11, 59, 30, 250);
      await writer.run(
        `INSERT INTO trades (ticker, sip_timestamp, participant_timestamp, sequence_number, price, size,
           exchange, conditions, id) VALUES ('X:BTCUSD', $1, $1, 7, 6801.12, 0.01234567, 1, [2], '5551234')`,
        [BigInt(at) * 1_000_000n],
      );
      await writer.run(
        "INSERT INTO tickers (ticker, name, market, locale) VALUES ('X:BTCUSD', 'Bitcoin - United States Dollar', 'crypto', 'global')",
      );
      writer.close();
      const server = await startServer({ db: path, port: 0, now: Date.UTC(2018, 3, 5, 12), log: () => {} });
      try {
        const client = restClient('any-key', server.url);
        const last = await client.getLastCryptoTrade('BTC', 'USD');
        assert.deepEqual(last.last, {
          conditions: [2],
          exchange: 1,
          price: 6801.12,
          size: 0.01234567,
          timestamp: at,
        });
        const { body } = await get(server, '/v2/snapshot/locale/global/markets/crypto/tickers/X:BTCUSD');
        assert.deepEqual(body.ticker.lastTrade, {
          c: [2],
          i: '5551234',
          p: 6801.12,
          s: 0.01234567,
          t: at,
          x: 1,
        });
        assert.deepEqual(
          responseValidator('/v2/snapshot/locale/global/markets/crypto/tickers/{ticker}')(body),
          [],
        );
        const raw = await get(server, '/v1/last/crypto/BTC/USD');
        assert.deepEqual(responseValidator('/v1/last/crypto/{from}/{to}')(raw.body), []);
      } finally {
        await server.close();
      }
    });
  });
});
