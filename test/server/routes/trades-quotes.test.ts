import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJson } from '../../../src/core/json.js';
import type { RunningServer } from '../../../src/server/index.js';
import { fixtureServer, getJson, leanRows } from '../app-fixture.js';

/** 2013-10-07 00:00 New York (EDT) in Unix ms. */
const MIDNIGHT = Date.UTC(2013, 9, 7, 4);
const ns = (msOfDay: number) => BigInt(MIDNIGHT + msOfDay) * 1_000_000n;

/** GET with exact big integers (ns timestamps) kept as bigint. */
async function getExact(server: RunningServer, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}${path.includes('?') ? '&' : '?'}apiKey=k`);
  return { status: res.status, body: parseJson(await res.text()) };
}

const spyTicks = () => leanRows('equity/usa/tick/spy/20131007_trade.zip');

describe('trades and quotes v3', () => {
  test('walking next_url through a 5-minute window returns every tick once, in order, with exact ns', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const from = 10 * 3_600_000;
    const to = from + 300_000;
    const raw = spyTicks().filter((f) => Number(f[0]) >= from && Number(f[0]) < to);
    const got: any[] = [];
    let next: string | undefined =
      `/v3/trades/SPY?timestamp.gte=${ns(from)}&timestamp.lt=${ns(to)}&order=asc&limit=700`;
    let pages = 0;
    while (next) {
      const { status, body } = await getExact(server, next);
      assert.equal(status, 200);
      assert.equal(body.status, 'OK');
      assert.ok(body.results.length <= 700);
      got.push(...body.results);
      pages++;
      next = body.next_url ? (body.next_url as string).slice(server.url.length) : undefined;
    }
    assert.equal(pages, Math.ceil(raw.length / 700));
    assert.equal(got.length, raw.length);
    got.forEach((r, i) => {
      const f = raw[i] as string[];
      assert.equal(r.price, Number(f[1]) / 10_000);
      assert.equal(r.size, Number(f[2]));
      assert.equal(r.sip_timestamp, ns(Number(f[0])), 'exact nanoseconds');
      assert.equal(typeof r.id, 'string');
    });
  });

  test('newest first by default; date filters select New York days', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const raw = spyTicks();
    const last = raw[raw.length - 1] as string[];
    const { body } = await getExact(server, '/v3/trades/SPY?timestamp=2013-10-07&limit=3');
    assert.equal(body.results.length, 3);
    assert.equal(body.results[0].sip_timestamp, ns(Number(last[0])));
    assert.equal(body.results[0].price, Number(last[1]) / 10_000);
    assert.ok(body.next_url.includes('?cursor='));
    for (const q of ['timestamp.lt=2013-10-07', 'timestamp.gte=2013-10-12', 'timestamp=2013-10-06']) {
      const none = await getExact(server, `/v3/trades/SPY?${q}`);
      assert.deepEqual(none.body.results, [], q);
      assert.equal(none.body.next_url, undefined);
    }
    const gt = await getExact(
      server,
      `/v3/trades/SPY?timestamp.gt=${ns(Number(raw[0]?.[0]))}&order=asc&limit=1`,
    );
    const firstAfter = raw.find((f) => Number(f[0]) > Number(raw[0]?.[0])) as string[];
    assert.equal(gt.body.results[0].sip_timestamp, ns(Number(firstAfter[0])));
  });

  test('the same page asked twice is the same page (the server caches query results)', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    for (const path of [
      '/v3/trades/SPY?timestamp=2013-10-07&limit=5',
      '/v2/aggs/ticker/SPY/range/1/minute/2013-10-07/2013-10-07?limit=7',
      '/v1/open-close/crypto/BTC/USD/2018-04-04',
    ]) {
      const a = await getExact(server, path);
      const b = await getExact(server, path);
      if (a.body.request_id !== undefined) assert.notEqual(a.body.request_id, b.body.request_id);
      delete a.body.request_id;
      delete b.body.request_id;
      assert.deepEqual(b.body, a.body, path);
    }
  });

  test('NBBO quotes pair the bid-only and ask-only rows of the vendor file', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const rows = leanRows('equity/usa/tick/ibm/20131007_quote.zip');
    // From 10:00 on, each update is a bid row then an ask row with the same time.
    const start = rows.findIndex((f) => Number(f[0]) >= 36_000_000 && Number(f[1]) > 0);
    const pairs: { t: number; bid: number; ask: number; bidSize: number; askSize: number }[] = [];
    for (let i = start; pairs.length < 50; i += 2) {
      const b = rows[i] as string[];
      const a = rows[i + 1] as string[];
      assert.equal(b[0], a[0]);
      pairs.push({
        t: Number(b[0]),
        bid: Number(b[1]) / 1e4,
        bidSize: Number(b[2]),
        ask: Number(a[3]) / 1e4,
        askSize: Number(a[4]),
      });
    }
    const { body } = await getExact(
      server,
      `/v3/quotes/IBM?timestamp.gte=${ns(pairs[0]?.t as number)}&order=asc&limit=50`,
    );
    assert.deepEqual(
      body.results.map((q: any) => [q.sip_timestamp, q.bid_price, q.bid_size, q.ask_price, q.ask_size]),
      pairs.map((p) => [ns(p.t), p.bid, p.bidSize, p.ask, p.askSize]),
    );
  });

  test('forex quotes carry prices, the forex exchange id and one timestamp', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const raw = leanRows('forex/oanda/tick/eurusd/20140501_quote.zip');
    const { body } = await getExact(server, '/v3/quotes/C:EURUSD?order=asc&limit=3&timestamp=2014-05-01');
    body.results.forEach((q: any, i: number) => {
      const f = raw[i] as string[];
      assert.equal(q.bid_price, Number(f[1]));
      assert.equal(q.ask_price, Number(f[2]));
      assert.equal(q.participant_timestamp, BigInt(Date.UTC(2014, 4, 1) + Number(f[0])) * 1_000_000n);
      assert.equal(q.sip_timestamp, undefined);
      // Oanda names no venue: the service's forex exchange id, as on the other forex routes.
      assert.equal(q.ask_exchange, 48);
      assert.equal(q.bid_exchange, 48);
    });
  });

  test('bad filters are 400', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    for (const q of [
      'timestamp.gte=soon',
      'order=sideways',
      'limit=0',
      'sort=price',
      'timestamp=2013-02-30',
    ]) {
      const { status, body } = await getJson(server, `/v3/trades/SPY?${q}`);
      assert.equal(status, 400, q);
      assert.equal(body.status, 'ERROR');
    }
  });
});

describe('legacy v2 ticks', () => {
  test('pages by timestamp offset: the next page holds the ticks after the last t', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const raw = spyTicks();
    const first = await getExact(server, '/v2/ticks/stocks/trades/SPY/2013-10-07?limit=50');
    assert.equal(first.body.success, true);
    assert.equal(first.body.ticker, 'SPY');
    assert.equal(first.body.results_count, 50);
    assert.equal(typeof first.body.db_latency, 'number');
    assert.equal(first.body.map.p.name, 'price');
    assert.deepEqual(
      first.body.results.map((r: any) => [r.t, r.p, r.s]),
      raw.slice(0, 50).map((f) => [ns(Number(f[0])), Number(f[1]) / 1e4, Number(f[2])]),
    );
    const offset = first.body.results[49].t as bigint;
    const second = await getExact(
      server,
      `/v2/ticks/stocks/trades/SPY/2013-10-07?limit=50&timestamp=${offset}`,
    );
    const after = raw.filter((f) => ns(Number(f[0])) > offset).slice(0, 50);
    assert.deepEqual(
      second.body.results.map((r: any) => [r.t, r.p]),
      after.map((f) => [ns(Number(f[0])), Number(f[1]) / 1e4]),
    );
    const reversed = await getExact(server, '/v2/ticks/stocks/trades/SPY/2013-10-07?limit=1&reverse=true');
    assert.equal(reversed.body.results[0].t, ns(Number(raw[raw.length - 1]?.[0])));
    const limited = await getExact(
      server,
      `/v2/ticks/stocks/trades/SPY/2013-10-07?limit=50000&timestampLimit=${first.body.results[9].t}`,
    );
    assert.ok(limited.body.results.every((r: any) => r.t <= first.body.results[9].t));
  });

  test('nbbo ticks use the short keys of the map', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const { body } = await getExact(server, '/v2/ticks/stocks/nbbo/IBM/2013-10-07?limit=5');
    assert.equal(body.results.length, 5);
    for (const r of body.results) {
      assert.equal(typeof r.t, 'bigint');
      for (const k of Object.keys(r)) assert.ok(k === 'T' || k in body.map, k);
    }
  });
});

describe('the newer option tick endpoints', () => {
  test('/options/v3/trades and /options/v3/quotes list a contract’s ticks by sort, each naming it, through the official client', async (t) => {
    const { tempStore } = await import('../ingest/helpers.js');
    const { ingestFlatFiles } = await import('../../../src/server/ingest/flatfiles.js');
    const { startServer } = await import('../../../src/server/index.js');
    const { restClient } = await import('@massive.com/client-js');
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const temp = await tempStore();
    t.after(() => temp.cleanup());
    const contract = 'O:SPY230901C00430000';
    const start = 1_691_069_400_000_000_000n; // 2023-08-03 09:30 New York
    const trades = [0, 1, 2, 3, 4].map((i) => ({
      t: start + BigInt(i) * 1_000_000_000n,
      price: 20 + i / 10,
      size: i + 1,
    }));
    const quotes = [0, 1, 2].map((i) => ({
      t: start + BigInt(i) * 500_000_000n,
      bid: 19.5 + i / 10,
      ask: 20 + i / 10,
    }));
    const tradesFile = join(temp.dir, 'options_trades.csv');
    writeFileSync(
      tradesFile,
      `ticker,exchange,price,size,sip_timestamp\n${trades.map((r) => `${contract},300,${r.price},${r.size},${r.t}`).join('\n')}\n`,
    );
    const quotesFile = join(temp.dir, 'options_quotes.csv');
    writeFileSync(
      quotesFile,
      `ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,sequence_number,sip_timestamp\n${quotes
        .map((q, i) => `${contract},301,${q.ask},5,302,${q.bid},7,${i + 1},${q.t}`)
        .join('\n')}\n`,
    );
    await ingestFlatFiles(temp.store, [tradesFile, quotesFile]);
    temp.store.close();
    const server = await startServer({ db: join(temp.dir, 'test.duckdb'), port: 0, log: () => {} });
    t.after(() => server.close());
    const api = restClient('k', server.url);

    const first = await api.getOptionsV3TradesTicker({ ticker: contract, limit: 2 });
    const got = [...(first.results ?? [])];
    let next = first.next_url;
    while (next) {
      const page = parseJson(await (await fetch(next)).text()) as { results: typeof got; next_url?: string };
      got.push(...page.results);
      next = page.next_url;
    }
    // Newest first unless `sort` says otherwise; every record names the contract.
    assert.deepEqual(
      got.map((r) => [r.ticker, BigInt(r.sip_timestamp as never), r.price, r.size, r.exchange]),
      [...trades].reverse().map((r) => [contract, r.t, r.price, r.size, 300]),
    );
    const ascending = await api.getOptionsV3TradesTicker({
      ticker: contract,
      sort: 'timestamp.asc',
      limit: 10,
    });
    assert.deepEqual(
      ascending.results?.map((r) => r.price),
      trades.map((r) => r.price),
    );
    const quoted = await api.getOptionsV3QuotesTicker({ ticker: contract, timestampGte: String(start + 1n) });
    assert.deepEqual(
      quoted.results?.map((q) => [q.ticker, q.bid_price, q.ask_price, q.bid_exchange, q.ask_exchange]),
      quotes
        .slice(1)
        .reverse()
        .map((q) => [contract, q.bid, q.ask, 302, 301]),
    );
    const bad = await fetch(`${server.url}/options/v3/trades/${contract}?sort=price.asc`);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { status: string }).status, 'ERROR');
  });
});
