import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixtureServer, getJson, leanRows } from '../app-fixture.js';

const MAY1 = Date.UTC(2014, 4, 1);
const NOON = MAY1 + 12 * 3_600_000;
const eurTicks = () => leanRows('forex/oanda/tick/eurusd/20140501_quote.zip');

describe('v1 forex and crypto', () => {
  test('last forex quote and conversion in both directions use the latest tick at or before now', async (t) => {
    const server = await fixtureServer(t, { now: NOON });
    if (!server) return;
    const before = eurTicks().filter((f) => Number(f[0]) <= 12 * 3_600_000);
    const tick = before[before.length - 1] as string[];
    const bid = Number(tick[1]);
    const ask = Number(tick[2]);

    const last = await getJson(server, '/v1/last_quote/currencies/EUR/USD');
    assert.equal(last.body.status, 'success');
    assert.equal(last.body.symbol, 'EUR/USD');
    assert.deepEqual(
      [last.body.last.bid, last.body.last.ask, last.body.last.timestamp],
      [bid, ask, MAY1 + Number(tick[0])],
    );

    const direct = await getJson(server, '/v1/conversion/EUR/USD?amount=250&precision=3');
    assert.equal(direct.body.converted, Math.round(250 * bid * 1000) / 1000);
    assert.deepEqual([direct.body.from, direct.body.to, direct.body.initialAmount], ['EUR', 'USD', 250]);
    assert.equal(direct.body.symbol, 'EUR/USD');

    const inverse = await getJson(server, '/v1/conversion/USD/EUR?amount=100');
    assert.equal(inverse.body.converted, Math.round((100 / bid) * 100) / 100, 'precision 2 by default');
    assert.equal(inverse.body.symbol, 'EUR/USD', 'the quote pair actually used');

    const one = await getJson(server, '/v1/conversion/EUR/USD');
    assert.equal(one.body.initialAmount, 1);

    for (const q of ['precision=5', 'amount=-1', 'amount=ten']) {
      const bad = await getJson(server, `/v1/conversion/EUR/USD?${q}`);
      assert.equal(bad.status, 400, q);
    }
    const unknown = await getJson(server, '/v1/conversion/ABC/XYZ');
    assert.equal(unknown.status, 404);
  });

  test('historic forex ticks page by millisecond offset', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const raw = eurTicks();
    const first = await getJson(server, '/v1/historic/forex/EUR/USD/2014-05-01?limit=100');
    assert.deepEqual(
      [first.body.status, first.body.type, first.body.pair, first.body.day],
      ['success', 'forex', 'EUR/USD', '2014-05-01'],
    );
    assert.deepEqual(
      first.body.ticks.map((k: { a: number; b: number; t: number }) => [k.b, k.a, k.t]),
      raw.slice(0, 100).map((f) => [Number(f[1]), Number(f[2]), MAY1 + Number(f[0])]),
    );
    const offset = first.body.ticks[99].t;
    const second = await getJson(server, `/v1/historic/forex/EUR/USD/2014-05-01?limit=100&offset=${offset}`);
    const after = raw.filter((f) => MAY1 + Number(f[0]) > offset).slice(0, 100);
    assert.deepEqual(
      second.body.ticks.map((k: { t: number }) => k.t),
      after.map((f) => MAY1 + Number(f[0])),
    );
    const capped = await getJson(server, '/v1/historic/forex/EUR/USD/2014-05-01?limit=999999');
    assert.equal(capped.body.ticks.length, 10_000, 'limit clamped to 10000');
  });

  test('crypto: open/close of a UTC day, no last trade without trades, historic trades', async (t) => {
    const server = await fixtureServer(t, { now: Date.UTC(2018, 3, 4, 12) });
    if (!server) return;
    // The day has minute bars, which make its day bar.
    const all = leanRows('crypto/coinbase/minute/btcusd/20180404_trade.zip');
    const oc = await getJson(server, '/v1/open-close/crypto/BTC/USD/2018-04-04');
    assert.equal(oc.status, 200);
    assert.deepEqual(
      [oc.body.symbol, oc.body.isUTC, oc.body.day, oc.body.open, oc.body.close],
      ['BTC-USD', true, '2018-04-04T00:00:00.000Z', Number(all[0]?.[1]), Number(all[all.length - 1]?.[4])],
    );
    assert.ok(Array.isArray(oc.body.openTrades) && Array.isArray(oc.body.closingTrades));
    assert.equal((await getJson(server, '/v1/open-close/crypto/BTC/USD/2010-01-01')).status, 404);

    // No trade ticks are stored for BTC-USD: a bar's close is no trade, so there is no last trade.
    const last = await getJson(server, '/v1/last/crypto/BTC/USD');
    assert.equal(last.status, 404);
    assert.equal(last.body.status, 'NOT_FOUND');

    const hist = await getJson(server, '/v1/historic/crypto/BTC/USD/2018-04-04');
    assert.deepEqual([hist.body.status, hist.body.type, hist.body.symbol], ['success', 'crypto', 'BTC-USD']);
    assert.deepEqual(hist.body.ticks, []);
    assert.equal((await getJson(server, '/v1/historic/crypto/BTC/USD/2018-4-4')).status, 400);
  });
});
