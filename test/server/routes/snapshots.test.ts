import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { restClient } from '@polygon.io/client-js';
import { unzipSync } from 'fflate';
import { zonedToUtc } from '../../../src/dates/time-zone.js';
import { leanDir } from '../../support/shared.js';
import { follow, get, leanRows, responseValidator, snapshotServer } from './snapshot-fixture.js';

const NY = 'America/New_York';
const close = (actual: number, expected: number, what: string, tol = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
const px = (s: string | undefined) => Number(s) / 10_000;

// 2013-10-08 14:30 New York: IBM, BAC and SPY have trade ticks (IBM also quotes), AIG minute bars only.
const NOW = '2013-10-08T14:30:00-04:00';
const NOW_MS = Date.parse(NOW);
const MIDNIGHT = zonedToUtc(NY, 2013, 10, 8);
const NOW_OF_DAY = NOW_MS - MIDNIGHT;

/** The daily row of `date` (YYYYMMDD) of a Lean daily equity file: o, h, l, c, v. */
function dailyRow(file: string, date: string) {
  const row = leanRows(file).find((r) => r[0]?.startsWith(date));
  assert.ok(row, `${file} has ${date}`);
  return { o: px(row[1]), h: px(row[2]), l: px(row[3]), c: px(row[4]), v: Number(row[5]) };
}

/** The regular session in ms of the New York day: a stock's day bar takes its prices from it. */
const REGULAR = [9.5 * 3_600_000, 16 * 3_600_000] as const;
const inRegular = (ms: number) => ms >= REGULAR[0] && ms < REGULAR[1];

/**
 * A stock's day bar from trades `{ms, p, s}` of one day, as the server defines it: open, high, low and
 * close of the regular session, volume of the whole day.
 */
function dayOfTrades(trades: readonly { ms: number; p: number; s: number }[]) {
  const regular = trades.filter((t) => inRegular(t.ms));
  return {
    o: (regular[0] as { p: number }).p,
    h: regular.reduce((a, t) => Math.max(a, t.p), -Infinity),
    l: regular.reduce((a, t) => Math.min(a, t.p), Infinity),
    c: (regular.at(-1) as { p: number }).p,
    v: trades.reduce((a, t) => a + t.s, 0),
  };
}

/** The trades of a Lean tick file: ms of the day, price, size. */
const tradesOf = (file: string) =>
  leanRows(file).map((r) => ({ ms: Number(r[0]), p: px(r[1]), s: Number(r[2]) }));

/**
 * The close of a stock's day bar (`YYYYMMDD`): the last regular-session trade of its tick file, else
 * the close of its last regular-session minute bar, else its daily row's close.
 */
function dayClose(sym: string, date: string): number {
  const ticks = `equity/usa/tick/${sym}/${date}_trade.zip`;
  if (existsSync(`${leanDir}${ticks}`)) {
    let c = Number.NaN;
    eachRowUpTo(ticks, REGULAR[1] - 1, (f) => {
      if (inRegular(Number(f[0]))) c = px(f[1]);
    });
    return c;
  }
  const minutes = `equity/usa/minute/${sym}/${date}_trade.zip`;
  if (existsSync(`${leanDir}${minutes}`)) {
    return px(
      leanRows(minutes)
        .filter((r) => inRegular(Number(r[0])))
        .at(-1)?.[4],
    );
  }
  return dailyRow(`equity/usa/daily/${sym}.zip`, date).c;
}

/** The IBM session up to now, computed from the raw trade ticks (complete minutes only). */
/**
 * Calls `fn` with the fields of each row of a tick file stamped at or before `cut` (ms of the day), in
 * file order: a line scan that stops at `cut`, as tick files hold hundreds of thousands of rows a day.
 */
function eachRowUpTo(file: string, cut: number, fn: (fields: string[]) => void): void {
  const [bytes] = Object.values(unzipSync(readFileSync(`${leanDir}${file}`)));
  const text = new TextDecoder().decode(bytes);
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end).trim();
    at = end < 0 ? text.length : end + 1;
    if (line === '') continue;
    const f = line.split(',');
    if (Number(f[0]) > cut) break;
    fn(f);
  }
}

let ibmCache: ReturnType<typeof computeIbmExpected> | undefined;
function ibmExpected() {
  ibmCache ??= computeIbmExpected();
  return ibmCache;
}

function computeIbmExpected() {
  const trades = leanRows('equity/usa/tick/ibm/20131008_trade.zip').map((r) => ({
    ms: Number(r[0]),
    p: px(r[1]),
    s: Number(r[2]),
  }));
  const inDay = trades.filter((t) => t.ms < NOW_OF_DAY);
  const lastMinute = inDay.filter((t) => t.ms >= NOW_OF_DAY - 60_000);
  const last = trades.filter((t) => t.ms <= NOW_OF_DAY).at(-1);
  // NBBO updates are a bid-only row followed by an ask-only row with the same time.
  let bid: string[] | undefined;
  let ask: string[] | undefined;
  eachRowUpTo('equity/usa/tick/ibm/20131008_quote.zip', NOW_OF_DAY, (f) => {
    bid = ask;
    ask = f;
  });
  assert.ok(last && ask && bid && ask[0] === bid[0] && Number(ask[1]) === 0 && Number(bid[3]) === 0);
  return {
    day: dayOfTrades(inDay),
    min: {
      o: (lastMinute[0] as { p: number }).p,
      h: Math.max(...lastMinute.map((t) => t.p)),
      l: Math.min(...lastMinute.map((t) => t.p)),
      c: (lastMinute.at(-1) as { p: number }).p,
      v: lastMinute.reduce((s, t) => s + t.s, 0),
      n: lastMinute.length,
      t: NOW_MS - 60_000,
    },
    last,
    quote: { p: px(bid[1]), s: Number(bid[2]), P: px(ask[3]), S: Number(ask[4]), ms: Number(ask[0]) },
    // 2013-10-07 has IBM trade ticks, which make its day bar.
    prev: dayOfTrades(tradesOf('equity/usa/tick/ibm/20131007_trade.zip')),
  };
}

describe('GET /v2/snapshot/locale/us/markets/stocks/tickers/{ticker}', () => {
  it('answers IBM at "now" from the ticks, the minute bars and the previous daily bar', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const { status, body } = await get(server, '/v2/snapshot/locale/us/markets/stocks/tickers/IBM');
    assert.equal(status, 200);
    assert.equal(body.status, 'OK');
    assert.match(body.request_id, /^[0-9a-f]{32}$/);
    const snap = body.ticker;
    const e = ibmExpected();
    assert.equal(snap.ticker, 'IBM');
    for (const k of ['o', 'h', 'l', 'c', 'v'] as const) close(snap.day[k], e.day[k], `day.${k}`);
    for (const k of ['o', 'h', 'l', 'c', 'v', 'n', 't'] as const) close(snap.min[k], e.min[k], `min.${k}`);
    assert.equal(snap.min.av, e.day.v);
    for (const k of ['o', 'h', 'l', 'c', 'v'] as const) close(snap.prevDay[k], e.prev[k], `prevDay.${k}`);
    close(snap.lastTrade.p, e.last?.p ?? Number.NaN, 'lastTrade.p');
    assert.equal(snap.lastTrade.s, e.last?.s);
    // Nanoseconds, exact (the body is read by JSON.parse here, so compare at ms precision).
    close(snap.lastTrade.t / 1e6, MIDNIGHT + (e.last?.ms ?? 0), 'lastTrade.t (ms)', 1);
    close(snap.lastQuote.p, e.quote.p, 'lastQuote.p');
    close(snap.lastQuote.P, e.quote.P, 'lastQuote.P');
    assert.equal(snap.lastQuote.s, e.quote.s);
    assert.equal(snap.lastQuote.S, e.quote.S);
    close(snap.todaysChange, (e.last?.p ?? 0) - e.prev.c, 'todaysChange', 1e-9);
    close(snap.todaysChangePerc, (((e.last?.p ?? 0) - e.prev.c) / e.prev.c) * 100, 'todaysChangePerc', 1e-9);
    assert.ok(snap.updated / 1e6 <= NOW_MS + 1 && snap.updated / 1e6 >= NOW_MS - 60_000);
    assert.deepEqual(
      responseValidator('/v2/snapshot/locale/us/markets/stocks/tickers/{stocksTicker}')(body),
      [],
    );
  });

  it('writes nanosecond timestamps as exact integers', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const res = await fetch(`${server.url}/v2/snapshot/locale/us/markets/stocks/tickers/IBM?apiKey=k`);
    const text = await res.text();
    const e = ibmExpected();
    const ns = (BigInt(MIDNIGHT + (e.last?.ms ?? 0)) * 1_000_000n).toString();
    assert.match(text, new RegExp(`"lastTrade":\\{[^}]*"t":${ns}[,}]`));
  });

  it("shows Friday's session on a Saturday, and zeros with the previous day before any trading", async (t) => {
    const saturday = await snapshotServer(t, '2013-10-12T12:00:00-04:00');
    if (!saturday) return;
    const fri = (await get(saturday, '/v2/snapshot/locale/us/markets/stocks/tickers/IBM')).body.ticker;
    const { volume } = ticksUpTo('equity/usa/tick/ibm/20131011_trade.zip', 86_400_000);
    close(fri.day.c, dayClose('ibm', '20131011'), 'Friday close');
    assert.equal(fri.day.v, volume);
    close(fri.prevDay.c, dayClose('ibm', '20131010'), 'Thursday close');

    const early = await snapshotServer(t, '2013-10-08T03:00:00-04:00');
    if (!early) return;
    const pre = (await get(early, '/v2/snapshot/locale/us/markets/stocks/tickers/IBM')).body.ticker;
    assert.deepEqual(pre.day, { o: 0, h: 0, l: 0, c: 0, v: 0, vw: 0 });
    assert.equal(pre.todaysChange, 0);
    close(pre.prevDay.c, dayClose('ibm', '20131007'), 'previous close');
  });

  it('takes the daily bar for a stock without intraday data once the session has closed', async (t) => {
    const server = await snapshotServer(t, '2013-10-08T17:00:00-04:00');
    if (!server) return;
    const snap = (await get(server, '/v2/snapshot/locale/us/markets/stocks/tickers/QQQ')).body.ticker;
    const day = dailyRow('equity/usa/daily/qqq.zip', '20131008');
    const prev = dailyRow('equity/usa/daily/qqq.zip', '20131007');
    for (const k of ['o', 'h', 'l', 'c', 'v'] as const) close(snap.day[k], day[k], `day.${k}`);
    close(snap.prevDay.c, prev.c, 'prevDay.c');
    close(snap.todaysChange, day.c - prev.c, 'todaysChange');
  });

  it('answers an unknown ticker 404 NOT_FOUND and keeps serving', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const res = await get(server, '/v2/snapshot/locale/us/markets/stocks/tickers/NOPE');
    assert.equal(res.status, 404);
    assert.equal(res.body.status, 'NOT_FOUND');
    assert.equal(res.body.message, 'Ticker not found.');
    assert.equal((await get(server, '/v2/snapshot/locale/us/markets/stocks/tickers/IBM')).status, 200);
  });
});

describe('GET /v2/snapshot/locale/us/markets/stocks/tickers', () => {
  it('takes tickers as a comma list and as repeated keys, leaving out unknown ones', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const { status, body } = await get(
      server,
      '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=IBM,BAC&tickers=AIG&tickers=NOPE',
    );
    assert.equal(status, 200);
    assert.equal(body.status, 'OK');
    assert.deepEqual(body.tickers.map((s: { ticker: string }) => s.ticker).sort(), ['AIG', 'BAC', 'IBM']);
    assert.equal(body.count, 3);
    // AIG has no ticks: its minute is the 14:29 bar of the raw minute file.
    const aig = body.tickers.find((s: { ticker: string }) => s.ticker === 'AIG');
    const minute = leanRows('equity/usa/minute/aig/20131008_trade.zip').find(
      (r) => Number(r[0]) === NOW_OF_DAY - 60_000,
    );
    assert.ok(minute);
    close(aig.min.c, px(minute[4]), 'AIG min.c');
    assert.equal(aig.min.v, Number(minute[5]));
    assert.equal(aig.lastTrade, undefined);
    assert.deepEqual(responseValidator('/v2/snapshot/locale/us/markets/stocks/tickers')(body), []);
  });

  it('is what the official JS client (v8) reads', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    const rest = restClient('test-key', server.url);
    const one = (await rest.getStocksSnapshotTicker('IBM')) as any;
    assert.equal(one.ticker.ticker, 'IBM');
    const many = (await rest.getStocksSnapshotTickers(['IBM', 'BAC'])) as any;
    assert.deepEqual(many.tickers.map((s: { ticker: string }) => s.ticker).sort(), ['BAC', 'IBM']);
    const movers = (await rest.getStocksSnapshotDirection('losers' as any)) as any;
    assert.equal(movers.status, 'OK');
  });
});

/** Last price and summed size of the trade ticks at or before `cut` (ms of the day). */
function ticksUpTo(file: string, cut: number): { price: number; volume: number } {
  let price = Number.NaN;
  let volume = 0;
  eachRowUpTo(file, cut, (f) => {
    price = px(f[1]);
    volume += Number(f[2]);
  });
  return { price, volume };
}

describe('GET /v2/snapshot/locale/us/markets/stocks/{gainers|losers}', () => {
  it('ranks the stocks with a session and 10,000 shares by change against the previous close', async (t) => {
    const server = await snapshotServer(t, NOW);
    if (!server) return;
    // Independent change per stock: the last price (last tick at or before now where the stock has
    // ticks, else the close of the last complete minute bar) against the previous day's close. The
    // other stocks of the store have no bars on 2013-10-08 before the close and do not rank.
    const expected = new Map<string, number>();
    for (const sym of ['ibm', 'bac', 'spy', 'aig']) {
      const prev = { c: dayClose(sym, '20131007') };
      let price: number;
      let volume: number;
      if (existsSync(`${leanDir}equity/usa/tick/${sym}/20131008_trade.zip`)) {
        ({ price, volume } = ticksUpTo(`equity/usa/tick/${sym}/20131008_trade.zip`, NOW_OF_DAY));
      } else {
        const rows = leanRows(`equity/usa/minute/${sym}/20131008_trade.zip`).filter(
          (r) => Number(r[0]) + 60_000 <= NOW_OF_DAY,
        );
        price = px(rows.at(-1)?.[4]);
        volume = rows.reduce((sum, r) => sum + Number(r[5]), 0);
      }
      assert.ok(volume >= 10_000, sym);
      expected.set(sym.toUpperCase(), ((price - prev.c) / prev.c) * 100);
    }
    const [gainers, losers] = (
      await Promise.all([
        get(server, '/v2/snapshot/locale/us/markets/stocks/gainers'),
        get(server, '/v2/snapshot/locale/us/markets/stocks/losers'),
      ])
    ).map((r) => r.body);
    const byPerc = [...expected.entries()];
    const wantGainers = byPerc
      .filter(([, p]) => p > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([k]) => k);
    const wantLosers = byPerc
      .filter(([, p]) => p < 0)
      .sort((a, b) => a[1] - b[1])
      .map(([k]) => k);
    assert.deepEqual(
      gainers.tickers.map((s: { ticker: string }) => s.ticker),
      wantGainers,
    );
    assert.deepEqual(
      losers.tickers.map((s: { ticker: string }) => s.ticker),
      wantLosers,
    );
    for (const s of [...gainers.tickers, ...losers.tickers]) {
      close(s.todaysChangePerc, expected.get(s.ticker) ?? Number.NaN, `${s.ticker} change %`, 1e-9);
    }
    assert.deepEqual(responseValidator('/v2/snapshot/locale/us/markets/stocks/{direction}')(losers), []);
  });
});

describe('v2 crypto and forex snapshots', () => {
  const CRYPTO_NOW = '2018-04-05T12:00:00Z';
  const CRYPTO_MIDNIGHT = Date.parse('2018-04-05T00:00:00Z');
  const cut = Date.parse(CRYPTO_NOW) - CRYPTO_MIDNIGHT;

  it('crypto: day from the minute bars, no last trade without trade ticks, previous day from its minute bars', async (t) => {
    const server = await snapshotServer(t, CRYPTO_NOW);
    if (!server) return;
    const { status, body } = await get(server, '/v2/snapshot/locale/global/markets/crypto/tickers/X:BTCUSD');
    assert.equal(status, 200);
    const rows = leanRows('crypto/coinbase/minute/btcusd/20180405_trade.zip')
      .map((r) => r.map(Number))
      .filter((r) => (r[0] as number) + 60_000 <= cut);
    const snap = body.ticker;
    close(snap.day.o, rows[0]?.[1] as number, 'day.o');
    close(snap.day.h, Math.max(...rows.map((r) => r[2] as number)), 'day.h');
    close(snap.day.l, Math.min(...rows.map((r) => r[3] as number)), 'day.l');
    close(snap.day.c, rows.at(-1)?.[4] as number, 'day.c');
    close(
      snap.day.v,
      rows.reduce((s, r) => s + (r[5] as number), 0),
      'day.v',
      1e-6,
    );
    // The Lean data has no crypto trades: a bar's close is no trade, so the last trade is all zeros.
    assert.deepEqual(snap.lastTrade, { c: [], i: '', p: 0, s: 0, t: 0, x: 0 });
    // 2018-04-04 has minute bars, which make its day bar.
    const prev = leanRows('crypto/coinbase/minute/btcusd/20180404_trade.zip').at(-1);
    close(snap.prevDay.c, Number(prev?.[4]), 'prevDay.c');
    close(snap.todaysChange, (rows.at(-1)?.[4] as number) - Number(prev?.[4]), 'todaysChange', 1e-6);
    assert.equal(snap.updated, CRYPTO_MIDNIGHT + (rows.at(-1)?.[0] as number) + 60_000);
    assert.deepEqual(
      responseValidator('/v2/snapshot/locale/global/markets/crypto/tickers/{ticker}')(body),
      [],
    );
  });

  it('crypto gainers and losers rank every pair by change against its previous close', async (t) => {
    const server = await snapshotServer(t, CRYPTO_NOW);
    if (!server) return;
    // Previous close: the close of the pair's last minute bar of 04-04 (minute bars make that day's bar).
    const expected = new Map<string, number>();
    for (const pair of ['btcusd', 'ethusd', 'ltcusd', 'btceur']) {
      const today = leanRows(`crypto/coinbase/minute/${pair}/20180405_trade.zip`).filter(
        (r) => Number(r[0]) + 60_000 <= cut,
      );
      const prev = Number(leanRows(`crypto/coinbase/minute/${pair}/20180404_trade.zip`).at(-1)?.[4]);
      expected.set(`X:${pair.toUpperCase()}`, ((Number(today.at(-1)?.[4]) - prev) / prev) * 100);
    }
    const gainers = (await get(server, '/v2/snapshot/locale/global/markets/crypto/gainers')).body;
    const losers = (await get(server, '/v2/snapshot/locale/global/markets/crypto/losers')).body;
    const ranked = [...expected.entries()];
    assert.deepEqual(
      gainers.tickers.map((s: { ticker: string }) => s.ticker),
      ranked
        .filter(([, p]) => p > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([k]) => k),
    );
    assert.deepEqual(
      losers.tickers.map((s: { ticker: string }) => s.ticker),
      ranked
        .filter(([, p]) => p < 0)
        .sort((a, b) => a[1] - b[1])
        .map(([k]) => k),
    );
    for (const s of [...gainers.tickers, ...losers.tickers]) {
      close(s.todaysChangePerc, expected.get(s.ticker) ?? Number.NaN, `${s.ticker} change %`, 1e-9);
    }
    // As for the book, the spec's allOf holds a bare {type: string}: only the object part can be checked.
    assert.deepEqual(
      responseValidator('/v2/snapshot/locale/global/markets/crypto/{direction}', { allOfPart: 1 })(gainers),
      [],
    );
  });

  it('crypto book: one level each side from the latest complete quote bar', async (t) => {
    const server = await snapshotServer(t, CRYPTO_NOW);
    if (!server) return;
    const { status, body } = await get(
      server,
      '/v2/snapshot/locale/global/markets/crypto/tickers/X%3ABTCUSD/book',
    );
    assert.equal(status, 200);
    const q = leanRows('crypto/coinbase/minute/btcusd/20180405_quote.zip')
      .map((r) => r.map(Number))
      .filter((r) => (r[0] as number) + 60_000 <= cut)
      .at(-1) as number[];
    assert.deepEqual(body.data.bids, [{ p: q[4], x: { '1': q[5] } }]);
    assert.deepEqual(body.data.asks, [{ p: q[9], x: { '1': q[10] } }]);
    close(body.data.spread, (q[9] as number) - (q[4] as number), 'spread');
    assert.equal(body.data.updated, CRYPTO_MIDNIGHT + (q[0] as number) + 60_000);
    // The spec's schema is an allOf of {type: string} (a misplaced `status`) and the object: no body can
    // satisfy both, so only the object part is checked.
    assert.deepEqual(
      responseValidator('/v2/snapshot/locale/global/markets/crypto/tickers/{ticker}/book', { allOfPart: 1 })(
        body,
      ),
      [],
    );
  });

  it('crypto book: sizes and spread without float noise, at the latest crypto time of the store', async (t) => {
    // 2018-04-06 00:00 UTC: the store's latest crypto bar, whose sizes are sums (2.2616530700000004).
    const server = await snapshotServer(t, 1_522_972_800_000);
    if (!server) return;
    const { status, body } = await get(
      server,
      '/v2/snapshot/locale/global/markets/crypto/tickers/X%3ABTCUSD/book',
    );
    assert.equal(status, 200);
    const d = body.data;
    const numbers = [d.bids[0].x['1'], d.asks[0].x['1'], d.bidCount, d.askCount, d.spread];
    for (const n of numbers) {
      assert.equal(typeof n, 'number');
      assert.ok((String(n).split('.')[1] ?? '').length <= 8, `${n} has more than eight decimals`);
    }
    assert.equal(d.bidCount, d.bids[0].x['1']);
  });

  it('forex: last quote (ms) from the latest complete quote bar; `C:` optional', async (t) => {
    const server = await snapshotServer(t, '2014-05-05T12:00:00Z');
    if (!server) return;
    const { status, body } = await get(server, '/v2/snapshot/locale/global/markets/forex/tickers/EURUSD');
    assert.equal(status, 200);
    const midnight = Date.parse('2014-05-05T00:00:00Z');
    const q = leanRows('forex/oanda/minute/eurusd/20140505_quote.zip')
      .map((r) => r.map(Number))
      .filter((r) => (r[0] as number) + 60_000 <= 12 * 3_600_000)
      .at(-1) as number[];
    assert.equal(body.ticker.ticker, 'C:EURUSD');
    assert.deepEqual(body.ticker.lastQuote, {
      a: q[9],
      b: q[4],
      t: midnight + (q[0] as number) + 60_000,
      x: 48,
    });
    const all = (await get(server, '/v2/snapshot/locale/global/markets/forex/tickers')).body;
    assert.ok(all.tickers.some((s: { ticker: string }) => s.ticker === 'C:EURUSD'));
    assert.equal(all.count, all.tickers.length);
    assert.ok(all.tickers.every((s: { ticker: string }) => s.ticker.startsWith('C:')));
    assert.deepEqual(
      responseValidator('/v2/snapshot/locale/global/markets/forex/tickers/{ticker}')(body),
      [],
    );
  });
});

describe('GET /v3/snapshot/indices', () => {
  // 15:00 New York = 14:00 Chicago, the SPX files' time zone.
  const NOW_IDX = '2021-01-14T15:00:00-05:00';

  it('gives value and session from the SPX minute bars and a NOT_FOUND item for an unknown ticker', async (t) => {
    const server = await snapshotServer(t, NOW_IDX);
    if (!server) return;
    const { status, body } = await get(server, '/v3/snapshot/indices?ticker.any_of=SPX,APx');
    assert.equal(status, 200);
    assert.equal(body.status, 'OK');
    const rows = leanRows('index/usa/minute/spx/20210114_trade.zip')
      .map((r) => r.map(Number))
      .filter((r) => (r[0] as number) + 60_000 <= 14 * 3_600_000);
    const prev = leanRows('index/usa/daily/spx.zip').find((r) => r[0]?.startsWith('20210104'));
    const [spx, unknown] = body.results;
    assert.equal(spx.ticker, 'I:SPX');
    assert.equal(spx.type, 'indices');
    assert.equal(spx.market_status, 'open');
    close(spx.value, rows.at(-1)?.[4] as number, 'value');
    close(spx.session.open, rows[0]?.[1] as number, 'session.open');
    close(spx.session.high, Math.max(...rows.map((r) => r[2] as number)), 'session.high');
    close(spx.session.low, Math.min(...rows.map((r) => r[3] as number)), 'session.low');
    // The store has nothing of 2021-01-13, the session before: the bar of 2021-01-04 is no previous close.
    assert.ok(prev, 'an older daily row exists');
    assert.equal(spx.session.previous_close, undefined);
    assert.equal(spx.session.change, undefined);
    assert.deepEqual(unknown, { ticker: 'APx', error: 'NOT_FOUND', message: 'Ticker not found.' });
    assert.deepEqual(responseValidator('/v3/snapshot/indices')(body), []);
  });

  it("writes the session's change at the index's precision, without float noise", async (t) => {
    // 2023-07-03: SPX minute bars of the day and the hour bars of the session before.
    const server = await snapshotServer(t, '2023-07-03T12:00:00-04:00');
    if (!server) return;
    const { body } = await get(server, '/v3/snapshot/indices?ticker.any_of=I:SPX');
    const { session } = body.results[0];
    assert.ok(session.previous_close !== undefined && session.close !== undefined, 'a change to write');
    assert.equal(session.change, Number((session.close - session.previous_close).toFixed(4)));
    assert.match(String(session.change), /^-?\d+(\.\d{1,4})?$/);
  });

  it('pages every index by cursor and clamps limit to 250', async (t) => {
    const server = await snapshotServer(t, NOW_IDX);
    if (!server) return;
    const first = await get(server, '/v3/snapshot/indices?limit=1');
    assert.equal(first.body.results.length, 1);
    assert.ok(first.body.next_url.startsWith(`${server.url}/v3/snapshot/indices?`));
    const pages = [first.body];
    while (pages.at(-1)?.next_url) {
      const next = await follow(pages.at(-1)?.next_url);
      assert.equal(next.status, 200);
      assert.ok(next.body.results.length <= 1);
      pages.push(next.body);
    }
    const results = pages.flatMap((p) => p.results);
    const tickers = results.map((r: { ticker: string }) => r.ticker);
    assert.deepEqual(tickers, [...tickers].sort());
    assert.ok(tickers.includes('I:SPX') && tickers.includes('I:VIX'));
    // VIX: only closes by day; before 16:00 the value is the previous session's close (the CSV's 01-13).
    const vix = results.find((r: { ticker: string }) => r.ticker === 'I:VIX');
    const csv = (await import('node:fs')).readFileSync(
      new URL('../../../../shared/marketdata/datahub-finance-vix/vix-daily.csv', import.meta.url),
      'utf8',
    );
    const jan13 = csv
      .split(/\r?\n/)
      .find((l) => l.startsWith('2021-01-13'))
      ?.split(',');
    close(vix.value, Number(jan13?.[4]), 'VIX value');
    const clamped = await get(server, '/v3/snapshot/indices?limit=100000');
    assert.equal(clamped.status, 200);
    assert.equal(clamped.body.results.length, tickers.length);
    assert.equal(clamped.body.next_url, undefined);
    const ranged = await get(server, '/v3/snapshot/indices?ticker.gte=I:S&order=desc');
    assert.deepEqual(
      ranged.body.results.map((r: { ticker: string }) => r.ticker),
      tickers.filter((x: string) => x >= 'I:S').reverse(),
    );
    const bad = await get(server, '/v3/snapshot/indices?order=sideways');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.status, 'ERROR');
  });
});

describe('GET /v3/snapshot and /v1/summaries of a crypto pair without trade ticks', () => {
  it('send no last trade, and the summary’s price is the latest minute close', async (t) => {
    // 12:00 UTC: the Lean BTCUSD minute bars of 2018-04-04 (no trade ticks are stored).
    const server = await snapshotServer(t, '2018-04-04T12:00:00Z');
    if (!server) return;
    const bars = leanRows('crypto/coinbase/minute/btcusd/20180404_trade.zip')
      .map((r) => r.map(Number))
      .filter((r) => (r[0] as number) + 60_000 <= 12 * 3_600_000);
    const lastClose = bars.at(-1)?.[4] as number;
    const snap = await get(server, '/v3/snapshot?ticker.any_of=X:BTCUSD');
    assert.equal(snap.status, 200);
    const [item] = snap.body.results;
    assert.equal(item.type, 'crypto');
    // A trade of price 0 at 1970 is no trade: the service leaves out what it does not have.
    assert.equal(item.last_trade, undefined);
    const summary = await get(server, '/v1/summaries?ticker.any_of=X:BTCUSD');
    assert.equal(summary.body.results[0].price, lastClose);
    assert.equal(summary.body.results[0].session.close, lastClose);
  });
});
