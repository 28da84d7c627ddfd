import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startServer } from '../../../src/server/index.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { cacheStatus, clearCache } from '../../../src/server/upstream/cache-admin.js';
import {
  countRows,
  firstPass,
  get,
  offlinePass,
  type Recorded,
  secondPass,
  withCachingApp,
  withCachingServer,
  withoutOrigin,
} from '../../support/upstream-rig.js';

/**
 * Reference listings of many tickers stored as data: the tickers listing of a set of filters is fetched
 * whole once, stored as rows of the `tickers` table, and answered from them with any limit, sort, order
 * or page, online and offline.
 */

/**
 * The clock of every server: a ticker of the Lean store has no `last_updated_utc` of its own, and is
 * listed with the upstream's day.
 */
const NOW = Date.UTC(2013, 9, 9, 15);

const normal = withoutOrigin;

/** Listings recorded through the upstream: one fetch each of their filters. */
const RECORDED = [
  '/v3/reference/tickers?market=stocks&limit=4',
  '/v3/reference/tickers?market=stocks&active=false',
  '/v3/reference/tickers?market=stocks&type=ETF',
];

const RECORDING: Recorded = { paths: RECORDED, normal };

/** Listings of the recorded filters with another limit, sort, order or page size. */
const COVERED = [
  '/v3/reference/tickers?market=stocks&active=true&sort=name&order=desc&limit=3',
  '/v3/reference/tickers?limit=1000&market=stocks',
  '/v3/reference/tickers?market=stocks&sort=primary_exchange&limit=2',
  '/v3/reference/tickers?type=ETF&market=stocks&order=desc',
  '/v3/reference/tickers?market=stocks&sort=last_updated_utc&order=desc&limit=3',
];

describe('caching server: reference listings', () => {
  test('a tickers listing is stored whole for its filters and answered from the store with any limit, sort or order, also offline', async (t) => {
    await withCachingServer(
      t,
      {},
      async (rig) => {
        const { lean, proxy, cache } = rig;
        const truth = await startServer({ store: lean, port: 0, log: () => {}, now: NOW });
        try {
          const first = await firstPass(cache.url, truth.url, RECORDING, {
            check: (path, got) =>
              assert.ok(got[0]?.body.results?.length > 0, `${path} has results: ${got[0]?.text}`),
          });
          // One whole fetch per set of filters, however many pages the client read.
          assert.deepEqual(
            proxy.seen.map((s) => s.url),
            [
              '/v3/reference/tickers?active=true&market=stocks&limit=1000',
              '/v3/reference/tickers?active=false&market=stocks&limit=1000',
              '/v3/reference/tickers?active=true&market=stocks&type=ETF&limit=1000',
            ],
          );
          for (const path of COVERED) {
            const got = await get(cache.url, path);
            assert.equal(got.status, 200, got.text);
            assert.equal(
              normal(got.text, cache.url),
              normal((await get(truth.url, path)).text, truth.url),
              path,
            );
          }
          assert.equal(proxy.seen.length, 3, 'other limits, sorts and orders are answered from the store');

          // Other filters go upstream.
          const other = '/v3/reference/tickers?market=crypto';
          const crypto = await get(cache.url, other);
          assert.equal(normal(crypto.text, cache.url), normal((await get(truth.url, other)).text, truth.url));
          assert.equal(proxy.seen.length, 4);
          assert.equal(proxy.seen[3]?.url, '/v3/reference/tickers?active=true&market=crypto&limit=1000');

          // The upstream goes away: the same answers from the store, with no upstream call.
          await secondPass(rig, first, RECORDING);
          assert.equal(proxy.seen.length, 4);

          await offlinePass(rig, NOW, first, RECORDING, async (offline) => {
            const missing = await get(offline.url, '/v3/reference/tickers?market=indices');
            assert.equal(missing.status, 404, missing.text);
            assert.equal(missing.body.status, 'NOT_FOUND');
            assert.match(
              missing.body.message,
              /tickers listing of active=true&market=indices; this server is offline/,
            );
            assert.equal(proxy.seen.length, 4);
          });
        } finally {
          await truth.close();
        }
      },
      NOW,
    );
  });

  test('a listing the store cannot filter or sort as the service does goes upstream as it is', async (t) => {
    await withCachingServer(t, {}, async ({ proxy, cache }) => {
      for (const path of [
        '/v3/reference/tickers?search=apple',
        '/v3/reference/tickers?market=stocks&date=2013-10-07',
        '/v3/reference/tickers?market=stocks&cik=0000320193',
      ]) {
        const got = await get(cache.url, path);
        assert.equal(got.status, 200, got.text);
        assert.equal(proxy.seen.at(-1)?.url, path);
      }
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM coverage'), 0);
    });
  });

  for (const [name, fault, status] of [
    ['a 500', { status: 500 }, 500],
    ['a connection dropped halfway through the page', 'drop-mid-body', 502],
  ] as const) {
    test(`${name} while fetching a tickers listing stores nothing; the next request fetches it whole`, async (t) => {
      await withCachingServer(t, { maxRetries: 0 }, async ({ lean, proxy, cache }) => {
        const store = cache.store as DuckDbStore;
        proxy.script = () => fault;
        const path = '/v3/reference/tickers?market=stocks';
        const failed = await get(cache.url, path);
        assert.equal(failed.status, status, failed.text);
        assert.equal(failed.body.status, 'ERROR');
        for (const table of ['tickers', 'listed_rows', 'coverage'])
          assert.equal(await countRows(store, `SELECT * FROM ${table}`), 0, table);

        proxy.script = () => 'forward';
        const ok = await get(cache.url, path);
        assert.equal(ok.status, 200, ok.text);
        const stocks = "SELECT * FROM tickers WHERE market = 'stocks' AND active";
        assert.equal(await countRows(store, stocks), await countRows(lean, stocks));
        assert.equal(ok.body.results.length, await countRows(lean, stocks));
      });
    });
  }

  test('an option contracts listing is stored whole for its filters and answered from the store with any limit, sort or order, also offline', async (t) => {
    /** 2015-12-24 16:00 UTC: GOOG's contracts of the day are listed. */
    const now = Date.UTC(2015, 11, 24, 16);
    await withCachingServer(
      t,
      {},
      async (rig) => {
        const { lean, server: upstream, proxy, cache } = rig;
        const truth = await startServer({ store: lean, port: 0, log: () => {}, now });
        try {
          const recorded: Recorded = {
            paths: [
              '/v3/reference/options/contracts?underlying_ticker=GOOG&limit=400',
              '/v3/reference/options/contracts?underlying_ticker=GOOG&contract_type=put&as_of=2015-12-23',
            ],
            normal,
          };
          const first = await firstPass(cache.url, truth.url, recorded);
          assert.ok((first.get(recorded.paths[0] as string)?.length ?? 0) > 2, 'GOOG has several pages');
          // Every page of 1000 of each listing, once: GOOG's 2192 contracts are three.
          assert.equal(proxy.seen.length, 3 + 2);
          for (const path of [
            '/v3/reference/options/contracts?underlying_ticker=GOOG&sort=strike_price&order=desc&limit=7',
            '/v3/reference/options/contracts?limit=3&underlying_ticker=GOOG&expired=false&sort=expiration_date',
          ]) {
            const got = await get(cache.url, path);
            assert.equal(got.status, 200, got.text);
            assert.equal(
              normal(got.text, cache.url),
              normal((await get(truth.url, path)).text, truth.url),
              path,
            );
          }
          assert.equal(proxy.seen.length, 5, 'other limits, sorts and orders are answered from the store');

          // SPX is an index the caching store does not list: its contracts would lose their index code.
          const spx = '/v3/reference/options/contracts?underlying_ticker=SPX&as_of=2021-01-04';
          const got = await get(cache.url, spx);
          assert.equal(normal(got.text, cache.url), normal((await get(truth.url, spx)).text, truth.url));
          assert.match(got.text, /"cfi":"O.EIC/);
          assert.equal(proxy.seen.at(-1)?.url, spx, 'passed upstream as it is');
          const store = cache.store as DuckDbStore;
          assert.equal(
            await countRows(store, "SELECT * FROM option_contracts WHERE underlying_ticker = 'SPX'"),
            0,
          );

          await upstream.close();
          await offlinePass(rig, now, first, recorded, async (offline) => {
            const missing = await get(offline.url, '/v3/reference/options/contracts?underlying_ticker=AAPL');
            assert.equal(missing.status, 404, missing.text);
            assert.match(
              missing.body.message,
              /option contracts listing of expired=false&underlying_ticker=AAPL/,
            );
          });
        } finally {
          await truth.close();
        }
      },
      now,
    );
  });

  test('a connection dropped on a later page of a contracts listing stores nothing', async (t) => {
    await withCachingServer(t, { maxRetries: 0 }, async ({ proxy, cache }) => {
      const store = cache.store as DuckDbStore;
      proxy.script = (req) => (req.url.includes('cursor=') ? 'drop-mid-body' : 'forward');
      const path = '/v3/reference/options/contracts?underlying_ticker=GOOG&as_of=2015-12-24';
      const failed = await get(cache.url, path);
      assert.equal(failed.status, 502, failed.text);
      assert.equal(proxy.seen.length, 2);
      for (const table of ['option_contracts', 'listed_rows', 'coverage'])
        assert.equal(await countRows(store, `SELECT * FROM ${table}`), 0, table);
    });
  });

  test('rows ingested from files stay as they are when a listing holds them, and when it is cleared', async (t) => {
    const seed = async (store: DuckDbStore) => {
      await store.run(
        "INSERT INTO tickers (ticker, name, market, locale, type, active) VALUES ('AAPL', 'From files', 'stocks', 'us', 'CS', TRUE)",
      );
    };
    await withCachingApp(t, { now: Date.UTC(2013, 9, 10, 12), seed }, async ({ store, app, lean, proxy }) => {
      const res = await app.request('/v3/reference/tickers?market=stocks&apiKey=local');
      assert.equal(res.status, 200);
      const body = (await res.json()) as { results: { ticker: string; name: string }[] };
      const stocks = "SELECT * FROM tickers WHERE market = 'stocks' AND active";
      assert.equal(body.results.length, await countRows(lean, stocks));
      assert.equal(body.results.find((r) => r.ticker === 'AAPL')?.name, 'From files');
      assert.equal(proxy.seen.length, 1);
      assert.deepEqual(
        (await cacheStatus(store)).ranges.map((r) => [r.ticker, r.kind, r.source]),
        [['active=true&market=stocks', 'tickers', 'upstream']],
      );
      // The listing holds the rows it wrote, not the ingested one.
      assert.equal(await countRows(store, 'SELECT * FROM listed_rows'), body.results.length - 1);

      assert.equal(await clearCache(store), 1);
      assert.deepEqual(
        (await store.all<{ ticker: string; name: string }>('SELECT ticker, name FROM tickers')).map((r) => [
          r.ticker,
          r.name,
        ]),
        [['AAPL', 'From files']],
      );
      assert.equal(await countRows(store, 'SELECT * FROM listed_rows'), 0);
    });
  });
});
