import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  type Aggregate,
  CryptoClient,
  ForexClient,
  IndexClient,
  OptionsClient,
  ReferenceClient,
  StocksClient,
} from '../../src/index.js';
import { type ServerThread, startServerThread } from '../../src/server/index.js';
import { testStorePath } from '../support/store.js';

const KEY = 'e2e-key';

/** Two answers to the same request differ only in their request id. */
function same(actual: unknown, expected: unknown): void {
  const strip = (v: unknown) =>
    v && typeof v === 'object' && 'request_id' in v ? { ...v, request_id: '' } : v;
  assert.deepEqual(strip(actual), strip(expected));
}
const ET_0930_2013_10_08 = Date.UTC(2013, 9, 8, 13, 30); // 09:30 New York (EDT)

/**
 * Our own clients, sync and async, end to end against the local server over the store ingested from
 * ../shared/marketdata: the same calls give the same answers both ways, and answers of different
 * endpoints agree with each other where the data says they must.
 */
describe('clients end to end against the local server', () => {
  let server: ServerThread | undefined;

  before(async () => {
    if (!existsSync(testStorePath)) return;
    server = await startServerThread({ db: testStorePath, port: 0, log: () => {} });
  });
  after(() => server?.close());

  const ready = (t: { skip(reason: string): void }): string | undefined => {
    if (server) return server.url;
    const reason = `${testStorePath} is absent (built from ../shared/marketdata before the tests)`;
    if (process.env.CI === 'true') throw new Error(reason);
    console.log(`# skipped: ${reason}`);
    t.skip(reason);
    return undefined;
  };

  test('stocks: bars, full range, trades, last trade and snapshot; sync equals async', async (t) => {
    const url = ready(t);
    if (!url) return;
    const a = StocksClient(KEY, { useAsync: true, baseUrl: url });
    const s = StocksClient(KEY, { baseUrl: url });
    try {
      const window = { timespan: 'minute', multiplier: 5, allPages: true } as const;
      const paged = await a.getAggregateBars('SPY', '2013-10-07', '2013-10-11', window);
      assert.ok((paged.results?.length ?? 0) > 300, 'five days of 5-minute bars');
      same(s.getAggregateBars('SPY', '2013-10-07', '2013-10-11', window), paged);

      // Full range in small parallel chunks gives exactly the bars of the paged request.
      const full = await a.getFullRangeAggregateBars('SPY', '2013-10-07', '2013-10-11', {
        multiplier: 5,
        highVolatility: true,
      });
      assert.deepEqual(full, paged.results);
      const times = full.map((b) => b.t);
      assert.deepEqual(
        times,
        [...new Set(times)].sort((x, y) => x - y),
        'ascending, no duplicate',
      );
      assert.deepEqual(
        s.getFullRangeAggregateBars('SPY', '2013-10-07', '2013-10-11', { multiplier: 5 }),
        full,
      );

      // The trades of one minute, walked with for await, are as many as that minute's bar counts.
      const minute = await a.getAggregateBars('SPY', ET_0930_2013_10_08, ET_0930_2013_10_08, {
        timespan: 'minute',
      });
      const bar = minute.results?.[0] as Aggregate;
      assert.equal(bar.t, ET_0930_2013_10_08);
      const from = BigInt(ET_0930_2013_10_08) * 1_000_000n;
      const filter = {
        timestampGte: from,
        timestampLt: from + 60_000_000_000n,
        limit: 1000,
        order: 'asc',
      } as const;
      let walked = 0;
      let volume = 0;
      let previous = 0n;
      for await (const trade of a.getTradesV3('SPY', filter)) {
        assert.ok(trade.sip_timestamp >= previous, 'in time order across pages');
        previous = trade.sip_timestamp;
        walked++;
        volume += trade.size;
      }
      assert.equal(walked, bar.n);
      assert.equal(volume, bar.v);
      const merged = s.getTradesV3('SPY', { ...filter, allPages: true });
      assert.equal(merged.results.length, walked);

      const last = await a.getLastTrade('SPY');
      assert.equal(typeof last.results.t, 'bigint');
      same(s.getLastTrade('SPY'), last);
      assert.equal(s.getCurrentPrice('SPY'), last.results.p);

      const snapshot = await a.getSnapshot('SPY');
      assert.equal(snapshot.ticker.ticker, 'SPY');
      // The stocks' "now" is SPY's last minute bar of 2023-08-03; its last trade tick, of 2013, is no
      // current trade, so the snapshot leaves it out.
      assert.equal(new Date(Number(last.results.t / 1_000_000n)).getUTCFullYear(), 2013);
      assert.equal(snapshot.ticker.lastTrade, undefined);
      same(s.getSnapshot('SPY'), snapshot);

      const sma = await a.getSma('SPY', { timespan: 'day', windowSize: 10, limit: 5 });
      assert.equal(sma.results.values?.length, 5);
      same(s.getSma('SPY', { timespan: 'day', windowSize: 10, limit: 5 }), sma);
    } finally {
      await a.close();
      s.close();
    }
  });

  test('options: a contract from the reference listing has bars and a snapshot', async (t) => {
    const url = ready(t);
    if (!url) return;
    const ref = ReferenceClient(KEY, { useAsync: true, baseUrl: url });
    const a = OptionsClient(KEY, { useAsync: true, baseUrl: url });
    const s = OptionsClient(KEY, { baseUrl: url });
    try {
      const contracts = await ref.getOptionContracts({
        underlyingTicker: 'SPY',
        asOf: '2023-08-03',
        limit: 1000,
      });
      const contract = contracts.results.find((c) => c.ticker === 'O:SPY230901P00430000');
      assert.ok(contract, 'the SPY 2023-09-01 430 put is listed');
      assert.equal(contract.strike_price, 430);
      // The client adds the prefix; the same bars come back with or without it.
      const bars = await a.getAggregateBars('SPY230901P00430000', '2023-08-03', '2023-08-03', {
        timespan: 'minute',
      });
      assert.ok((bars.results?.length ?? 0) > 10);
      same(
        s.getAggregateBars('O:SPY230901P00430000', '2023-08-03', '2023-08-03', { timespan: 'minute' }),
        bars,
      );
      const snap = await a.getSnapshot('SPY', 'SPY230901P00430000');
      assert.equal(snap.results.details.ticker, 'O:SPY230901P00430000');
      assert.equal(snap.results.details.contract_type, 'put');
    } finally {
      await ref.close();
      await a.close();
      s.close();
    }
  });

  test('forex, crypto and indices: bars in their own day boundaries; conversion both ways', async (t) => {
    const url = ready(t);
    if (!url) return;
    const fx = ForexClient(KEY, { useAsync: true, baseUrl: url });
    const crypto = CryptoClient(KEY, { baseUrl: url });
    const idx = IndexClient(KEY, { useAsync: true, baseUrl: url });
    try {
      const eur = await fx.getAggregateBars('EURUSD', '2014-05-06', '2014-05-06', { timespan: 'hour' });
      assert.ok((eur.results?.length ?? 0) >= 20, 'forex trades around the clock');
      assert.equal(eur.results?.[0]?.t, Date.UTC(2014, 4, 6), 'a forex day starts at UTC midnight');
      const there = await fx.realTimeCurrencyConversion('EUR', 'USD', 100);
      const back = await fx.realTimeCurrencyConversion('USD', 'EUR', 100, { precision: 4 });
      assert.ok(there.converted > 100 && back.converted < 100, 'EUR is worth more than USD in the data');

      const btc = crypto.getAggregateBars('X:BTCUSD', '2016-10-07', '2016-10-07', { timespan: 'hour' });
      assert.equal(btc.results?.[0]?.t, Date.UTC(2016, 9, 7), 'a crypto day starts at UTC midnight');
      assert.equal(
        crypto.getAggregateBars('BTCUSD', '2016-10-07', '2016-10-07', { timespan: 'hour' }).ticker,
        'X:BTCUSD',
      );

      const spx = await idx.getAggregateBars('SPX', '2021-01-04', '2021-01-04', { timespan: 'minute' });
      assert.equal(spx.ticker, 'I:SPX');
      assert.equal(
        spx.results?.[0]?.t,
        Date.UTC(2021, 0, 4, 14, 30),
        'the first index minute is 09:30 New York',
      );
    } finally {
      await fx.close();
      crypto.close();
      await idx.close();
    }
  });
});
