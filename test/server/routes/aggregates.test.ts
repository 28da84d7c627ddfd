import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { marketDataDir } from '../../support/shared.js';
import { fixtureServer, getJson, leanRows } from '../app-fixture.js';

/** 2013-10-07 is in EDT: New York midnight is 04:00 UTC. */
const EDT = 4 * 3_600_000;
const SPY_TICKS = 'equity/usa/tick/spy/20131007_trade.zip';

const near = (actual: number, expected: number, rel = 1e-9, what = '') =>
  assert.ok(
    Math.abs(actual - expected) <= rel * Math.max(1, Math.abs(expected)),
    `${what} ${actual} ≉ ${expected}`,
  );

/** Lean daily rows of a ticker by `YYYYMMDD`, prices in dollars. */
function dailyRows(ticker: string): Map<string, { o: number; h: number; l: number; c: number; v: number }> {
  const out = new Map();
  for (const f of leanRows(`equity/usa/daily/${ticker}.zip`)) {
    out.set((f[0] as string).slice(0, 8), {
      o: Number(f[1]) / 10_000,
      h: Number(f[2]) / 10_000,
      l: Number(f[3]) / 10_000,
      c: Number(f[4]) / 10_000,
      v: Number(f[5]),
    });
  }
  return out;
}

/** OHLCV, VWAP and count of SPY ticks of 2013-10-07 with ms-of-day in [from, to). */
function tickBar(from: number, to: number) {
  const rows = leanRows(SPY_TICKS).filter((f) => Number(f[0]) >= from && Number(f[0]) < to);
  const prices = rows.map((f) => Number(f[1]) / 10_000);
  const sizes = rows.map((f) => Number(f[2]));
  const v = sizes.reduce((a, b) => a + b, 0);
  return {
    o: prices[0] as number,
    c: prices[prices.length - 1] as number,
    h: Math.max(...prices),
    l: Math.min(...prices),
    v,
    vw: prices.reduce((a, p, i) => a + p * (sizes[i] as number), 0) / v,
    n: rows.length,
  };
}

describe('aggregates over loopback HTTP against ingested Lean data', () => {
  test('a 5-minute SPY bar equals OHLCV, VWAP and count recomputed from the tick file', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const { status, body } = await getJson(
      server,
      '/v2/aggs/ticker/SPY/range/5/minute/2013-10-07/2013-10-07?limit=50000',
    );
    assert.equal(status, 200);
    assert.equal(body.ticker, 'SPY');
    assert.equal(body.status, 'OK');
    assert.match(body.request_id, /^[0-9a-f]{32}$/);
    assert.equal(body.resultsCount, body.results.length);
    assert.equal(body.count, body.results.length);
    const start = Date.UTC(2013, 9, 7, 10, 0) + EDT;
    const bar = body.results.find((b: { t: number }) => b.t === start);
    assert.ok(bar, 'the 10:00 ET bar is present');
    const want = tickBar(10 * 3_600_000, 10 * 3_600_000 + 300_000);
    assert.equal(bar.o, want.o);
    assert.equal(bar.c, want.c);
    assert.equal(bar.h, want.h);
    assert.equal(bar.l, want.l);
    assert.equal(bar.v, want.v);
    assert.equal(bar.n, want.n);
    assert.ok(Math.abs(bar.vw - want.vw) <= 0.00005, `vw ${bar.vw} is ${want.vw} to 4 decimals`);
    // Windows are 5 minutes apart, on the clock.
    for (const b of body.results) assert.equal((b.t - EDT) % 300_000, 0);
  });

  test('a daily SPY bar equals the row of Lean’s daily file, stamped at midnight New York', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const { body } = await getJson(server, '/v2/aggs/ticker/SPY/range/1/day/2013-10-01/2013-10-01');
    const want = dailyRows('spy').get('20131001');
    assert.ok(want);
    assert.equal(body.resultsCount, 1);
    const bar = body.results[0];
    assert.equal(bar.t, Date.UTC(2013, 9, 1) + EDT);
    assert.deepEqual([bar.o, bar.h, bar.l, bar.c, bar.v], [want.o, want.h, want.l, want.c, want.v]);
    assert.equal(body.adjusted, true);
  });

  test('a weekly bar starts on Sunday and combines the daily rows of that week', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const { body } = await getJson(server, '/v2/aggs/ticker/SPY/range/1/week/2013-09-24/2013-09-24');
    const days = dailyRows('spy');
    const week = ['20130923', '20130924', '20130925', '20130926', '20130927'].map((d) => days.get(d));
    assert.equal(body.resultsCount, 1);
    const bar = body.results[0];
    assert.equal(bar.t, Date.UTC(2013, 8, 22) + EDT, 'Sunday 2013-09-22 00:00 New York');
    assert.equal(bar.o, week[0]?.o);
    assert.equal(bar.c, week[4]?.c);
    assert.equal(bar.h, Math.max(...week.map((d) => d?.h as number)));
    assert.equal(bar.l, Math.min(...week.map((d) => d?.l as number)));
    assert.equal(
      bar.v,
      week.reduce((a, d) => a + (d?.v as number), 0),
    );
  });

  test('adjusted=true divides AAPL prices by the split factor of Lean’s factor file; false returns raw', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const raw = dailyRows('aapl').get('20140606');
    assert.ok(raw);
    // Lean: split-adjusted price = raw × SplitFactor of the first factor row dated on or after the day.
    const factorRow = leanRows('equity/usa/factor_files/aapl.csv').find(
      (f) => (f[0] as string) >= '20140606',
    );
    const splitFactor = Number(factorRow?.[2]);
    const adj = await getJson(server, '/v2/aggs/ticker/AAPL/range/1/day/2014-06-06/2014-06-06?adjusted=true');
    const unadj = await getJson(
      server,
      '/v2/aggs/ticker/AAPL/range/1/day/2014-06-06/2014-06-06?adjusted=false',
    );
    assert.equal(unadj.body.adjusted, false);
    // The day has minute bars: its close is the regular session's, the vendor's close too.
    assert.equal(unadj.body.results[0].c, raw.c);
    near(adj.body.results[0].c, raw.c * splitFactor, 1e-5, 'adjusted close');
    near(adj.body.results[0].v, unadj.body.results[0].v / splitFactor, 1e-5, 'adjusted volume');
    // After the last split nothing changes.
    const late = dailyRows('aapl').get('20210331');
    const lateBar = await getJson(server, '/v2/aggs/ticker/AAPL/range/1/day/2021-03-31/2021-03-31');
    assert.equal(lateBar.body.results[0].c, late?.c);
  });

  test('crypto hour bars are built from minute bars on UTC hours; crypto days start at UTC midnight', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const minutes = leanRows('crypto/coinbase/minute/btcusd/20180404_trade.zip').filter(
      (f) => Number(f[0]) < 3_600_000,
    );
    const { body } = await getJson(server, '/v2/aggs/ticker/X:BTCUSD/range/1/hour/2018-04-04/2018-04-04');
    const bar = body.results[0];
    assert.equal(bar.t, Date.UTC(2018, 3, 4, 0));
    assert.equal(bar.o, Number(minutes[0]?.[1]));
    assert.equal(bar.c, Number(minutes[minutes.length - 1]?.[4]));
    assert.equal(bar.h, Math.max(...minutes.map((f) => Number(f[2]))));
    assert.equal(bar.l, Math.min(...minutes.map((f) => Number(f[3]))));
    near(
      bar.v,
      minutes.reduce((a, f) => a + Number(f[5]), 0),
      1e-12,
      'volume',
    );
    const encoded = await getJson(server, '/v2/aggs/ticker/X%3ABTCUSD/range/1/hour/2018-04-04/2018-04-04');
    assert.deepEqual(encoded.body.results, body.results);
    // The day has minute bars, which make its daily bar (the finest data of a day makes all of it).
    const day = await getJson(server, '/v2/aggs/ticker/X:BTCUSD/range/1/day/2018-04-04/2018-04-04');
    const all = leanRows('crypto/coinbase/minute/btcusd/20180404_trade.zip');
    assert.equal(day.body.results[0].t, Date.UTC(2018, 3, 4));
    assert.equal(day.body.results[0].o, Number(all[0]?.[1]));
    assert.equal(day.body.results[0].c, Number(all[all.length - 1]?.[4]));
  });

  // The service's daily bar follows the consolidated tape's rules: extended-hours trades (form T)
  // update the day's volume but not its open, high, low or close; every trade counts in vw and n.
  test('a stock day bar takes o/h/l/c from the regular session and v, vw, n from the whole day, whatever the source', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const day = async (date: string) =>
      (await getJson(server, `/v2/aggs/ticker/SPY/range/1/day/${date}/${date}?adjusted=false`)).body
        .results[0];
    const REGULAR = [9.5 * 3_600_000, 16 * 3_600_000];
    // 2013-10-07: trade ticks (and minute bars, and a vendor daily row).
    const ticks = leanRows(SPY_TICKS).map((f) => ({
      ms: Number(f[0]),
      p: Number(f[1]) / 10_000,
      s: Number(f[2]),
    }));
    const session = ticks.filter((x) => x.ms >= (REGULAR[0] as number) && x.ms < (REGULAR[1] as number));
    const v = ticks.reduce((a, x) => a + x.s, 0);
    const fromTicks = await day('2013-10-07');
    assert.deepEqual(
      [fromTicks.o, fromTicks.h, fromTicks.l, fromTicks.c],
      [
        session[0]?.p,
        session.reduce((a, x) => Math.max(a, x.p), -Infinity),
        session.reduce((a, x) => Math.min(a, x.p), Infinity),
        session[session.length - 1]?.p,
      ],
    );
    assert.equal(fromTicks.v, v);
    assert.equal(fromTicks.n, ticks.length);
    near(fromTicks.vw, ticks.reduce((a, x) => a + x.p * x.s, 0) / v, 1e-6, 'vw of every tick');
    // 2013-10-04: minute bars (and a vendor daily row), no ticks.
    const minutes = leanRows('equity/usa/minute/spy/20131004_trade.zip').map((f) => ({
      ms: Number(f[0]),
      o: Number(f[1]) / 10_000,
      h: Number(f[2]) / 10_000,
      l: Number(f[3]) / 10_000,
      c: Number(f[4]) / 10_000,
      v: Number(f[5]),
    }));
    const regular = minutes.filter((m) => m.ms >= (REGULAR[0] as number) && m.ms < (REGULAR[1] as number));
    const fromMinutes = await day('2013-10-04');
    assert.deepEqual(
      [fromMinutes.o, fromMinutes.h, fromMinutes.l, fromMinutes.c, fromMinutes.v],
      [
        regular[0]?.o,
        Math.max(...regular.map((m) => m.h)),
        Math.min(...regular.map((m) => m.l)),
        regular[regular.length - 1]?.c,
        minutes.reduce((a, m) => a + m.v, 0),
      ],
    );
    assert.ok(minutes.length > regular.length, 'the day has extended-hours minutes');
    assert.equal(fromMinutes.n, undefined, 'minute bars carry no trade count');
    near(
      fromMinutes.vw,
      minutes.reduce((a, m) => a + ((m.h + m.l + m.c) / 3) * m.v, 0) / minutes.reduce((a, m) => a + m.v, 0),
      1e-6,
      'vw of the minutes',
    );
    // 2013-10-01: only the vendor's daily row, which is all the day has.
    const row = dailyRows('spy').get('20131001');
    const fromRow = await day('2013-10-01');
    assert.deepEqual(
      [fromRow.o, fromRow.h, fromRow.l, fromRow.c, fromRow.v],
      [row?.o, row?.h, row?.l, row?.c, row?.v],
    );
    assert.equal(fromRow.n, undefined);
  });

  test('limit counts base bars; next_url pages (absolute, with ?) join up to the unpaged result', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const whole = await getJson(server, '/v2/aggs/ticker/SPY/range/1/day/2013-09-01/2013-10-31?limit=50000');
    assert.ok(whole.body.resultsCount > 30);
    assert.equal(whole.body.next_url, undefined);
    const paged: unknown[] = [];
    let next: string | undefined = '/v2/aggs/ticker/SPY/range/1/day/2013-09-01/2013-10-31?limit=7';
    let pages = 0;
    while (next) {
      const { status, body } = await getJson(server, next);
      assert.equal(status, 200);
      assert.ok(body.results.length <= 7);
      paged.push(...body.results);
      pages++;
      if (body.next_url) {
        assert.ok(body.next_url.startsWith(`${server.url}/v2/aggs/ticker/SPY/range/1/day/`));
        assert.ok(body.next_url.includes('?cursor='));
        assert.ok(!body.next_url.includes('apiKey'));
        const from = Number(body.next_url.split('/')[10]);
        assert.ok(from > body.results[body.results.length - 1].t, 'the next page starts after this one');
        next = body.next_url.slice(server.url.length);
      } else next = undefined;
    }
    assert.equal(pages, Math.ceil(whole.body.resultsCount / 7));
    assert.deepEqual(paged, whole.body.results);

    const desc = await getJson(
      server,
      '/v2/aggs/ticker/SPY/range/1/day/2013-09-01/2013-10-31?sort=desc&limit=50000',
    );
    assert.deepEqual(desc.body.results, [...whole.body.results].reverse());
  });

  test('descending pages walk backwards: next_url moves the end of the range', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const whole = await getJson(server, '/v2/aggs/ticker/SPY/range/1/day/2013-09-01/2013-10-31?limit=50000');
    const paged: unknown[] = [];
    let next: string | undefined = '/v2/aggs/ticker/SPY/range/1/day/2013-09-01/2013-10-31?limit=6&sort=desc';
    while (next) {
      const { body } = await getJson(server, next);
      paged.push(...body.results);
      if (body.next_url) {
        assert.match(body.next_url, /\/range\/1\/day\/2013-09-01\/\d+\?cursor=/);
        next = body.next_url.slice(server.url.length);
      } else next = undefined;
    }
    assert.deepEqual(paged, [...whole.body.results].reverse());
  });

  test('a window cut by the limit is dropped and the next page starts with it', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    // 2 days per window; 3 base days fit the first window and one day of the second.
    const { body } = await getJson(server, '/v2/aggs/ticker/SPY/range/2/day/2013-10-01/2013-10-10?limit=3');
    assert.equal(body.resultsCount, 1);
    assert.equal(body.queryCount, 2);
    assert.match(body.next_url, /\/range\/2\/day\/\d+\/2013-10-10\?cursor=/);
  });

  test('grouped daily, previous close and open/close use the session bars', async (t) => {
    const server = await fixtureServer(t, { now: '2013-10-08' });
    if (!server) return;
    // The day bar of 2013-10-07 (its definition is tested above against the tick file).
    const want = (await getJson(server, '/v2/aggs/ticker/SPY/range/1/day/2013-10-07/2013-10-07')).body
      .results[0];
    assert.ok(want);
    const sessionEnd = Date.UTC(2013, 9, 7, 16) + EDT;

    const grouped = await getJson(server, '/v2/aggs/grouped/locale/us/market/stocks/2013-10-07');
    assert.equal(grouped.status, 200);
    const tickers = grouped.body.results.map((r: { T: string }) => r.T);
    assert.ok(
      ['AAPL', 'IBM', 'SPY'].every((x) => tickers.includes(x)),
      String(tickers),
    );
    assert.ok(!tickers.some((x: string) => x.includes(':')));
    const spy = grouped.body.results.find((r: { T: string }) => r.T === 'SPY');
    assert.deepEqual(
      [spy.o, spy.h, spy.l, spy.c, spy.v, spy.t],
      [want.o, want.h, want.l, want.c, want.v, sessionEnd],
    );
    assert.equal(grouped.body.ticker, undefined);

    const prev = await getJson(server, '/v2/aggs/ticker/SPY/prev');
    assert.equal(prev.body.resultsCount, 1);
    const p = prev.body.results[0];
    assert.deepEqual([p.T, p.o, p.c, p.v, p.t], ['SPY', want.o, want.c, want.v, sessionEnd]);

    const oc = await getJson(server, '/v1/open-close/SPY/2013-10-07');
    assert.equal(oc.status, 200);
    assert.deepEqual(
      [
        oc.body.status,
        oc.body.from,
        oc.body.symbol,
        oc.body.open,
        oc.body.high,
        oc.body.low,
        oc.body.close,
        oc.body.volume,
      ],
      ['OK', '2013-10-07', 'SPY', want.o, want.h, want.l, want.c, want.v],
    );
    const ticks = leanRows(SPY_TICKS);
    const pre = ticks.filter((f) => Number(f[0]) >= 4 * 3_600_000 && Number(f[0]) < 9.5 * 3_600_000);
    const post = ticks.filter((f) => Number(f[0]) >= 16 * 3_600_000 && Number(f[0]) < 20 * 3_600_000);
    assert.equal(oc.body.preMarket, Number(pre[0]?.[1]) / 10_000);
    assert.equal(oc.body.afterHours, Number(post[post.length - 1]?.[1]) / 10_000);

    const weekend = await getJson(server, '/v1/open-close/SPY/2013-10-05');
    assert.equal(weekend.status, 404);
    assert.equal(weekend.body.status, 'NOT_FOUND');
    assert.match(weekend.body.request_id, /^[0-9a-f]{32}$/);
  });

  test('index bars carry no volume, vw, count or adjusted flag (VIX from its CSV)', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const csv = readFileSync(`${marketDataDir}datahub-finance-vix/vix-daily.csv`, 'utf8');
    const row = csv
      .split(/\r?\n/)
      .find((l) => l.startsWith('2020-03-16,'))
      ?.split(',');
    if (!row) {
      // The small fixture store holds SPX, not VIX: check the SPX rows instead.
      const spx = leanRows('index/usa/daily/spx.zip')[0] as string[];
      const date = `${spx[0]?.slice(0, 4)}-${spx[0]?.slice(4, 6)}-${spx[0]?.slice(6, 8)}`;
      const { body } = await getJson(server, `/v2/aggs/ticker/I:SPX/range/1/day/${date}/${date}`);
      assert.equal(body.results[0].c, Number(spx[4]));
      return;
    }
    const { body } = await getJson(server, '/v2/aggs/ticker/I:VIX/range/1/day/2020-03-16/2020-03-16');
    assert.equal(body.resultsCount, 1);
    assert.ok(!('adjusted' in body));
    const bar = body.results[0];
    assert.deepEqual(bar, {
      o: Number(row[1]),
      h: Number(row[2]),
      l: Number(row[3]),
      c: Number(row[4]),
      t: Date.UTC(2020, 2, 16, 4),
    });
  });

  test('an option contract’s daily bar is built from its minute bars', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const rows = leanRows(
      'option/usa/minute/spy/20230803_trade_american.zip',
      '20230803_spy_minute_trade_american_call_4300000_20230901.csv',
    );
    const { body } = await getJson(
      server,
      '/v2/aggs/ticker/O:SPY230901C00430000/range/1/day/2023-08-03/2023-08-03',
    );
    assert.equal(body.resultsCount, 1);
    const bar = body.results[0];
    assert.equal(bar.t, Date.UTC(2023, 7, 3, 4));
    assert.equal(bar.o, Number(rows[0]?.[1]) / 10_000);
    assert.equal(bar.c, Number(rows[rows.length - 1]?.[4]) / 10_000);
    assert.equal(bar.h, Math.max(...rows.map((f) => Number(f[2]) / 10_000)));
    assert.equal(
      bar.v,
      rows.reduce((a, f) => a + Number(f[5]), 0),
    );
    const oc = await getJson(server, '/v1/open-close/O:SPY230901C00430000/2023-08-03');
    assert.equal(oc.body.open, bar.o);
    assert.equal(oc.body.close, bar.c);
  });

  test('grouped daily of forex and crypto: UTC sessions, stamped as the service stamps them', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const fx = await getJson(server, '/v2/aggs/grouped/locale/global/market/fx/2014-05-01');
    const row = fx.body.results.find((r: { T: string }) => r.T === 'C:EURUSD');
    // Forex bars are the bid/ask midpoint.
    // Forex bars are the bid/ask midpoint; the day has minute quote bars, which make its daily bar.
    const minutes = leanRows('forex/oanda/minute/eurusd/20140501_quote.zip');
    const first = minutes[0] as string[];
    const last = minutes[minutes.length - 1] as string[];
    near(row.o, (Number(first[1]) + Number(first[6])) / 2, 1e-12, 'mid open');
    near(row.c, (Number(last[4]) + Number(last[9])) / 2, 1e-12, 'mid close');
    assert.equal(row.t, Date.UTC(2014, 4, 1, 23, 59, 59, 999), 'the last millisecond of the UTC day');
    // A day with only the daily file's row.
    const quiet = (await getJson(server, '/v2/aggs/grouped/locale/global/market/fx/2014-04-01')).body.results;
    const q = quiet.find((r: { T: string }) => r.T === 'C:EURUSD');
    const qRow = leanRows('forex/oanda/daily/eurusd.zip').find((f) =>
      f[0]?.startsWith('20140401'),
    ) as string[];
    near(q.o, (Number(qRow[1]) + Number(qRow[6])) / 2, 1e-12, 'mid open of the daily row');
    assert.equal(q.t, Date.UTC(2014, 3, 1, 23, 59, 59, 999));
    assert.ok(fx.body.results.every((r: { T: string }) => r.T.startsWith('C:')));

    // Crypto: the service stamps each pair's grouped row with the minute of its last trade of the day.
    const btc = leanRows('crypto/coinbase/minute/btcusd/20180404_trade.zip');
    const lastMinute = btc[btc.length - 1] as string[];
    const crypto = await getJson(server, '/v2/aggs/grouped/locale/global/market/crypto/2018-04-04');
    const x = crypto.body.results.find((r: { T: string }) => r.T === 'X:BTCUSD');
    assert.deepEqual([x.o, x.c], [Number(btc[0]?.[1]), Number(lastMinute[4])]);
    assert.equal(x.t, Date.UTC(2018, 3, 4) + Number(lastMinute[0]));

    // Previous close: forex at the day's last millisecond, crypto at the end of its day.
    const later = await fixtureServer(t, { now: '2018-04-05T12:00:00Z' });
    if (!later) return;
    const fxPrev = (await getJson(later, '/v2/aggs/ticker/C:EURUSD/prev')).body.results[0];
    assert.equal(fxPrev.t, Date.UTC(2018, 3, 4, 23, 59, 59, 999));
    const btcPrev = (await getJson(later, '/v2/aggs/ticker/X:BTCUSD/prev')).body.results[0];
    assert.equal(btcPrev.t, Date.UTC(2018, 3, 5));
    assert.equal(btcPrev.c, Number(lastMinute[4]));
  });

  test('an unknown ticker gets an empty OK result without a results key', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const { status, body } = await getJson(server, '/v2/aggs/ticker/NOPE/range/1/day/2013-10-01/2013-10-09');
    assert.equal(status, 200);
    assert.equal(body.status, 'OK');
    assert.equal(body.resultsCount, 0);
    assert.equal(body.queryCount, 0);
    assert.ok(!('results' in body));
  });

  test('bad requests get the API’s 400 body and the server keeps serving', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    for (const path of [
      '/v2/aggs/ticker/SPY/range/1/day/2013-13-01/2013-10-09',
      '/v2/aggs/ticker/SPY/range/1/fortnight/2013-10-01/2013-10-09',
      '/v2/aggs/ticker/SPY/range/0/day/2013-10-01/2013-10-09',
      '/v2/aggs/ticker/SPY/range/1/day/2013-10-09/2013-10-01',
      '/v2/aggs/ticker/SPY/range/1/day/2013-10-01/2013-10-09?cursor=%25%25%25',
      '/v2/aggs/ticker/SPY/range/1/day/2013-10-01/2013-10-09?limit=abc',
      '/v2/aggs/ticker/SPY/range/1/day/2013-10-01/2013-10-09?sort=sideways',
    ]) {
      const { status, body } = await getJson(server, path);
      assert.equal(status, 400, path);
      assert.equal(body.status, 'ERROR', path);
      assert.equal(typeof body.error, 'string', path);
      assert.match(body.request_id, /^[0-9a-f]{32}$/);
    }
    const ok = await getJson(server, '/v2/aggs/ticker/SPY/range/1/day/2013-10-01/2013-10-09?limit=999999');
    assert.equal(ok.status, 200, 'a limit above the maximum is clamped, not refused');
  });
});
