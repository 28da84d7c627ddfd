import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { startServer } from '../../../src/server/index.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { cacheStatus, clearCache } from '../../../src/server/upstream/cache-admin.js';
import { firstOpenTradingDate } from '../../../src/server/upstream/futures-kinds.js';
import { ReadThrough } from '../../../src/server/upstream/read-through.js';
import { futuresRoot, withFuturesCachingServer } from '../../support/futures-upstream.js';
import type { ProxyAction } from '../../support/scripted-proxy.js';
import { hasShared, referenceDir } from '../../support/shared.js';
import { withStoreFile } from '../../support/store.js';
import {
  type Answer,
  countRows,
  firstPass,
  get,
  offlinePass,
  type Recorded,
  secondPass,
  withOfflineServer,
  withoutOrigin,
} from '../../support/upstream-rig.js';

/**
 * Futures through the caching server: candles, trades and quotes stored as data (other resolutions,
 * sub-ranges, sorts and pages answered from them), contracts, products, schedules, exchanges, market
 * status and snapshots stored as answered; all answered again with no upstream call, and offline.
 */

/** 2014-01-06 12:00 UTC, a Monday: the sessions of the stored data have all ended. */
const NOW = Date.UTC(2014, 0, 6, 12);

const normal = withoutOrigin;

/** ns of a UTC instant. */
const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
/** The session of trading date 2013-10-08: 18:00 New York on the 7th to 17:00 on the 8th. */
const SESSION = { start: Date.UTC(2013, 9, 7, 22), end: Date.UTC(2013, 9, 8, 21) };

/** Requests answered first through the upstream, then from the store alone. */
const RECORDED = [
  '/futures/v1/aggs/GCZ3?resolution=1min&window_start.gte=2013-10-07&window_start.lt=2013-10-12&limit=50000&sort=window_start.asc',
  '/futures/v1/aggs/ESZ3?resolution=1min&window_start.gte=2013-10-08&window_start.lt=2013-10-10&limit=2000',
  '/futures/v1/aggs/ESZ3?resolution=1hour&window_start.gte=2013-10-01&window_start.lt=2013-10-12&limit=50000',
  '/futures/v1/aggs/GCZ3?resolution=1session&window_start.gte=2013-09-01&window_start.lt=2013-10-12',
  '/futures/v1/aggs/ESZ3?resolution=1session&window_start.gte=2013-10-01&window_start.lt=2014-01-01&limit=200',
  '/futures/v1/trades/GCZ3?session_end_date=2013-10-08&limit=20000&sort=timestamp.asc',
  '/futures/v1/quotes/GCZ3?session_end_date=2013-10-08',
  '/futures/v1/contracts?product_code=GC&limit=3',
  '/futures/v1/contracts?product_code=ES&type.any_of=single,combo',
  '/futures/v1/products',
  '/futures/v1/schedules?product_code=ES&session_end_date.gte=2013-10-07&session_end_date.lte=2013-10-11',
  '/futures/v1/exchanges',
  '/futures/v1/market-status',
  '/futures/v1/snapshot?product_code=GC',
  '/futures/vX/contracts?ticker=ESZ3',
];

/** At most five pages of each. */
const RECORDING: Recorded = { paths: RECORDED, normal, maxPages: 5 };

/** Requests the recorded ones cover: other resolutions, sub-ranges, sorts, pages, the other path generation. */
const COVERED: [path: string, rolledUp: boolean][] = [
  [
    '/futures/v1/aggs/GCZ3?resolution=5min&window_start.gte=2013-10-07&window_start.lt=2013-10-10&limit=5000',
    true,
  ],
  [
    `/futures/v1/aggs/GCZ3?resolution=1min&window_start.gte=${ns(SESSION.start + 3_600_000)}&window_start.lt=${ns(SESSION.start + 7_200_000)}&limit=30`,
    false,
  ],
  ['/futures/vX/aggs/GCZ3?resolution=1min&window_start=2013-10-09&limit=50&sort=window_start.asc', false],
  ['/futures/v1/aggs/ESZ3?resolution=4hour&window_start.gte=2013-10-07&window_start.lt=2013-10-11', true],
  ['/futures/v1/aggs/ESZ3?resolution=15min&window_start.gte=2013-10-08&window_start.lt=2013-10-09', true],
  ['/futures/v1/aggs/ESZ3?resolution=1week&window_start.gte=2013-10-06&window_start.lt=2013-12-29', true],
  ['/futures/v1/aggs/ESZ3?resolution=1month&window_start.gte=2013-10-01&window_start.lt=2013-12-01', true],
  ['/futures/v1/aggs/ESZ3?resolution=3session&window_start.gte=2013-10-14&window_start.lt=2013-11-20', true],
  ['/futures/v1/aggs/ESZ3?resolution=1quarter&window_start=2013-10-01', true],
  [
    '/futures/v1/aggs/ESZ3?resolution=1session&window_start.gte=2013-11-01&window_start.lt=2013-11-08&sort=window_start.asc&limit=2',
    false,
  ],
  [
    `/futures/v1/aggs/GCZ3?resolution=30sec&window_start.gte=${ns(SESSION.start)}&window_start.lt=${ns(SESSION.end)}&limit=5000`,
    false,
  ],
  [
    `/futures/v1/trades/GCZ3?timestamp.gte=${ns(Date.UTC(2013, 9, 8, 13))}&timestamp.lt=${ns(Date.UTC(2013, 9, 8, 13, 10))}&limit=100`,
    false,
  ],
  ['/futures/vX/quotes/GCZ3?session_end_date=2013-10-08&limit=5&sort=timestamp.asc', false],
  // The same `.any_of` set in another order, or as repeated keys: the stored answer.
  ['/futures/v1/contracts?product_code=ES&type.any_of=combo,single', false],
  ['/futures/v1/contracts?product_code=ES&type.any_of=combo&type.any_of=single', false],
];

/**
 * Candles rolled up from stored candles sum the service's dollar volumes, each rounded to the cent:
 * equal to the service's within half a cent a candle summed (at most 23 sessions a month). Everything
 * else is exact.
 */
function sameCandles(got: any, want: any, what: string): void {
  const { results: g = [], request_id: _g, next_url: gn, ...gRest } = got;
  const { results: w = [], request_id: _w, next_url: wn, ...wRest } = want;
  assert.deepEqual(gRest, wRest, what);
  assert.equal(gn === undefined, wn === undefined, `${what}: next_url`);
  assert.equal(g.length, w.length, `${what}: candle count ${g.length} vs ${w.length}`);
  g.forEach((candle: any, i: number) => {
    const { dollar_volume: gd, ...gc } = candle;
    const { dollar_volume: wd, ...wc } = w[i];
    assert.deepEqual(gc, wc, `${what}: candle ${i}`);
    assert.ok(Math.abs(gd - wd) <= 0.2, `${what}: candle ${i} dollar volume ${gd} vs ${wd}`);
  });
}

describe('caching server: futures', () => {
  test('candles, trades, quotes and reference answers are stored, then answered with other resolutions and sub-ranges with no upstream call, also offline', async (t) => {
    await withFuturesCachingServer(t, {}, NOW, async (rig) => {
      const { server: upstream, proxy, cache, logged } = rig;
      const truth = upstream.url;
      const first = await firstPass(cache.url, truth, RECORDING, {
        check: (path, got) => {
          if (path.includes('/aggs/') || path.includes('/trades/'))
            assert.ok(got[0]?.body.results.length > 0, `${path} has results`);
        },
      });
      assert.ok(
        (first.get(RECORDED.find((p) => p.includes('/trades/')) as string)?.length ?? 0) > 1,
        'the trades have further pages',
      );
      assert.ok(
        logged.some((l) =>
          /stored \d+ futures trades of GCZ3 for 2013-10-08\.\.2013-10-08 \(2 pages\)/.test(l),
        ),
      );
      assert.ok(
        logged.some((l) => /stored \d+ futures minute candles of GCZ3 for 2013-10-07\.\.2013-10-12/.test(l)),
      );
      const store = cache.store as DuckDbStore;
      assert.ok(
        (await countRows(store, "SELECT * FROM bars WHERE ticker = 'GCZ3' AND resolution = 'minute'")) > 1000,
      );
      assert.ok((await countRows(store, "SELECT * FROM trades WHERE ticker = 'GCZ3'")) > 50_000);
      const calls = proxy.seen.length;
      assert.equal(cache.upstream?.upstreamRequests, calls);
      const truthOf = new Map<string, Answer>();
      for (const [path] of COVERED) truthOf.set(path, await get(truth, path));

      await secondPass(rig, first, RECORDING);
      const covered = new Map<string, Answer>();
      for (const [path, rolledUp] of COVERED) {
        const got = await get(cache.url, path);
        const want = truthOf.get(path) as Answer;
        assert.equal(got.status, 200, `${path}: ${got.text.slice(0, 300)}`);
        assert.ok(want.body.results.length > 0, `${path} has results`);
        if (rolledUp) sameCandles(got.body, want.body, path);
        else assert.equal(normal(got.text, cache.url), normal(want.text, truth), path);
        covered.set(path, got);
      }
      assert.equal(proxy.seen.length, calls, 'no upstream call on the second pass');

      // The same file, offline: what is stored answers; what is not is a 404 naming it.
      await offlinePass(rig, NOW, first, RECORDING, async (offline) => {
        for (const [path] of COVERED) {
          const again = await get(offline.url, path);
          assert.equal(
            normal(again.text, offline.url),
            normal((covered.get(path) as Answer).text, cache.url),
            `offline ${path}`,
          );
        }
        const missing = await get(
          offline.url,
          '/futures/v1/aggs/GCZ3?resolution=1min&window_start.gte=2013-10-04&window_start.lt=2013-10-08',
        );
        assert.equal(missing.status, 404, missing.text);
        assert.equal(missing.body.status, 'NOT_FOUND');
        assert.match(
          missing.body.message,
          /futures minute candles of GCZ3 for 2013-10-04\.\.2013-10-06; this server is offline/,
        );
        const noTrades = await get(offline.url, '/futures/v1/trades/GCZ3?session_end_date=2013-10-09');
        assert.equal(noTrades.status, 404, noTrades.text);
        assert.match(noTrades.body.message, /futures trades of GCZ3 for 2013-10-09\.\.2013-10-09/);
      });
    });
  });

  for (const [name, fault, status] of [
    ['a 500', { status: 500 }, 500],
    ['a connection dropped halfway through the page', 'drop-mid-body', 502],
  ] as const) {
    test(`${name} on the second page of a futures fetch stores nothing; the next request fetches it whole`, async (t) => {
      await withFuturesCachingServer(t, { maxRetries: 0 }, NOW, async ({ lean, proxy, cache }) => {
        const store = cache.store as DuckDbStore;
        // GCZ3's trades of 2013-10-08: two pages upstream (50,000 a page).
        const path = '/futures/v1/trades/GCZ3?session_end_date=2013-10-08&limit=10';
        proxy.script = (req): ProxyAction => (req.url.includes('cursor=') ? fault : 'forward');
        const failed = await get(cache.url, path);
        assert.equal(failed.status, status, failed.text);
        assert.equal(failed.body.status, 'ERROR');
        assert.match(failed.body.error, /nothing of this request was stored/);
        assert.equal(proxy.seen.length, 2);
        assert.equal(await countRows(store, 'SELECT * FROM trades'), 0);
        assert.equal(await countRows(store, 'SELECT * FROM coverage'), 0);

        proxy.script = () => 'forward';
        const ok = await get(cache.url, path);
        assert.equal(ok.status, 200, ok.text);
        assert.equal(ok.body.results.length, 10);
        const day = `SELECT * FROM trades WHERE ticker = 'GCZ3' AND sip_timestamp >= ${ns(SESSION.start)} AND sip_timestamp < ${ns(SESSION.end)}`;
        const stored = await countRows(store, day);
        assert.equal(stored, await countRows(lean, day));
        assert.ok(stored > 50_000);
        assert.equal(proxy.seen.length, 4);
      });
    });
  }

  test('a trading date is final once its session has ended (17:00 New York), the next one opens at once', () => {
    // 2013-10-08 in New York (EDT, UTC-4): 16:00, 17:30, 18:30 and 23:00.
    assert.equal(firstOpenTradingDate(Date.UTC(2013, 9, 8, 20)), '2013-10-08');
    assert.equal(firstOpenTradingDate(Date.UTC(2013, 9, 8, 21, 30)), '2013-10-09');
    assert.equal(firstOpenTradingDate(Date.UTC(2013, 9, 8, 22, 30)), '2013-10-09');
    assert.equal(firstOpenTradingDate(Date.UTC(2013, 9, 9, 3)), '2013-10-09');
  });

  test('stored futures are listed final, fetched again by a refresh and removed by a clear', async (t) => {
    await withFuturesCachingServer(t, {}, NOW, async ({ lean, proxy, cache, db }) => {
      const minutes = `/futures/v1/aggs/GCZ3?resolution=1min&window_start.gte=${ns(SESSION.start)}&window_start.lt=${ns(SESSION.end)}`;
      for (const path of [minutes, '/futures/v1/trades/GCZ3?session_end_date=2013-10-08']) {
        assert.equal((await get(cache.url, path)).status, 200, path);
      }
      await cache.close();
      const store = await DuckDbStore.open(db);
      const layer = new ReadThrough(
        store,
        { url: proxy.url },
        () => {},
        () => NOW,
      );
      try {
        const status = await cacheStatus(store, 'GCZ3');
        assert.deepEqual(
          status.ranges.map((r) => [r.kind, r.first, r.last, r.final]),
          [
            ['futures:minute', '2013-10-08', '2013-10-08', true],
            ['futures:trades', '2013-10-08', '2013-10-08', true],
          ],
        );
        const calls = proxy.seen.length;
        const done = await layer.refresh('GCZ3', { first: '2013-10-08', last: '2013-10-08' });
        assert.deepEqual(done.map((d) => d.kind).sort(), ['futures:minute', 'futures:trades']);
        assert.equal(proxy.seen.length, calls + 3, 'minutes in one page, trades in two');
        // The session's rows, as the upstream holds them.
        for (const sql of [
          `SELECT * FROM bars WHERE ticker = 'GCZ3' AND resolution = 'minute' AND t >= ${SESSION.start} AND t < ${SESSION.end}`,
          `SELECT * FROM trades WHERE ticker = 'GCZ3' AND sip_timestamp >= ${ns(SESSION.start)} AND sip_timestamp < ${ns(SESSION.end)}`,
        ]) {
          assert.equal(await countRows(store, sql), await countRows(lean, sql), sql);
        }
        assert.equal(await clearCache(store, 'GCZ3'), 2);
        assert.equal(await countRows(store, "SELECT * FROM bars WHERE ticker = 'GCZ3'"), 0);
        assert.equal(await countRows(store, "SELECT * FROM trades WHERE ticker = 'GCZ3'"), 0);
        assert.equal(await countRows(store, 'SELECT * FROM coverage'), 0);
      } finally {
        await layer.close();
        store.close();
      }
    });
  });

  test("the service's dollar volume, transactions and settlement price of a session candle are stored and answered as given", async (t) => {
    const spec = `${referenceDir}openapi.json`;
    if (!hasShared(t, spec)) return;
    // The specification's example answer of session candles (GCJ5, 2025-02-04 and 05): the upstream
    // answers those of them within the range asked.
    const example = JSON.parse(readFileSync(spec, 'utf8')).paths['/futures/v1/aggs/{ticker}'].get.responses[
      '200'
    ].content['application/json'].example;
    const seen: string[] = [];
    const upstream = createServer((req, res) => {
      seen.push(req.url ?? '');
      const query = new URL(req.url ?? '', 'http://upstream').searchParams;
      const [gte, lt] = ['window_start.gte', 'window_start.lt'].map((k) => Number(query.get(k)));
      const results = example.results.filter(
        (r: { window_start: number }) => r.window_start >= (gte as number) && r.window_start < (lt as number),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...example, results }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    try {
      await withStoreFile(async (db) => {
        const cache = await startServer({
          db,
          port: 0,
          upstream: { url },
          log: () => {},
          now: Date.UTC(2025, 1, 10),
        });
        try {
          const path =
            '/futures/v1/aggs/GCJ5?resolution=1session&window_start.gte=2025-02-04&window_start.lt=2025-02-06';
          for (let i = 0; i < 2; i++) {
            const got = await get(cache.url, `${path}&sort=window_start.asc`);
            assert.equal(got.status, 200, got.text);
            assert.deepEqual(
              got.body.results.map((r: Record<string, unknown>) => Object.entries(r)),
              example.results.map((candle: Record<string, number>) =>
                Object.entries({ ...candle, window_start: BigInt(candle.window_start as number) }),
              ),
            );
          }
          assert.equal(seen.length, 1, seen.join('\n'));
          assert.match(
            seen[0] as string,
            /^\/futures\/v1\/aggs\/GCJ5\?resolution=1session&window_start\.gte=/,
          );
          // The week holding them sums them (its other days fetched: none); a week has no settlement.
          const week = await get(cache.url, '/futures/v1/aggs/GCJ5?resolution=1week&window_start=2025-02-02');
          assert.equal(week.body.results[0].settlement_price, undefined);
          const [a, b] = example.results;
          assert.equal(week.body.results[0].transactions, a.transactions + b.transactions);
          assert.equal(
            week.body.results[0].dollar_volume,
            Math.round((a.dollar_volume + b.dollar_volume) * 100) / 100,
          );
          assert.equal(week.body.results.length, 1);
        } finally {
          await cache.close();
        }
      });
    } finally {
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  test('futures rows ingested from files stay as they are: their dates are covered as such, not fetched into', async (t) => {
    await withFuturesCachingServer(
      t,
      { seed: (store) => ingestLean(store, futuresRoot).then(() => {}) },
      NOW,
      async ({ server: upstream, proxy, cache }) => {
        const store = cache.store as DuckDbStore;
        const minutes = "SELECT * FROM bars WHERE ticker = 'GCZ3' AND resolution = 'minute'";
        const before = await countRows(store, minutes);
        // 2013-10-04 (a Friday) holds no rows: it is stored from upstream; the 7th and 8th keep their files.
        const path =
          '/futures/v1/aggs/GCZ3?resolution=1min&window_start.gte=2013-10-04&window_start.lt=2013-10-08&limit=50000';
        const got = await get(cache.url, path);
        assert.equal(got.status, 200, got.text);
        assert.equal(normal(got.text, cache.url), normal((await get(upstream.url, path)).text, upstream.url));
        assert.equal(proxy.seen.length, 1);
        assert.equal(await countRows(store, minutes), before, 'no row written twice');
        const status = await cacheStatus(store, 'GCZ3');
        assert.deepEqual(
          status.ranges.map((r) => [r.first, r.last, r.source]),
          [
            ['2013-10-04', '2013-10-06', 'upstream'],
            ['2013-10-07', '2013-10-08', 'files'],
          ],
        );
      },
    );
  });

  test("the service's futures fields Lean's files lack (settlement price, report sequence, channel, bid and ask times) are stored and answered back offline", async (t) => {
    // The upstream gives them: written into its store after the Lean data is ingested.
    const upstreamSeed = async (store: DuckDbStore) => {
      await store.run(
        "UPDATE bars SET settlement_price = round(c + 0.3, 1) WHERE ticker = 'GCZ3' AND resolution = 'day'",
      );
      await store.run(
        "UPDATE trades SET report_sequence = sequence_number * 7 + 1, channel = 360 WHERE ticker = 'GCZ3'",
      );
      await store.run(
        `UPDATE quotes SET report_sequence = sequence_number + 1000, channel = 361,
          bid_timestamp = sip_timestamp - 1000, ask_timestamp = sip_timestamp - 2000 WHERE ticker = 'GCZ3'`,
      );
    };
    const fields: [path: string, fields: RegExp][] = [
      [
        '/futures/v1/aggs/GCZ3?resolution=1session&window_start.gte=2013-09-01&window_start.lt=2013-10-12',
        /"session_end_date":"[^"]+","settlement_price":\d+(\.\d+)?,"ticker"/,
      ],
      [
        '/futures/v1/trades/GCZ3?session_end_date=2013-10-08&limit=50&sort=timestamp.asc',
        /\{"channel":360,"price":[^,]+,"report_sequence":\d+,"sequence_number"/,
      ],
      [
        '/futures/vX/quotes/GCZ3?session_end_date=2013-10-08&limit=50',
        /"ask_timestamp":\d+,"bid_price":[^,]+,"bid_size":[^,]+,"bid_timestamp":\d+,"channel":361,"report_sequence":\d+,"sequence_number"/,
      ],
    ];
    await withFuturesCachingServer(
      t,
      { upstreamSeed },
      NOW,
      async ({ server: upstream, proxy, cache, db }) => {
        const want = new Map<string, string>();
        for (const [path, pattern] of fields) {
          const direct = await get(upstream.url, path);
          assert.equal(direct.status, 200, direct.text);
          assert.match(direct.text, pattern, `the upstream gives them: ${path}`);
          want.set(path, normal(direct.text, upstream.url));
          const got = await get(cache.url, path);
          assert.equal(normal(got.text, cache.url), want.get(path), path);
        }
        const calls = proxy.seen.length;
        await upstream.close();
        await cache.close();
        await withOfflineServer(db, NOW, async (offline) => {
          for (const [path] of fields) {
            const got = await get(offline.url, path);
            assert.equal(normal(got.text, offline.url), want.get(path), `offline ${path}`);
          }
        });
        assert.equal(proxy.seen.length, calls);
      },
    );
  });
});
