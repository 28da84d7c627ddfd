import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJson } from '../../../src/core/json.js';
import { fixtureServer, getJson, leanRows } from '../app-fixture.js';

/** 2013-10-07 00:00 New York (EDT) in Unix ms. */
const MIDNIGHT = Date.UTC(2013, 9, 7, 4);

describe('last trade and last NBBO as of "now"', () => {
  test('at the end of the day: the file’s last trade and last bid/ask, exact ns', async (t) => {
    const server = await fixtureServer(t, { now: '2013-10-07' });
    if (!server) return;
    const trades = leanRows('equity/usa/tick/ibm/20131007_trade.zip');
    const last = trades[trades.length - 1] as string[];
    const res = await fetch(`${server.url}/v2/last/trade/IBM?apiKey=k`);
    const body = parseJson(await res.text()) as any;
    assert.equal(body.status, 'OK');
    assert.match(body.request_id, /^[0-9a-f]{32}$/);
    assert.equal(body.results.T, 'IBM');
    assert.equal(body.results.p, Number(last[1]) / 1e4);
    assert.equal(body.results.s, Number(last[2]));
    assert.equal(body.results.t, BigInt(MIDNIGHT + Number(last[0])) * 1_000_000n);
    assert.equal(typeof body.results.q, 'number');

    const quotes = leanRows('equity/usa/tick/ibm/20131007_quote.zip');
    const bid = [...quotes].reverse().find((f) => Number(f[1]) > 0) as string[];
    const ask = [...quotes].reverse().find((f) => Number(f[3]) > 0) as string[];
    const nbbo = await getJson(server, '/v2/last/nbbo/IBM');
    assert.equal(nbbo.body.results.p, Number(bid[1]) / 1e4);
    assert.equal(nbbo.body.results.s, Number(bid[2]));
    assert.equal(nbbo.body.results.P, Number(ask[3]) / 1e4);
    assert.equal(nbbo.body.results.S, Number(ask[4]));
  });

  test('with --now at noon New York: the last trade at or before noon', async (t) => {
    const noon = MIDNIGHT + 12 * 3_600_000;
    const server = await fixtureServer(t, { now: noon });
    if (!server) return;
    const trades = leanRows('equity/usa/tick/spy/20131007_trade.zip').filter(
      (f) => Number(f[0]) <= 12 * 3_600_000,
    );
    const last = trades[trades.length - 1] as string[];
    const { body } = await getJson(server, '/v2/last/trade/SPY');
    assert.equal(body.results.p, Number(last[1]) / 1e4);
    assert.equal(body.results.s, Number(last[2]));
  });

  test('a ticker without trades or quotes is 404 NOT_FOUND', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    for (const path of ['/v2/last/trade/NOPE', '/v2/last/nbbo/SPY', '/v2/last/trade/O:SPY231020C00430000']) {
      const { status, body } = await getJson(server, path);
      assert.equal(status, 404, path);
      assert.equal(body.status, 'NOT_FOUND');
      assert.equal(typeof body.message, 'string');
    }
  });
});
