/**
 * Futures in the local server: Lean's futures files ingested (rows compared with the raw zips, read here
 * with fflate, independently of the ingest code), the futures routes answering from them, and the
 * official `@massive.com/client-js` futures methods working unchanged against `mdq serve`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { restClient } from '@massive.com/client-js';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { FuturesClient } from '../../src/clients/futures.js';
import { createApp } from '../../src/server/app.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { ingestLean } from '../../src/server/ingest/lean.js';
import { marketStateAt } from '../../src/server/market/futures.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { countingStore } from '../support/counting-store.js';
import { hasShared, sharedDir } from '../support/shared.js';

const futuresRoot = `${sharedDir}marketdata-futures/lean/`;
const MONTHS = 'FGHJKMNQUVXZ';

/** `ES` + `201312` → `ESZ3`, as the service writes contract tickers. */
const tickerOf = (product: string, yyyymm: string) =>
  `${product}${MONTHS[Number(yyyymm.slice(4)) - 1]}${yyyymm.slice(3, 4)}`;

/** The entries of a raw zip: contract ticker → rows of fields. */
function rawEntries(relative: string, product: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const [name, bytes] of Object.entries(unzipSync(readFileSync(join(futuresRoot, relative))))) {
    const month = /_(\d{6})\.csv$/.exec(name)?.[1] as string;
    const rows = new TextDecoder()
      .decode(bytes)
      .split(/\r?\n/)
      .filter((l) => l !== '')
      .map((l) => l.split(','));
    out.set(tickerOf(product, month), rows);
  }
  return out;
}

/** Files of a folder under the futures root. */
const filesIn = (relative: string) => readdirSync(join(futuresRoot, relative)).sort();

/** Unix ms of `YYYYMMDD` + ms of that UTC day. */
const utcMs = (yyyymmdd: string, ms = 0) =>
  Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6))) + ms;

describe('futures in the local server', () => {
  let dir: string;
  let db: string;
  let server: RunningServer | undefined;
  let skip = false;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdq-futures-'));
    db = join(dir, 'store.duckdb');
    try {
      readdirSync(futuresRoot);
    } catch {
      skip = true;
      return;
    }
    const store = await DuckDbStore.open(db);
    try {
      await ingestLean(store, futuresRoot);
    } finally {
      store.close();
    }
    server = await startServer({ db, port: 0, log: () => {}, now: '2013-10-08' });
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const res = await fetch(`${server?.url}${path}`);
    return { status: res.status, body: (await res.json()) as any };
  };

  test('stored bars, ticks and open interest equal the raw zips', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const expected = {
      minute: new Map<string, { n: number; v: number }>(),
      ticks: new Map<string, number>(),
    };
    let oi = 0;
    for (const [product, market] of [
      ['ES', 'cme'],
      ['GC', 'comex'],
    ] as const) {
      const folder = `future/${market}/minute/${product.toLowerCase()}`;
      for (const f of filesIn(folder)) {
        const kind = /_(trade|quote|openinterest)\.zip$/.exec(f)?.[1];
        for (const [ticker, rows] of rawEntries(`${folder}/${f}`, product)) {
          if (kind === 'trade') {
            const e = expected.minute.get(ticker) ?? { n: 0, v: 0 };
            e.n += rows.length;
            e.v += rows.reduce((s, r) => s + Number(r[5]), 0);
            expected.minute.set(ticker, e);
          } else if (kind === 'openinterest') oi += rows.length;
        }
      }
      for (const sub of ['hour', 'daily']) {
        const f = `future/${market}/${sub}/${product.toLowerCase()}_openinterest.zip`;
        for (const rows of rawEntries(f, product).values()) oi += rows.length;
      }
    }
    for (const f of filesIn('future/comex/tick/gc')) {
      if (!f.endsWith('_trade.zip')) continue;
      for (const [ticker, rows] of rawEntries(`future/comex/tick/gc/${f}`, 'GC')) {
        expected.ticks.set(ticker, (expected.ticks.get(ticker) ?? 0) + rows.length);
      }
    }
    const store = await DuckDbStore.open(db, { readOnly: true });
    try {
      const minute = await store.all<{ ticker: string; n: bigint; v: number }>(
        "SELECT ticker, count(*) AS n, sum(v) AS v FROM bars WHERE resolution = 'minute' GROUP BY ticker ORDER BY ticker",
      );
      assert.deepEqual(
        minute.map((r) => [r.ticker, Number(r.n), r.v]),
        [...expected.minute].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, e]) => [k, e.n, e.v]),
      );
      const ticks = await store.all<{ ticker: string; n: bigint }>(
        'SELECT ticker, count(*) AS n FROM trades GROUP BY ticker ORDER BY ticker',
      );
      assert.deepEqual(
        ticks.map((r) => [r.ticker, Number(r.n)]),
        [...expected.ticks].sort(([a], [b]) => (a < b ? -1 : 1)),
      );
      const [open] = await store.all<{ n: bigint }>('SELECT count(*) AS n FROM open_interest');
      assert.equal(Number(open?.n), oi);
    } finally {
      store.close();
    }
  });

  test('session aggregates are the daily bars; 5-minute aggregates are computed from the minute bars and paged', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const daily = rawEntries('future/cme/daily/es_trade.zip', 'ES').get('ESZ3') as string[][];
    const { status, body } = await get(
      '/futures/v1/aggs/ESZ3?resolution=1session&sort=window_start.asc&limit=5000',
    );
    assert.equal(status, 200);
    assert.deepEqual(
      body.results.map((r: any) => [
        r.window_start,
        r.session_end_date,
        r.open,
        r.high,
        r.low,
        r.close,
        r.volume,
      ]),
      daily.map((r) => {
        const d = (r[0] as string).slice(0, 8);
        const iso = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`;
        return [utcMs(d) * 1e6, iso, ...r.slice(1, 6).map(Number)];
      }),
    );

    // 5-minute windows of GCZ3 on the 2013-10-08 file, from the raw minute rows.
    const rows = rawEntries('future/comex/minute/gc/20131008_trade.zip', 'GC').get('GCZ3') as string[][];
    const windows = new Map<number, number[]>();
    for (const r of rows) {
      const t = utcMs('20131008', Number(r[0]));
      const w = t - (t % 300_000);
      const [o, h, l, c, v] = r.slice(1, 6).map(Number) as [number, number, number, number, number];
      const cur = windows.get(w);
      if (!cur) windows.set(w, [o, h, l, c, v]);
      else
        windows.set(w, [
          cur[0] as number,
          Math.max(cur[1] as number, h),
          Math.min(cur[2] as number, l),
          c,
          (cur[4] as number) + v,
        ]);
    }
    const from = utcMs('20131008');
    const to = utcMs('20131009');
    let url = `/futures/v1/aggs/GCZ3?resolution=5min&sort=window_start.asc&limit=50&window_start.gte=${from * 1e6}&window_start.lt=${to * 1e6}`;
    const got: number[][] = [];
    let pages = 0;
    for (;;) {
      const page = await get(url);
      assert.equal(page.status, 200);
      got.push(
        ...page.body.results.map((r: any) => [
          r.window_start / 1e6,
          r.open,
          r.high,
          r.low,
          r.close,
          r.volume,
        ]),
      );
      pages++;
      if (!page.body.next_url) break;
      url = new URL(page.body.next_url).pathname + new URL(page.body.next_url).search;
    }
    assert.ok(pages > 1, 'several pages');
    assert.deepEqual(
      got,
      [...windows].sort(([a], [b]) => a - b).map(([w, v]) => [w, ...v]),
    );
  });

  /** Every candle of an aggregates query, all pages followed. */
  const allCandles = async (path: string) => {
    const got: any[] = [];
    let url = path;
    for (;;) {
      const page = await get(url);
      assert.equal(page.status, 200, url);
      got.push(...page.body.results);
      if (!page.body.next_url) return got;
      url = new URL(page.body.next_url).pathname + new URL(page.body.next_url).search;
    }
  };

  test('second candles are built from the GC trade ticks, with transactions; ES has no ticks and none', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    // 5-second windows of GCZ3 over the 2013-10-08 tick file, in file order (time, then line).
    const windows = new Map<
      number,
      { o: number; h: number; l: number; c: number; v: number; dv: number; n: number }
    >();
    const rows = rawEntries('future/comex/tick/gc/20131008_trade.zip', 'GC').get('GCZ3') as string[][];
    for (const r of rows) {
      const ms = utcMs('20131008', Number(r[0]));
      const w = ms - (ms % 5000);
      const price = Number(r[1]);
      const size = Number(r[2]);
      const cur = windows.get(w);
      if (!cur) windows.set(w, { o: price, h: price, l: price, c: price, v: size, dv: price * size, n: 1 });
      else {
        cur.h = Math.max(cur.h, price);
        cur.l = Math.min(cur.l, price);
        cur.c = price;
        cur.v += size;
        cur.dv += price * size;
        cur.n++;
      }
    }
    const from = utcMs('20131008') * 1e6;
    const to = utcMs('20131009') * 1e6;
    const got = await allCandles(
      `/futures/v1/aggs/GCZ3?resolution=5sec&sort=window_start.asc&limit=5000&window_start.gte=${from}&window_start.lt=${to}`,
    );
    assert.ok(windows.size > 5000, 'several pages');
    assert.deepEqual(
      got.map((r) => [r.window_start / 1e6, r.open, r.high, r.low, r.close, r.volume, r.transactions]),
      [...windows].sort(([a], [b]) => a - b).map(([w, e]) => [w, e.o, e.h, e.l, e.c, e.v, e.n]),
    );
    const expectedDollars = new Map([...windows].map(([w, e]) => [w, e.dv]));
    for (const r of got) {
      assert.ok(Math.abs(r.dollar_volume - (expectedDollars.get(r.window_start / 1e6) as number)) < 0.006);
      // From 22:00 UTC (18:00 New York) on, a tick belongs to the next day's session.
      const late = r.window_start / 1e6 >= Date.UTC(2013, 9, 8, 22);
      assert.equal(r.session_end_date, late ? '2013-10-09' : '2013-10-08');
    }
    const es = await get('/futures/v1/aggs/ESZ3?resolution=1sec');
    assert.deepEqual([es.status, es.body.results], [200, []]);
  });

  test('several-session, week, month, quarter and year candles are built from the daily bars (sessions)', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const daily = rawEntries('future/cme/daily/es_trade.zip', 'ES').get('ESZ3') as string[][];
    const day = 86_400_000;
    const startOf: Record<string, (ms: number) => number> = {
      // Weeks start on Sunday (1970-01-04 is the first).
      '1week': (ms) => ms - ((ms - 3 * day) % (7 * day)),
      '2week': (ms) => ms - ((ms - 3 * day) % (14 * day)),
      '1month': (ms) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1),
      '1quarter': (ms) =>
        Date.UTC(
          new Date(ms).getUTCFullYear(),
          new Date(ms).getUTCMonth() - (new Date(ms).getUTCMonth() % 3),
          1,
        ),
      '1year': (ms) => Date.UTC(new Date(ms).getUTCFullYear(), 0, 1),
      // Three trading dates (weekdays) a candle, counted from Monday 1970-01-05; a Sunday stamp is
      // Monday's session.
      '3session': (ms) => {
        let d = Math.floor(ms / day);
        if ((d - 4) % 7 === 6) d += 1;
        const index = Math.floor((d - 4) / 7) * 5 + ((d - 4) % 7);
        const first = index - (index % 3);
        return (Math.floor(first / 5) * 7 + (first % 5) + 4) * day;
      },
    };
    for (const [resolution, start] of Object.entries(startOf)) {
      const expected = new Map<number, number[]>();
      const lastDate = new Map<number, string>();
      for (const r of daily) {
        const d = (r[0] as string).slice(0, 8);
        const w = start(utcMs(d));
        const [o, h, l, c, v] = r.slice(1, 6).map(Number) as [number, number, number, number, number];
        const cur = expected.get(w);
        expected.set(
          w,
          cur
            ? [
                cur[0] as number,
                Math.max(cur[1] as number, h),
                Math.min(cur[2] as number, l),
                c,
                (cur[4] as number) + v,
              ]
            : [o, h, l, c, v],
        );
        lastDate.set(w, `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`);
      }
      const got = await allCandles(
        `/futures/v1/aggs/ESZ3?resolution=${resolution}&sort=window_start.asc&limit=2`,
      );
      assert.deepEqual(
        got.map((r) => [r.window_start / 1e6, r.session_end_date, r.open, r.high, r.low, r.close, r.volume]),
        [...expected].map(([w, e]) => [w, lastDate.get(w), ...e]),
        resolution,
      );
    }
    // A date picks the candle that holds it: the week of Wednesday 2013-10-09 starts on Sunday the 6th.
    const week = await get('/futures/v1/aggs/ESZ3?resolution=1week&window_start=2013-10-09');
    assert.deepEqual(
      week.body.results.map((r: any) => r.window_start / 1e6),
      [Date.UTC(2013, 9, 6)],
    );
  });

  test('trades are the ticks of a session; quotes are empty; bad input gets a 400', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    // Session of 2013-10-08: 18:00 New York on the 7th (22:00 UTC) to 17:00 on the 8th (21:00 UTC).
    const start = Date.UTC(2013, 9, 7, 22);
    const end = Date.UTC(2013, 9, 8, 21);
    let n = 0;
    for (const d of ['20131007', '20131008']) {
      const rows = rawEntries(`future/comex/tick/gc/${d}_trade.zip`, 'GC').get('GCZ3') as string[][];
      n += rows.filter((r) => {
        const ms = utcMs(d, Number(r[0]));
        return ms >= start && ms < end;
      }).length;
    }
    const got: any[] = [];
    let url = '/futures/vX/trades/GCZ3?session_end_date=2013-10-08&limit=50000';
    for (;;) {
      const { body } = await get(url);
      got.push(...body.results);
      if (!body.next_url) break;
      url = new URL(body.next_url).pathname + new URL(body.next_url).search;
    }
    assert.equal(got.length, n);
    assert.ok(got.every((r: any) => r.session_end_date === '2013-10-08'));
    const quotes = await get('/futures/v1/quotes/GCZ3');
    assert.deepEqual([quotes.status, quotes.body.results], [200, []]);
    for (const path of [
      '/futures/v1/aggs/ESZ3?resolution=10000session',
      '/futures/v1/aggs/ESZ3?resolution=60sec',
      '/futures/v1/aggs/ESZ3?resolution=7days',
      '/futures/v1/trades/SPY',
    ]) {
      const bad = await get(path);
      assert.equal(bad.status, 400, path);
      assert.equal(bad.body.status, 'ERROR');
    }
  });

  test('contracts carry the exchange rules; products ES and GC', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const { body } = await get('/futures/v1/contracts?ticker.any_of=ESZ3,GCZ3&date=2013-10-08');
    const facts = body.results.map((r: any) => [
      r.ticker,
      r.last_trade_date,
      r.trade_tick_size,
      r.trading_venue,
      r.active,
    ]);
    // ES: third Friday of December 2013; GC: third last business day of December 2013.
    assert.deepEqual(facts, [
      ['ESZ3', '2013-12-20', 0.25, 'XCME', true],
      ['GCZ3', '2013-12-27', 0.1, 'XCEC', true],
    ]);
    const products = await get('/futures/v1/products?product_code.any_of=ES,GC');
    assert.deepEqual(
      products.body.results.map((p: any) => [p.product_code, p.trading_venue]),
      [
        ['ES', 'XCME'],
        ['GC', 'XCEC'],
      ],
    );
  });

  test('the official client-js futures methods work unchanged against mdq serve', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const api = restClient('any-key', server?.url);
    const aggs = (await api.aggregatesV1({ ticker: 'ESZ3', resolution: '1hour', limit: 3 })) as any;
    assert.equal(aggs.status, 'OK');
    assert.equal(aggs.results.length, 3);
    assert.ok(aggs.results.every((r: any) => r.ticker === 'ESZ3' && r.high >= r.low));
    const trades = (await api.getFuturesV1TradesTicker({ ticker: 'GCZ3', limit: 5 })) as any;
    assert.equal(trades.results.length, 5);
    const quotes = (await api.getFuturesV1QuotesTicker({ ticker: 'GCZ3' })) as any;
    assert.equal(quotes.status, 'OK');
    const contracts = (await api.getFuturesV1Contracts({ productCode: 'GC', date: '2013-10-08' })) as any;
    assert.ok(contracts.results.length > 0);
    assert.ok(contracts.results.every((r: any) => r.product_code === 'GC'));
    const products = (await api.getFuturesV1Products({ productCode: 'ES' })) as any;
    assert.equal(products.results[0].name, 'E-mini S&P 500 Futures');
    // Every product's venue is a listed exchange, with the fields the spec requires.
    const exchanges = (await api.getFuturesV1Exchanges({})) as any;
    const mics = exchanges.results.map((x: any) => x.mic);
    assert.ok(['XCME', 'XCEC'].every((mic) => mics.includes(mic)));
    assert.ok(
      exchanges.results.every((x: any) => typeof x.id === 'string' && x.type === 'exchange' && x.name),
    );
    const paged = (await api.getFuturesV1Exchanges({ limit: 1 })) as any;
    assert.deepEqual(paged.results, exchanges.results.slice(0, 1));
    assert.ok(paged.next_url);
    // The new resolutions through the official method: weeks from sessions, seconds from ticks.
    const weeks = (await api.aggregatesV1({ ticker: 'GCZ3', resolution: '1week', limit: 5 })) as any;
    assert.deepEqual(
      weeks.results.map((r: any) => [r.window_start, r.session_end_date]),
      [[Date.UTC(2013, 9, 6) * 1e6, '2013-10-11']],
    );
    const seconds = (await api.aggregatesV1({ ticker: 'GCZ3', resolution: '30sec', limit: 3 })) as any;
    assert.equal(seconds.results.length, 3);
    assert.ok(seconds.results.every((r: any) => r.transactions > 0 && r.window_start % 30e9 === 0));
    const bad = await api
      .aggregatesV1({ ticker: 'GCZ3', resolution: '12month' })
      .catch((e: any) => e.response);
    assert.equal(bad.status, 400);
    assert.match(bad.data.error, /resolution.*12month.*1-11month/);
    const badTicker = await api.getFuturesV1TradesTicker({ ticker: 'GC2025' }).catch((e: any) => e.response);
    assert.equal(badTicker.status, 400);
    assert.match(badTicker.data.error, /GC2025/);
  });

  test("mdq's FuturesClient reaches the same answers on the older vX paths, every page merged", async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const v1 = FuturesClient(undefined, { useAsync: true, baseUrl: server?.url as string });
    const vx = FuturesClient(undefined, { useAsync: true, baseUrl: server?.url as string, version: 'vX' });
    t.after(async () => {
      await v1.close();
      await vx.close();
    });
    const query = { resolution: '1hour', windowStartGte: '2013-10-07', windowStartLt: '2013-10-09' } as const;
    const a = (await v1.getAggregates('ESZ3', { ...query, limit: 1000 })) as any;
    const b = (await vx.getAggregates('ESZ3', { ...query, limit: 7, allPages: true })) as any;
    assert.ok(a.results.length > 7);
    assert.deepEqual(b.results, a.results);
    const trades = (await vx.getTrades('GCZ3', { limit: 3 })) as any;
    assert.equal(trades.results.length, 3);
    const quotes = (await vx.getQuotes('GCZ3')) as any;
    assert.deepEqual(quotes.results, []);
    const contracts = (await vx.getContracts({
      productCode: 'ES',
      date: '2013-10-08',
      limit: 2,
      allPages: true,
    })) as any;
    assert.deepEqual(
      contracts.results.map((c: any) => c.ticker),
      ['ESH0', 'ESH4', 'ESM0', 'ESM4', 'ESU0', 'ESU4', 'ESZ3', 'ESZ4'],
    );
    const exchanges = (await v1.getExchanges()) as any;
    const walked = (await vx.getExchanges({ limit: 1, allPages: true })) as any;
    assert.ok(exchanges.results.length > 1);
    assert.deepEqual(walked.results, exchanges.results);
    const products = (await vx.getProducts({ sector: 'precious' })) as any;
    assert.deepEqual(
      products.results.map((p: any) => p.product_code),
      ['GC'],
    );
  });

  test('schedules and market status follow the Globex session rule (18:00 New York the evening before to 17:00)', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const { body } = await get(
      '/futures/v1/schedules?product_code=GC&session_end_date.gte=2013-10-04&session_end_date.lte=2013-10-07&limit=100&sort=timestamp.asc',
    );
    assert.deepEqual(
      body.results.map((r: any) => [r.session_end_date, r.event, r.timestamp, r.trading_venue]),
      [
        ['2013-10-04', 'open', '2013-10-03T22:00:00+00:00', 'XCEC'],
        ['2013-10-04', 'close', '2013-10-04T21:00:00+00:00', 'XCEC'],
        // Monday's session opens on Sunday evening; no session ends on a weekend.
        ['2013-10-07', 'open', '2013-10-06T22:00:00+00:00', 'XCEC'],
        ['2013-10-07', 'close', '2013-10-07T21:00:00+00:00', 'XCEC'],
      ],
    );
    // In winter New York is UTC-5: the session opens at 23:00 UTC.
    const winter = await get('/futures/vX/schedules?product_code=ES&session_end_date=2013-12-20');
    assert.deepEqual(
      winter.body.results.map((r: any) => r.timestamp),
      ['2013-12-19T23:00:00+00:00', '2013-12-20T22:00:00+00:00'],
    );
    assert.deepEqual(marketStateAt(Date.UTC(2013, 9, 5, 12)), {
      market_event: 'closed',
      session_end_date: '2013-10-07',
      at: Date.UTC(2013, 9, 4, 21),
    });
    assert.deepEqual(marketStateAt(Date.UTC(2013, 9, 8, 21, 30)), {
      market_event: 'closed',
      session_end_date: '2013-10-09',
      at: Date.UTC(2013, 9, 8, 21),
    });
    const status = await get('/futures/v1/market-status?product_code.any_of=ES,GC');
    assert.deepEqual(
      status.body.results.map((r: any) => [r.product_code, r.market_event]),
      [
        ['ES', 'open'],
        ['GC', 'open'],
      ],
    );
  });

  test("the snapshot holds only what was stored up to the server's now", async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const now = Date.UTC(2013, 9, 8, 15);
    const at = await startServer({ db, port: 0, log: () => {}, now: new Date(now).toISOString() });
    t.after(() => at.close());
    const res = await fetch(`${at.url}/futures/v1/snapshot?ticker=GCZ3`);
    const [snap] = ((await res.json()) as any).results;
    const ticks = rawEntries('future/comex/tick/gc/20131008_trade.zip', 'GC').get('GCZ3') as string[][];
    const last = ticks.filter((r) => utcMs('20131008', Number(r[0])) <= now).at(-1) as string[];
    assert.deepEqual(snap.last_trade, {
      last_updated: utcMs('20131008', Number(last[0])) * 1e6,
      price: Number(last[1]),
      size: Number(last[2]),
    });
    // The session so far: minute bars from 22:00 UTC on the 7th to now.
    const minutes = ['20131007', '20131008'].flatMap((d) =>
      (rawEntries(`future/comex/minute/gc/${d}_trade.zip`, 'GC').get('GCZ3') as string[][])
        .map((r) => [utcMs(d, Number(r[0])), ...r.slice(1, 6).map(Number)] as number[])
        .filter(([ms]) => (ms as number) >= Date.UTC(2013, 9, 7, 22) && (ms as number) + 60_000 <= now),
    );
    assert.deepEqual(snap.session, {
      close: minutes.at(-1)?.[4],
      high: Math.max(...minutes.map((m) => m[2] as number)),
      low: Math.min(...minutes.map((m) => m[3] as number)),
      open: minutes[0]?.[1],
      volume: minutes.reduce((a, m) => a + (m[5] as number), 0),
    });
    assert.equal(snap.details.settlement_date, Date.UTC(2013, 11, 27) * 1e6);
  });

  test('the snapshot asks the store the same few queries for a page of contracts as for one', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const store = await DuckDbStore.open(db, { readOnly: true });
    t.after(() => store.close());
    const counting = countingStore(store);
    // Mid-session (the session so far from minute bars), and Friday 2013-10-18 17:30 New York, after
    // the close of a session without minute bars: ES sessions from their daily bars, GC's none.
    for (const now of [Date.UTC(2013, 9, 8, 15), Date.UTC(2013, 9, 18, 21, 30)]) {
      const app = createApp({ store: counting.store, now: async () => now, log: () => {} });
      const get = async (path: string) => {
        counting.reset();
        const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
        assert.equal(res.status, 200, path);
        const body = (await res.json()) as any;
        return { results: body.results as any[], queries: counting.queries() };
      };
      const all = await get('/futures/vX/snapshot?limit=100');
      const gc = await get('/futures/vX/snapshot?product_code=GC&sort=ticker.desc');
      const one = await get('/futures/vX/snapshot?limit=1');
      assert.ok(all.results.length > gc.results.length && gc.results.length > 1, 'pages of several sizes');
      assert.equal(one.results.length, 1);
      assert.deepEqual([all.queries, gc.queries], [one.queries, one.queries], `queries at ${now}`);
      assert.ok(one.queries <= 6, `${one.queries} queries for one contract`);
      // Each contract's facts are its own: the page holds what each contract's snapshot alone holds.
      const alone = [];
      for (const r of all.results)
        alone.push(...(await get(`/futures/vX/snapshot?ticker=${r.ticker}`)).results);
      assert.deepEqual(all.results, alone);
      const facts = (key: string) => all.results.filter((r) => r[key] !== undefined).length;
      assert.ok(facts('session') > 0 && facts('session') < all.results.length, 'some sessions, not all');
      assert.ok(facts('last_trade') > 0 && facts('last_minute') > 0, 'trades and minute bars');
    }
  });

  test('futures contracts are not stocks: the stocks market lists none of them', async (t) => {
    if (skip || !hasShared(t, futuresRoot)) return;
    const grouped = await get('/v2/aggs/grouped/locale/us/market/stocks/2013-10-08');
    assert.equal(grouped.status, 200);
    assert.equal(grouped.body.resultsCount, 0);
    assert.equal(marketStateAt(Date.UTC(2013, 9, 8, 15)).market_event, 'open');
  });
});

describe('futures ingest refuses malformed files with their location', () => {
  const cases = [
    {
      entry: '20131007_es_minute_trade.csv',
      text: '0,1,1,1,1,1\n',
      error: /20131007_trade\.zip!20131007_es_minute_trade\.csv.*contract month/,
    },
    {
      entry: '20131007_es_minute_trade_201312.csv',
      text: '0,1,1,1,1,1\n60000,1,1,1,1\n',
      error: /20131007_trade\.zip!20131007_es_minute_trade_201312\.csv:2.*expected 6 columns, found 5/,
    },
  ];
  for (const c of cases) {
    test(c.entry, async (t) => {
      const root = mkdtempSync(join(tmpdir(), 'mdq-futures-bad-'));
      t.after(() => rmSync(root, { recursive: true, force: true }));
      const folder = join(root, 'future', 'cme', 'minute', 'es');
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, '20131007_trade.zip'), zipSync({ [c.entry]: strToU8(c.text) }));
      const store = await DuckDbStore.open(':memory:');
      t.after(() => store.close());
      await assert.rejects(ingestLean(store, root), c.error);
      const [n] = await store.all<{ n: bigint }>('SELECT count(*) AS n FROM bars');
      assert.equal(Number(n?.n), 0);
    });
  }
});
