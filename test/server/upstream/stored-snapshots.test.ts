import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { parseJson, stringifyJson } from '../../../src/core/json.js';
import { startServer } from '../../../src/server/index.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { cacheStatus, clearCache } from '../../../src/server/upstream/cache-admin.js';
import { hasShared, recordedDir, referenceDir } from '../../support/shared.js';
import { withStoreFile } from '../../support/store.js';
import {
  countRows,
  get,
  withCachingApp,
  withCachingServer,
  withOfflineServer,
  withoutOrigin,
} from '../../support/upstream-rig.js';

/**
 * Snapshots stored as data: each ticker's snapshot object of any snapshot answer is a row, and a request
 * naming tickers is answered from their rows, whichever answer brought them.
 */

/** 2015-12-24 16:00 UTC, 11:00 in New York: the day of GOOG's full option chain. */
const NOW = Date.UTC(2015, 11, 24, 16);

/** Wider requests, each followed by narrower ones their rows answer. */
const WIDER_THEN_NARROWER: readonly [string, readonly string[]][] = [
  [
    '/v2/snapshot/locale/us/markets/stocks/tickers',
    [
      '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,GOOG',
      '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=GOOG',
      '/v2/snapshot/locale/us/markets/stocks/tickers/SPY',
    ],
  ],
  [
    '/v2/snapshot/locale/global/markets/forex/tickers?tickers=C:EURUSD,C:NZDUSD',
    [
      '/v2/snapshot/locale/global/markets/forex/tickers/C:EURUSD',
      '/v2/snapshot/locale/global/markets/forex/tickers?tickers=NZDUSD',
    ],
  ],
  [
    '/v3/snapshot?ticker.any_of=GOOG,SPY,C:EURUSD',
    ['/v3/snapshot?ticker.any_of=C:EURUSD,GOOG', '/v3/snapshot?ticker.any_of=SPY&limit=5'],
  ],
  ['/v3/snapshot/indices', ['/v3/snapshot/indices?ticker.any_of=I:VIX']],
];

const CHAIN = '/v3/snapshot/options/GOOG?limit=4';

const OTHER_ANSWERS = [
  '/v1/indicators/sma/GOOG?timespan=day&window=5&limit=3',
  '/v2/aggs/grouped/locale/global/market/crypto/2015-12-23',
  '/v2/snapshot/locale/us/markets/stocks/gainers',
];

describe('caching server: snapshots stored as rows', () => {
  test('a subset, one ticker, a universal list or a contract of a chain fetched before is answered from rows with no upstream call, as the service answers it; offline too, and by a server with no upstream', async (t) => {
    await withCachingServer(
      t,
      {},
      async ({ lean, proxy, cache, db }) => {
        const truth = await startServer({ store: lean, port: 0, log: () => {}, now: NOW });
        const same = async (base: string, path: string) => {
          const got = await get(base, path);
          const want = await get(truth.url, path);
          assert.equal(got.status, 200, `${path}: ${got.text.slice(0, 300)}`);
          assert.equal(want.status, 200, `${path} (upstream): ${want.text.slice(0, 300)}`);
          assert.equal(withoutOrigin(got.text, base), withoutOrigin(want.text, truth.url), path);
          return got;
        };
        const narrower: string[] = [];
        try {
          for (const [wide, narrow] of WIDER_THEN_NARROWER) {
            const calls = proxy.seen.length;
            await same(cache.url, wide);
            assert.equal(proxy.seen.length, calls + 1, wide);
            for (const path of narrow) {
              await same(cache.url, path);
              assert.equal(proxy.seen.length, calls + 1, `${path}: answered from rows`);
              narrower.push(path);
            }
          }
          // An option contract after its chain's page.
          const chain = await same(cache.url, CHAIN);
          const contract = chain.body.results[2].details.ticker as string;
          const calls = proxy.seen.length;
          const one = `/v3/snapshot/options/GOOG/${contract}`;
          await same(cache.url, one);
          assert.equal(proxy.seen.length, calls, `${one}: answered from rows`);
          narrower.push(one);
          // A ticker not stored is fetched with its request, which stores its row.
          await same(cache.url, '/v2/snapshot/locale/global/markets/forex/tickers?tickers=C:EURUSD,C:EURGBP');
          assert.equal(proxy.seen.length, calls + 1);
          await same(cache.url, '/v2/snapshot/locale/global/markets/forex/tickers/C:EURGBP');
          assert.equal(proxy.seen.length, calls + 1);
          // Other answers stored as fetched, which a server with no upstream answers too.
          for (const path of OTHER_ANSWERS) await same(cache.url, path);
          await cache.close();

          await withOfflineServer(db, NOW, async (offline) => {
            for (const path of narrower) await same(offline.url, path);
            const missing = await get(
              offline.url,
              '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,ZZZQ',
            );
            assert.equal(missing.status, 404, missing.text);
            assert.equal(missing.body.status, 'NOT_FOUND');
            assert.match(missing.body.message, /stocks snapshot of ZZZQ;.*offline/);
          });

          // No upstream at all: the store answers what was recorded (it holds no bars to compute from).
          const plain = await startServer({ db, port: 0, log: () => {}, now: NOW });
          try {
            for (const path of narrower) await same(plain.url, path);
            for (const [wide] of WIDER_THEN_NARROWER) await same(plain.url, wide);
            await same(plain.url, CHAIN);
            for (const path of OTHER_ANSWERS) await same(plain.url, path);
            // A ticker not recorded: the local route answers, from a store that lists no tickers.
            const partly = await get(
              plain.url,
              '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,ZZZQ',
            );
            assert.equal(partly.status, 200, partly.text);
            assert.equal(partly.body.count, 0);
            // Nothing stored for it: the local route answers from the store, which holds no bars.
            const bars = await get(plain.url, '/v2/aggs/ticker/GOOG/range/1/day/2015-12-01/2015-12-23');
            assert.equal(bars.status, 200, bars.text);
            assert.equal(bars.body.resultsCount, 0);
          } finally {
            await plain.close();
          }
          assert.equal(proxy.seen.length, calls + 1 + OTHER_ANSWERS.length);
        } finally {
          await truth.close();
        }
      },
      NOW,
    );
  });

  test('the tickers of gainers and losers fetched before are answered from their rows', async (t) => {
    // The Lean data has stock movers on 2013-10-08.
    const now = Date.UTC(2013, 9, 8, 18);
    await withCachingServer(
      t,
      {},
      async ({ server: upstream, proxy, cache }) => {
        const movers = await get(cache.url, '/v2/snapshot/locale/us/markets/stocks/losers');
        assert.equal(movers.status, 200, movers.text);
        const tickers = (movers.body.tickers as { ticker: string }[]).map((x) => x.ticker);
        assert.ok(tickers.length > 1, movers.text.slice(0, 300));
        const calls = proxy.seen.length;
        for (const path of [
          `/v2/snapshot/locale/us/markets/stocks/tickers/${tickers[0]}`,
          `/v2/snapshot/locale/us/markets/stocks/tickers?tickers=${tickers.slice(0, 2).reverse().join(',')}`,
        ]) {
          const got = await get(cache.url, path);
          const want = await get(upstream.url, path);
          assert.equal(got.status, 200, got.text);
          assert.equal(withoutOrigin(got.text, cache.url), withoutOrigin(want.text, upstream.url), path);
        }
        assert.equal(proxy.seen.length, calls, 'answered from rows');
      },
      now,
    );
  });

  test('rows older than the age allowed are fetched again; mdq cache status lists them and clear removes them', async (t) => {
    await withCachingApp(
      t,
      { now: NOW, upstreamNow: NOW, upstream: { maxAgeSeconds: 60 } },
      async ({ app, proxy, clock, store, layer }) => {
        const ask = async (path: string) => {
          const res = await app.request(`${path}${path.includes('?') ? '&' : '?'}apiKey=local`);
          assert.equal(res.status, 200, await res.clone().text());
        };
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers');
        assert.equal(proxy.seen.length, 1);
        clock.now += 59_000;
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers/SPY');
        assert.equal(proxy.seen.length, 1, 'fresh: from its row');
        clock.now += 2_000;
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers/SPY');
        assert.equal(proxy.seen.length, 2, 'aged: fetched again');
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY');
        assert.equal(proxy.seen.length, 2, 'fetched again: fresh');
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,GOOG');
        assert.equal(proxy.seen.length, 3, 'GOOG aged');

        const status = await cacheStatus(store as DuckDbStore);
        const spy = status.ranges.find((r) => r.ticker === 'SPY' && r.kind === 'snapshot:stocks');
        assert.equal(spy?.rows, 1);
        assert.ok((spy?.bytes ?? 0) > 100);
        assert.equal(await clearCache(store, 'SPY'), 1);
        assert.equal(await countRows(store, "SELECT * FROM snapshots WHERE ticker = 'SPY'"), 0);
        assert.equal(await countRows(store, "SELECT * FROM snapshots WHERE ticker = 'GOOG'"), 1);
        await ask('/v2/snapshot/locale/us/markets/stocks/tickers/SPY');
        assert.equal(proxy.seen.length, 4, 'cleared: fetched again');

        // A refresh of a ticker fetches its own snapshot again: an option contract's by its underlying.
        await ask(CHAIN);
        const contract = (
          await store.all<{ ticker: string }>(
            "SELECT ticker FROM snapshots WHERE kind = 'snapshot:options' ORDER BY ticker LIMIT 1",
          )
        )[0]?.ticker as string;
        clock.now += 1_000;
        for (const ticker of ['GOOG', contract]) {
          const done = await layer.refresh(ticker, { first: '2015-12-24', last: '2015-12-24' });
          assert.deepEqual(
            done.map((d) => d.kind),
            [ticker === 'GOOG' ? 'snapshot:stocks' : 'snapshot:options'],
          );
        }
        assert.deepEqual(
          proxy.seen.slice(-2).map((s) => s.url.replace(/[?&]apiKey=[^&]*/, '')),
          ['/v2/snapshot/locale/us/markets/stocks/tickers/GOOG', `/v3/snapshot/options/GOOG/${contract}`],
        );
        const fresh = await store.all<{ n: bigint }>(
          `SELECT count(*) AS n FROM snapshots WHERE ticker IN ('GOOG', $1)
            AND fetched_at = make_timestamp($2::BIGINT * 1000)`,
          [contract, clock.now],
        );
        assert.equal(Number(fresh[0]?.n), 2);
      },
    );
  });

  test('a fetch cut mid-answer stores nothing', async (t) => {
    await withCachingServer(
      t,
      { maxRetries: 0 },
      async ({ proxy, cache }) => {
        const store = cache.store as DuckDbStore;
        proxy.script = () => 'drop-mid-body';
        for (const path of [
          '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,GOOG',
          '/v2/snapshot/locale/us/markets/stocks/tickers',
          CHAIN,
        ]) {
          const failed = await get(cache.url, path);
          assert.equal(failed.status, 502, failed.text);
          assert.match(failed.body.error, /nothing of this request was stored/);
        }
        for (const table of ['snapshots', 'coverage', 'reference_records'])
          assert.equal(await countRows(store, `SELECT * FROM ${table}`), 0, table);
        proxy.script = () => 'forward';
        assert.equal(
          (await get(cache.url, '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=SPY,GOOG')).status,
          200,
        );
        assert.equal(await countRows(store, 'SELECT * FROM snapshots'), 2);
      },
      NOW,
    );
  });

  test("one ticker's snapshots stored as answers by an earlier version become rows of their market when the store is opened", async () => {
    const item =
      '{"day":{"c":20.506,"dv":"37216.0","v":37216},"lastQuote":{"P":20.6,"t":1605192959994246100},"ticker":"SPY","todaysChange":-0.0,"updated":1605192894630916600}';
    await withStoreFile(async (db) => {
      const store = await DuckDbStore.open(db);
      try {
        // The store as schema 7 left it.
        await store.run('DROP TABLE snapshots');
        await store.run("UPDATE meta SET value = '7' WHERE key = 'schema_version'");
        for (const [ticker, body] of [
          ['SPY', item],
          ['C:EURUSD', item.replace('"SPY"', '"C:EURUSD"')],
        ])
          await store.run(
            "INSERT INTO reference_records (kind, id, ticker, date, body) VALUES ('snapshot', $1, $1, NULL, $2)",
            [ticker as string, `{"request_id":"","status":"OK","ticker":${body}}`],
          );
        await store.run(
          `INSERT INTO coverage VALUES ('SPY', 'snapshot', DATE '0001-01-01', DATE '9999-12-31', TIMESTAMP '2026-01-02 03:04:05', false, 'upstream'),
            ('C:EURUSD', 'snapshot', DATE '0001-01-01', DATE '9999-12-31', TIMESTAMP '2026-01-02 03:04:05', false, 'upstream')`,
        );
      } finally {
        store.close();
      }
      const migrated = await DuckDbStore.open(db);
      try {
        const rows = await migrated.all<{ kind: string; ticker: string; at: string; body: string }>(
          "SELECT kind, ticker, strftime(fetched_at, '%Y-%m-%d %H:%M:%S') AS at, body FROM snapshots ORDER BY ticker",
        );
        assert.deepEqual(
          rows.map((r) => [r.kind, r.ticker, r.at]),
          [
            ['snapshot:forex', 'C:EURUSD', '2026-01-02 03:04:05'],
            ['snapshot:stocks', 'SPY', '2026-01-02 03:04:05'],
          ],
        );
        assert.equal(rows[1]?.body, item);
        assert.deepEqual(
          (await migrated.all<{ kind: string }>('SELECT kind FROM coverage ORDER BY kind')).map(
            (r) => r.kind,
          ),
          ['snapshot:forex', 'snapshot:stocks'],
        );
        assert.equal(await countRows(migrated, 'SELECT * FROM reference_records'), 0);
      } finally {
        migrated.close();
      }
    });
  });

  test("the service's recorded answers: a narrower request gives back their snapshot objects from rows, in the service's key order", async (t) => {
    if (!hasShared(t, recordedDir)) return;
    // The recorded answers as an upstream (file names by the rule of recorded/INDEX.md).
    const seen: string[] = [];
    const upstream = createServer((req, res) => {
      const url = req.url ?? '/';
      seen.push(url);
      const q = url.indexOf('?');
      const path = (q < 0 ? url : url.slice(0, q)).replace(':', ';').slice(1);
      let file = `${recordedDir}${path}${q < 0 ? '' : `&${url.slice(q + 1)}`}.json`;
      if (!existsSync(file)) file = `${recordedDir}${path}/index.json`;
      const found = existsSync(file);
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      res.end(
        found ? readFileSync(file) : '{"status":"NOT_FOUND","request_id":"x","message":"no recording"}',
      );
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const recorded = (path: string) => parseJson(readFileSync(`${recordedDir}${path}`, 'utf8')) as any;
    const keys = (o: object) => Object.keys(o);
    try {
      await withStoreFile(async (db) => {
        const cache = await startServer({
          db,
          port: 0,
          log: () => {},
          upstream: { url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, apiKey: 'k' },
        });
        try {
          const fetched = async (path: string) => {
            const answer = await get(cache.url, path);
            assert.equal(answer.status, 200, `${path}: ${answer.text.slice(0, 300)}`);
            return answer;
          };
          const fromRows = async (path: string) => {
            const calls = seen.length;
            const answer = await fetched(path);
            assert.equal(seen.length, calls, `${path}: answered from rows`);
            return parseJson(answer.text) as any;
          };
          const same = (got: unknown, want: unknown, what: string) =>
            assert.equal(stringifyJson(got), stringifyJson(want), what);

          const many = recorded('v2/snapshot/locale/us/markets/stocks/tickers/index.json');
          await fetched('/v2/snapshot/locale/us/markets/stocks/tickers');
          const subset = await fromRows('/v2/snapshot/locale/us/markets/stocks/tickers?tickers=BCAT');
          assert.deepEqual(keys(subset), keys(many));
          same(subset.tickers, many.tickers, 'tickers=BCAT');
          const one = await fromRows('/v2/snapshot/locale/us/markets/stocks/tickers/BCAT');
          assert.deepEqual(
            keys(one),
            keys(recorded('v2/snapshot/locale/us/markets/stocks/tickers/AAPL.json')),
          );
          same(one.ticker, many.tickers[0], 'BCAT');

          const chain = recorded('v3/snapshot/options/AAPL.json');
          await fetched('/v3/snapshot/options/AAPL');
          const contract = await fromRows('/v3/snapshot/options/AAPL/O:AAPL230616C00150000');
          assert.deepEqual(
            keys(contract),
            keys(recorded('v3/snapshot/options/AAPL/O;AAPL230616C00150000.json')),
          );
          same(contract.results, chain.results[0], 'a contract of the chain');
          // Asked under another underlying, the row does not answer: the service does.
          const calls = seen.length;
          const other = await get(cache.url, '/v3/snapshot/options/MSFT/O:AAPL230616C00150000');
          assert.equal(seen.length, calls + 1);
          assert.equal(other.status, 404, other.text);

          const universal = recorded('v3/snapshot.json');
          await fetched('/v3/snapshot');
          const listed = await fromRows('/v3/snapshot?ticker.any_of=AAPL,O:NCLH221014C00005000');
          assert.deepEqual(keys(listed), keys(universal));
          same(listed.results, [universal.results[1], universal.results[0]], 'universal ticker.any_of');

          const indices = recorded('v3/snapshot/indices&ticker.any_of=SPX%2CAPx%2CAPy.json');
          const asked = await fetched('/v3/snapshot/indices?ticker.any_of=SPX,APx,APy');
          same((parseJson(asked.text) as any).results, indices.results, 'indices fetched');
          const spx = await fromRows('/v3/snapshot/indices?ticker.any_of=SPX');
          assert.deepEqual(
            keys(spx),
            keys(JSON.parse(readFileSync(`${referenceDir}spec-examples/GetIndicesSnapshot.json`, 'utf8'))),
          );
          same(spx.results, [indices.results[0]], 'SPX');
        } finally {
          await cache.close();
        }
      });
    } finally {
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
