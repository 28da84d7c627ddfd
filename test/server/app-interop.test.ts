/**
 * Interop: the official `@polygon.io/client-js` (a client nobody here wrote) pointed at the local server.
 * Values are checked against the raw Lean files.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { restClient } from '@polygon.io/client-js';
import { fixtureServer, leanRows } from './app-fixture.js';

const EDT = 4 * 3_600_000;

const spyDaily = () =>
  new Map(
    leanRows('equity/usa/daily/spy.zip').map((f) => [
      (f[0] as string).slice(0, 8),
      {
        o: Number(f[1]) / 1e4,
        h: Number(f[2]) / 1e4,
        l: Number(f[3]) / 1e4,
        c: Number(f[4]) / 1e4,
        v: Number(f[5]),
      },
    ]),
  );

describe('the official JS client against the local server', () => {
  test('aggregates with pagination, previous close, grouped daily, open/close', async (t) => {
    const server = await fixtureServer(t, { now: '2013-10-07' });
    if (!server) return;
    const paged = restClient('any-key', server.url, { pagination: true });
    const plain = restClient('any-key', server.url);

    const all = await plain.getStocksAggregates(
      'SPY',
      1,
      'day' as never,
      '2013-09-01',
      '2013-10-31',
      true,
      'asc' as never,
      50000,
    );
    const walked = await paged.getStocksAggregates(
      'SPY',
      1,
      'day' as never,
      '2013-09-01',
      '2013-10-31',
      true,
      'asc' as never,
      7,
    );
    assert.ok((all.results?.length ?? 0) > 30);
    // The client concatenates later pages first; order aside, every bar arrives once.
    const byT = (a: { t: number }, b: { t: number }) => a.t - b.t;
    assert.deepEqual([...(walked.results ?? [])].sort(byT), all.results);
    const days = spyDaily();
    const oct1 = all.results?.find((b) => b.t === Date.UTC(2013, 9, 1) + EDT);
    assert.equal(oct1?.c, days.get('20131001')?.c);

    const prev = await plain.getPreviousStocksAggregates('SPY', true);
    const p = prev.results?.[0] as unknown as { T: string; c: number; o: number };
    assert.equal(p.T, 'SPY');
    assert.equal(p.c, days.get('20131004')?.c);
    assert.equal(p.o, days.get('20131004')?.o);

    // 2013-10-07 has trade ticks, which make its day bar (the vendor's row is not its source).
    const oct7 = all.results?.find((b) => b.t === Date.UTC(2013, 9, 7) + EDT);
    assert.ok(oct7);
    const grouped = await plain.getGroupedStocksAggregates('2013-10-07', true);
    const spy = grouped.results?.find((r) => r.T === 'SPY');
    assert.equal(spy?.c, oct7.c);

    const oc = await plain.getStocksOpenClose('SPY', '2013-10-07', true);
    assert.equal(oc.open, oct7.o);
    assert.equal(oc.close, oct7.c);
    assert.equal(typeof oc.preMarket, 'number');
    assert.equal(typeof oc.afterHours, 'number');

    const btc = await plain.getCryptoAggregates('X:BTCUSD', 1, 'hour' as never, '2018-04-04', '2018-04-04');
    assert.equal(btc.results?.[0]?.t, Date.UTC(2018, 3, 4));
  });

  test('trades and quotes v3 through every page, last trade and last quote, legacy ticks', async (t) => {
    const server = await fixtureServer(t, { now: '2013-10-07' });
    if (!server) return;
    const paged = restClient('any-key', server.url, { pagination: true });
    const plain = restClient('any-key', server.url);
    // One minute of SPY trades, 10:00 to 10:01 New York, 100 per page.
    const gte = String(BigInt(Date.UTC(2013, 9, 7, 10) + EDT) * 1_000_000n);
    const lt = String(BigInt(Date.UTC(2013, 9, 7, 10, 1) + EDT) * 1_000_000n);
    const trades = await paged.getStocksTrades(
      'SPY',
      undefined,
      gte,
      undefined,
      undefined,
      lt,
      'asc' as never,
      100,
    );
    const raw = leanRows('equity/usa/tick/spy/20131007_trade.zip').filter(
      (f) => Number(f[0]) >= 36_000_000 && Number(f[0]) < 36_060_000,
    );
    assert.ok(raw.length > 100, 'several pages');
    assert.equal(trades.results?.length, raw.length);
    const key = (p: number, s: number) => `${p}|${s}`;
    assert.deepEqual(
      (trades.results ?? []).map((r) => key(r.price, r.size)).sort(),
      raw.map((f) => key(Number(f[1]) / 1e4, Number(f[2]))).sort(),
    );

    const ibmTrades = leanRows('equity/usa/tick/ibm/20131007_trade.zip');
    const lastRow = ibmTrades[ibmTrades.length - 1] as string[];
    const last = await plain.getLastStocksTrade('IBM');
    assert.equal(last.status, 'OK');
    assert.equal(last.results?.p, Number(lastRow[1]) / 1e4);
    assert.equal(last.results?.s, Number(lastRow[2]));

    const quoteRows = leanRows('equity/usa/tick/ibm/20131007_quote.zip');
    const bidRow = [...quoteRows].reverse().find((f) => Number(f[1]) > 0) as string[];
    const askRow = [...quoteRows].reverse().find((f) => Number(f[3]) > 0) as string[];
    const nbbo = await plain.getLastStocksQuote('IBM');
    assert.equal(nbbo.results?.p, Number(bidRow[1]) / 1e4);
    assert.equal(nbbo.results?.P, Number(askRow[3]) / 1e4);

    const quotes = await paged.getStocksQuotes(
      'IBM',
      '2013-10-07',
      undefined,
      undefined,
      undefined,
      undefined,
      'desc' as never,
      20000,
    );
    assert.ok((quotes.results?.length ?? 0) > 20000, 'more than one page was followed');

    const ticks = await plain.deprecatedGetHistoricStocksTrades(
      'SPY',
      '2013-10-07',
      undefined,
      undefined,
      false,
      5,
    );
    assert.equal(ticks.results_count, 5);
    const first = leanRows('equity/usa/tick/spy/20131007_trade.zip').slice(0, 5);
    assert.deepEqual(
      ticks.results?.map((r) => r.p),
      first.map((f) => Number(f[1]) / 1e4),
    );
  });

  test('indicators and currency conversion', async (t) => {
    const server = await fixtureServer(t, { now: '2013-10-07' });
    if (!server) return;
    const plain = restClient('any-key', server.url);
    const closes = [...spyDaily().entries()].filter(([d]) => d <= '20131007').map(([, b]) => b.c);
    // 2013-10-07 has trade ticks, which make its day bar: its close is the last regular-session trade.
    const oct7 = await plain.getStocksAggregates('SPY', 1, 'day' as never, '2013-10-07', '2013-10-07');
    closes[closes.length - 1] = oct7.results?.[0]?.c as number;
    const sma = await plain.getStocksSMA(
      'SPY',
      undefined,
      'day' as never,
      true,
      5,
      'close' as never,
      false,
      'desc' as never,
      3,
    );
    const want = closes.slice(-5).reduce((a, b) => a + b, 0) / 5;
    const firstValue = sma.results?.values?.[0];
    assert.equal(firstValue?.timestamp, Date.UTC(2013, 9, 7) + EDT, 'the latest session up to now');
    assert.ok(Math.abs((firstValue?.value ?? 0) - want) < 1e-9);
    assert.equal(sma.results?.values?.length, 3);
    const macd = await plain.getStocksMACD(
      'SPY',
      undefined,
      'day' as never,
      true,
      12,
      26,
      9,
      'close' as never,
      true,
      'desc' as never,
      2,
    );
    assert.equal(macd.results?.values?.length, 2);
    assert.equal(macd.results?.underlying?.aggregates?.length, 2);

    const eurusd = leanRows('forex/oanda/daily/eurusd.zip').find((f) =>
      f[0]?.startsWith('20131007'),
    ) as string[];
    const bid = Number(eurusd[4]);
    const conv = await plain.getCurrencyConversion('EUR', 'USD', 100, 2 as never);
    assert.equal(conv.converted, Math.round(100 * bid * 100) / 100);
    const back = await plain.getCurrencyConversion('USD', 'EUR', 100, 4 as never);
    assert.equal(back.converted, Math.round((100 / bid) * 10_000) / 10_000);
    const lastQuote = await plain.getLastCurrencyQuote('EUR', 'USD');
    assert.equal(lastQuote.last?.bid, bid);
    assert.equal(lastQuote.symbol, 'EUR/USD');
  });

  test('forex, crypto and options calls: quotes, historic ticks, open/close, last trade, RSI, option bars', async (t) => {
    const server = await fixtureServer(t, { now: Date.UTC(2018, 3, 4, 12) });
    if (!server) return;
    const paged = restClient('any-key', server.url, { pagination: true });
    const plain = restClient('any-key', server.url);
    const ticks = leanRows('forex/oanda/tick/eurusd/20140501_quote.zip');
    const may1 = Date.UTC(2014, 4, 1);
    const inFirstMinute = ticks.filter((f) => Number(f[0]) < 60_000);
    const gte = String(BigInt(may1) * 1_000_000n);
    const lt = String(BigInt(may1 + 60_000) * 1_000_000n);
    const quotes = await paged.getForexQuotes(
      'C:EURUSD',
      undefined,
      gte,
      undefined,
      undefined,
      lt,
      'asc' as never,
      5,
    );
    assert.equal(quotes.results?.length, inFirstMinute.length);
    assert.deepEqual(
      (quotes.results ?? []).map((q) => q.bid_price).sort(),
      inFirstMinute.map((f) => Number(f[1])).sort(),
    );
    const historic = await plain.deprecatedGetHistoricForexQuotes('EUR', 'USD', '2014-05-01', undefined, 3);
    assert.deepEqual(
      historic.ticks?.map((k) => (k as { b: number }).b),
      ticks.slice(0, 3).map((f) => Number(f[1])),
    );
    const fx = await plain.getForexAggregates('C:EURUSD', 1, 'day' as never, '2014-05-01', '2014-05-01');
    assert.equal(fx.results?.[0]?.t, may1);

    // 2018-04-04 has minute bars, which make its day bar.
    const minutes = leanRows('crypto/coinbase/minute/btcusd/20180404_trade.zip');
    const oc = await plain.getCryptoOpenClose('BTC', 'USD', '2018-04-04');
    assert.equal(oc.open, Number(minutes[0]?.[1]));
    assert.equal(oc.close, Number(minutes[minutes.length - 1]?.[4]));
    // The Lean data holds no crypto trades, so there is no last trade (snapshot-fidelity.test.ts reads
    // one through this client from a store that has some).
    await assert.rejects(plain.getLastCryptoTrade('BTC', 'USD'), /404/);
    const rsi = await plain.getCryptoRSI(
      'X:BTCUSD',
      undefined,
      'day' as never,
      14,
      'close' as never,
      false,
      'desc' as never,
      1,
    );
    assert.equal(rsi.results?.values?.[0]?.timestamp, Date.UTC(2018, 3, 4));

    const option = leanRows(
      'option/usa/minute/spy/20230803_trade_american.zip',
      '20230803_spy_minute_trade_american_call_4300000_20230901.csv',
    );
    const bars = await plain.getOptionsAggregates(
      'O:SPY230901C00430000',
      1,
      'day' as never,
      '2023-08-03',
      '2023-08-03',
    );
    assert.equal(bars.results?.[0]?.c, Number(option[option.length - 1]?.[4]) / 10_000);
  });
});
