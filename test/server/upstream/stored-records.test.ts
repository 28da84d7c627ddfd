import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { createApp } from '../../../src/server/app.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { ingestJson } from '../../../src/server/ingest/json.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { ReadThrough } from '../../../src/server/upstream/read-through.js';
import { type ScriptedProxy, startScriptedProxy } from '../../support/scripted-proxy.js';
import { hasShared, recordedDir, referenceDir } from '../../support/shared.js';
import { withStoreFile } from '../../support/store.js';
import {
  type Answer,
  allPages,
  countRows,
  firstPass,
  get,
  offlinePass,
  type Recorded,
  withCachingServer,
  withOfflineServer,
  withoutOrigin,
} from '../../support/upstream-rig.js';

/**
 * Related companies, ticker events and the IPOs listing stored as records of the store's own table
 * (`reference_records`, by the path of `mdq ingest json`), not as answers: the same request, and the
 * IPOs listing of the same filters with any limit, sort, order or page, is answered from them online,
 * offline, and by `mdq serve --db` without an upstream.
 */

const EVENTS = `${recordedDir}vX/reference/tickers/META/events&types=ticker_change.json`;
const OPENAPI = `${referenceDir}openapi.json`;

/** The clock of every server. */
const NOW = Date.UTC(2024, 6, 1, 15);

/** IPOs the upstream lists: more than a page of 1000, so that a whole listing is two pages. */
const IPO_COUNT = 1005;

type Json = Record<string, unknown>;

/** The example answer of an operation in the specification. */
function specExample(path: string): Json {
  const spec = JSON.parse(readFileSync(OPENAPI, 'utf8'));
  return spec.paths[path].get.responses['200'].content['application/json'].example;
}

/** A ticker of letters for `i` (AA, AB, ...): listings filter and sort on it. */
const tickerOf = (i: number) =>
  `${String.fromCharCode(65 + Math.floor(i / 676))}${String.fromCharCode(65 + (Math.floor(i / 26) % 26))}${String.fromCharCode(65 + (i % 26))}`;

const STATUSES = ['history', 'pending', 'new', 'withdrawn', 'rumor'];

/**
 * The upstream's IPOs: the specification's example record, varied in its ticker, issuer, status,
 * listing date and price, each field where the example has it.
 */
function ipoRecords(): Json[] {
  const [example] = specExample('/vX/reference/ipos').results as Json[];
  return Array.from({ length: IPO_COUNT }, (_, i) => ({
    ...example,
    final_issue_price: 10 + ((i * 7) % 40),
    ipo_status: STATUSES[i % STATUSES.length],
    issuer_name: `Issuer ${(i * 37) % IPO_COUNT} Inc.`,
    listing_date: new Date(Date.UTC(2024, 5, 7) - i * 86_400_000).toISOString().slice(0, 10),
    ticker: tickerOf(i),
  }));
}

/** An upstream server over a store of recorded and specified records (events, related companies, IPOs). */
interface RecordsUpstream {
  server: RunningServer;
  proxy: ScriptedProxy;
}

/**
 * Runs `fn` with an upstream whose store `mdq ingest json` loaded with META's recorded events, the
 * specification's related companies of AAPL and {@link IPO_COUNT} IPOs, behind a proxy. Skips without
 * `../shared`.
 */
async function withRecordsUpstream(
  t: TestContext,
  fn: (u: RecordsUpstream) => Promise<void>,
  seed?: (store: DuckDbStore) => Promise<void>,
): Promise<void> {
  if (!hasShared(t, EVENTS) || !hasShared(t, OPENAPI)) return;
  await withStoreFile(async (db) => {
    const related = join(dirname(db), 'related.json');
    writeFileSync(related, JSON.stringify(specExample('/v1/related-companies/{ticker}')));
    const iposFile = join(dirname(db), 'ipos.json');
    writeFileSync(iposFile, JSON.stringify({ results: ipoRecords(), status: 'OK' }));
    const store = await DuckDbStore.open(db);
    try {
      const ingested = await ingestJson(store, [EVENTS, related, iposFile]);
      assert.equal(ingested.rows.reference_records, 2 + IPO_COUNT);
      await seed?.(store);
      const server = await startServer({ store, port: 0, log: () => {}, now: NOW });
      const proxy = await startScriptedProxy(server.url);
      try {
        await fn({ server, proxy });
      } finally {
        await proxy.close();
        await server.close();
      }
    } finally {
      store.close();
    }
  });
}

/** Requests recorded through the caching server: one fetch each (two pages for the whole IPOs listing). */
const RECORDED = [
  '/v1/related-companies/AAPL',
  '/vX/reference/tickers/META/events',
  '/vX/reference/ipos?limit=5',
  '/vX/reference/ipos?ipo_status=history&limit=1000',
];

/** Requests the recorded ones answer from the store: other types, limits, sorts, orders and pages. */
const COVERED = [
  '/vX/reference/tickers/META/events?types=ticker_change',
  '/vX/reference/tickers/META/events?types=ticker_change_other',
  '/vX/reference/ipos?sort=ticker&order=asc&limit=7',
  '/vX/reference/ipos?sort=final_issue_price&limit=4',
  '/vX/reference/ipos?limit=1000',
  '/vX/reference/ipos?ipo_status=history&sort=issuer_name&order=asc&limit=300',
];

const normal = withoutOrigin;

/** The first pages (three) of `path` from `base`, each as its normal text; every page must be a 200. */
async function pagesOf(base: string, path: string): Promise<string[]> {
  const pages = await allPages(base, path, 3);
  for (const p of pages) assert.equal(p.status, 200, `${path}: ${p.text.slice(0, 300)}`);
  return pages.map((p: Answer) => normal(p.text, base));
}

/**
 * Asserts that the store file `db` answers each of `paths` with the pages in `want`, both through an
 * offline caching server and through `mdq serve --db` alone.
 */
async function assertServedFromStore(db: string, paths: readonly string[], want: Map<string, string[]>) {
  for (const upstreamOptions of [{ upstream: { offline: true } }, {}]) {
    const local = await startServer({ db, port: 0, log: () => {}, now: NOW, ...upstreamOptions });
    try {
      for (const path of paths)
        assert.deepEqual(
          await pagesOf(local.url, path),
          want.get(path),
          `${upstreamOptions.upstream ? 'offline' : 'mdq serve --db'} ${path}`,
        );
    } finally {
      await local.close();
    }
  }
}

describe('caching server: reference records', () => {
  test('related companies, ticker events and IPOs listings are stored as records and answered from the store, offline and by mdq serve --db', async (t) => {
    await withRecordsUpstream(t, async ({ server: upstream, proxy }) => {
      await withStoreFile(async (db) => {
        const want = new Map<string, string[]>();
        for (const path of [...RECORDED, ...COVERED]) want.set(path, await pagesOf(upstream.url, path));
        assert.equal(proxy.seen.length, 0);
        assert.equal(JSON.parse(want.get(RECORDED[3] as string)?.[0] ?? '{}').results.length, IPO_COUNT / 5);
        assert.equal(want.get('/vX/reference/ipos?limit=1000')?.length, 2, 'two pages of IPOs');

        const cache = await startServer({
          db,
          port: 0,
          upstream: { url: proxy.url },
          log: () => {},
          now: NOW,
        });
        try {
          for (const path of RECORDED) assert.deepEqual(await pagesOf(cache.url, path), want.get(path), path);
          // One whole fetch each, events of every type; the whole IPOs listing in pages of 1000.
          const seen = proxy.seen.map((s) => s.url);
          assert.deepEqual(
            seen.filter((u) => !u.includes('cursor=')),
            [
              '/v1/related-companies/AAPL',
              '/vX/reference/tickers/META/events',
              '/vX/reference/ipos?limit=1000',
              '/vX/reference/ipos?ipo_status=history&limit=1000',
            ],
          );
          assert.equal(seen.length, 5);
          assert.match(seen[3] ?? '', /^\/vX\/reference\/ipos\?.*cursor=/);
          for (const path of COVERED) assert.deepEqual(await pagesOf(cache.url, path), want.get(path), path);
          // Both passes again: no upstream call.
          for (const path of [...RECORDED, ...COVERED])
            assert.deepEqual(await pagesOf(cache.url, path), want.get(path), `again ${path}`);
          assert.equal(proxy.seen.length, 5, 'answered from the store');

          // Records in the store's own table, as mdq ingest json stores them.
          const store = cache.store as DuckDbStore;
          const kinds = await store.all<{ kind: string; n: bigint }>(
            "SELECT kind, count(*) AS n FROM reference_records WHERE kind <> 'answer' GROUP BY kind ORDER BY kind",
          );
          assert.deepEqual(
            kinds.map((k) => [k.kind, Number(k.n)]),
            [
              ['ipos', IPO_COUNT],
              ['related_companies', 1],
              ['ticker_events', 1],
            ],
          );
          assert.equal(await countRows(store, "SELECT * FROM reference_records WHERE kind = 'answer'"), 0);

          // Another set of filters is fetched whole once more.
          const later = '/vX/reference/ipos?listing_date.gte=2024-05-01&sort=ticker';
          assert.deepEqual(await pagesOf(cache.url, later), await pagesOf(upstream.url, later));
          assert.equal(proxy.seen.at(-1)?.url, '/vX/reference/ipos?listing_date.gte=2024-05-01&limit=1000');
          assert.equal(proxy.seen.length, 6);
        } finally {
          await cache.close();
        }

        await assertServedFromStore(db, [...RECORDED, ...COVERED], want);
        assert.equal(proxy.seen.length, 6);
      });
    });
  });

  test('the v1 IPOs listing is stored whole once per set of filters, as its own listing of the same records, and answered from the store, offline and by mdq serve --db', async (t) => {
    await withRecordsUpstream(t, async ({ server: upstream, proxy }) => {
      await withStoreFile(async (db) => {
        const recorded = [
          '/v1/reference/ipos?limit=5',
          '/v1/reference/ipos?ipo_status.any_of=history,new&ticker.lt=M&limit=1000',
        ];
        const covered = [
          '/v1/reference/ipos?sort=ticker.asc&limit=7',
          '/v1/reference/ipos?sort=final_issue_price.desc,ticker.asc&limit=4',
          '/v1/reference/ipos?sort=ipo_status,issuer_name.asc&limit=1000',
          '/v1/reference/ipos?ipo_status.any_of=history,new&ticker.lt=M&sort=issuer_name.asc&limit=300',
          // The same set of statuses in another order, repeated, or as repeated keys: the same listing.
          '/v1/reference/ipos?ipo_status.any_of=new,history&ticker.lt=M&limit=1000',
          '/v1/reference/ipos?ticker.lt=M&ipo_status.any_of=new,history,new&limit=20',
          '/v1/reference/ipos?ipo_status.any_of=new&ipo_status.any_of=history&ticker.lt=M&limit=1000',
        ];
        const vx = '/vX/reference/ipos?ipo_status=new&limit=50';
        const want = new Map<string, string[]>();
        for (const path of [...recorded, ...covered, vx]) want.set(path, await pagesOf(upstream.url, path));
        assert.equal(want.get(covered[2] as string)?.length, 2, 'two pages of IPOs');

        const cache = await startServer({
          db,
          port: 0,
          upstream: { url: proxy.url },
          log: () => {},
          now: NOW,
        });
        try {
          for (const path of recorded) assert.deepEqual(await pagesOf(cache.url, path), want.get(path), path);
          const seen = proxy.seen.map((s) => s.url);
          assert.deepEqual(
            seen.filter((u) => !u.includes('cursor=')),
            [
              '/v1/reference/ipos?limit=1000',
              '/v1/reference/ipos?ipo_status.any_of=history%2Cnew&ticker.lt=M&limit=1000',
            ],
          );
          assert.equal(seen.length, 3, 'the whole listing in two pages of 1000');
          for (const path of covered) assert.deepEqual(await pagesOf(cache.url, path), want.get(path), path);
          assert.equal(proxy.seen.length, 3, 'answered from the store');
          // The vX listing is its own: fetched once, beside the v1 one.
          assert.deepEqual(await pagesOf(cache.url, vx), want.get(vx));
          assert.equal(proxy.seen.at(-1)?.url, '/vX/reference/ipos?ipo_status=new&limit=1000');
          assert.equal(proxy.seen.length, 4);

          const store = cache.store as DuckDbStore;
          assert.equal(
            await countRows(store, "SELECT * FROM reference_records WHERE kind = 'ipos'"),
            IPO_COUNT,
          );
          const listings = await store.all<{ kind: string; n: bigint }>(
            'SELECT kind, count(DISTINCT filters) AS n FROM listed_rows GROUP BY kind ORDER BY kind',
          );
          assert.deepEqual(
            listings.map((l) => [l.kind, Number(l.n)]),
            [
              ['ipos', 1],
              ['ipos_v1', 2],
            ],
          );
        } finally {
          await cache.close();
        }

        await assertServedFromStore(db, [...recorded, ...covered, vx], want);
        assert.equal(proxy.seen.length, 4);
      });
    });
  });

  test('a v1 IPOs listing refreshed with fewer records keeps those a vX listing still holds', async (t) => {
    await withRecordsUpstream(t, async ({ server: upstream, proxy }) => {
      await withStoreFile(async (db) => {
        const store = await DuckDbStore.open(db);
        const clock = { now: NOW };
        const layer = new ReadThrough(
          store,
          { url: proxy.url, maxAgeSeconds: 60 },
          () => {},
          () => clock.now,
        );
        try {
          const app = createApp({ store, now: async () => clock.now, log: () => {} }, { before: layer });
          const ask = async (path: string) => {
            const res = await app.request(`${path}&apiKey=local`);
            assert.equal(res.status, 200, path);
            return ((await res.json()) as { results: Json[] }).results;
          };
          const v1 = '/v1/reference/ipos?ipo_status=new&limit=1000';
          const vx = '/vX/reference/ipos?ipo_status=new&limit=1000';
          assert.equal((await ask(v1)).length, IPO_COUNT / STATUSES.length);
          clock.now += 30_000;
          const vxBefore = await ask(vx);
          assert.equal(proxy.seen.length, 2);
          // The upstream drops half of its new offerings; the v1 listing ages first and is fetched again.
          await (upstream.store as DuckDbStore).run(
            "DELETE FROM reference_records WHERE kind = 'ipos' AND ipo_status = 'new' AND ticker >= 'AM'",
          );
          clock.now += 31_000;
          await ask(v1);
          assert.equal(proxy.seen.length, 3, 'the aged v1 listing fetched again');
          assert.deepEqual(await ask(vx), vxBefore, 'the fresh vX listing still answers all it stored');
          assert.equal(proxy.seen.length, 3);
          assert.equal(
            await countRows(store, "SELECT * FROM reference_records WHERE kind = 'ipos'"),
            IPO_COUNT / STATUSES.length,
          );
        } finally {
          await layer.close();
          store.close();
        }
      });
    });
  });

  test('a connection dropped on a later page of the IPOs listing stores nothing; the next request fetches it whole', async (t) => {
    await withRecordsUpstream(t, async ({ proxy }) => {
      await withStoreFile(async (db) => {
        const cache = await startServer({
          db,
          port: 0,
          upstream: { url: proxy.url, maxRetries: 0 },
          log: () => {},
          now: NOW,
        });
        try {
          const store = cache.store as DuckDbStore;
          proxy.script = (req) => (req.url.includes('cursor=') ? 'drop-mid-body' : 'forward');
          const failed = await get(cache.url, '/vX/reference/ipos');
          assert.equal(failed.status, 502, failed.text);
          assert.equal(failed.body.status, 'ERROR');
          assert.equal(proxy.seen.length, 2);
          for (const table of ['reference_records', 'listed_rows', 'coverage'])
            assert.equal(await countRows(store, `SELECT * FROM ${table}`), 0, table);

          proxy.script = () => 'forward';
          const ok = await get(cache.url, '/vX/reference/ipos?limit=3');
          assert.equal(ok.status, 200, ok.text);
          assert.equal(proxy.seen.length, 4);
          assert.equal(
            await countRows(store, "SELECT * FROM reference_records WHERE kind = 'ipos'"),
            IPO_COUNT,
          );
        } finally {
          await cache.close();
        }
      });
    });
  });

  test('stored reference records are fetched again once older than the age allowed', async (t) => {
    await withRecordsUpstream(t, async ({ proxy }) => {
      await withStoreFile(async (db) => {
        const store = await DuckDbStore.open(db);
        const clock = { now: NOW };
        const layer = new ReadThrough(
          store,
          { url: proxy.url, maxAgeSeconds: 60 },
          () => {},
          () => clock.now,
        );
        try {
          const app = createApp({ store, now: async () => clock.now, log: () => {} }, { before: layer });
          const paths = [
            '/v1/related-companies/AAPL?apiKey=local',
            '/vX/reference/tickers/META/events?types=ticker_change&apiKey=local',
            '/vX/reference/ipos?ipo_status=new&apiKey=local',
          ];
          const ask = async () => {
            for (const path of paths) assert.equal((await app.request(path)).status, 200, path);
          };
          await ask();
          assert.equal(proxy.seen.length, 3);
          clock.now += 59_000;
          await ask();
          assert.equal(proxy.seen.length, 3, 'fresh: answered from the store');
          clock.now += 2_000;
          await ask();
          assert.equal(proxy.seen.length, 6, 'aged: fetched again');
          assert.equal(
            await countRows(store, "SELECT * FROM reference_records WHERE kind = 'ipos'"),
            IPO_COUNT / STATUSES.length,
            'a refresh replaces the listing’s records',
          );
        } finally {
          await layer.close();
          store.close();
        }
      });
    });
  });

  test('offline, a listing never stored is a 404 that names its filters, or says it has none', async () => {
    await withStoreFile(async (db) => {
      await withOfflineServer(db, NOW, async (offline) => {
        for (const [path, named] of [
          ['/vX/reference/ipos', 'IPOs listing with no filters'],
          ['/vX/reference/ipos?ipo_status=pending', 'IPOs listing of ipo_status=pending'],
        ] as const) {
          const res = await fetch(`${offline.url}${path}`);
          const body = (await res.json()) as { status: string; message: string };
          assert.equal(res.status, 404, path);
          assert.equal(body.status, 'NOT_FOUND', path);
          assert.ok(body.message.includes(`Not stored: ${named};`), `${path}: ${body.message}`);
        }
      });
    });
  });

  test("a company's events asked by an earlier symbol are stored under it and answered offline", async (t) => {
    await withCachingServer(
      t,
      {},
      async (rig) => {
        const recorded: Recorded = {
          paths: [
            '/vX/reference/tickers/NB/events',
            '/vX/reference/tickers/NB/events?types=ticker_change',
            '/vX/reference/tickers/QQQ/events',
          ],
          normal,
        };
        const first = await firstPass(rig.cache.url, rig.server.url, recorded);
        assert.match(first.get(recorded.paths[0] as string)?.[0] ?? '', /"ticker":"BAC"/);
        assert.deepEqual(
          rig.proxy.seen.map((s) => s.url),
          ['/vX/reference/tickers/NB/events', '/vX/reference/tickers/QQQ/events'],
        );
        await offlinePass(rig, NOW, first, recorded);
      },
      NOW,
    );
  });

  test('an IPOs listing holding a record mdq ingest json would refuse (no ticker) is passed upstream and stores nothing', async (t) => {
    // A rumoured offering the upstream lists without a ticker.
    const seed = async (store: DuckDbStore) => {
      await store.run(
        `INSERT INTO reference_records (kind, id, ticker, date, body, ipo_status)
          VALUES ('ipos', 'rumoured', NULL, '2024-06-09', $1, 'rumor')`,
        [JSON.stringify({ ipo_status: 'rumor', issuer_name: 'Rumoured Inc.', listing_date: '2024-06-09' })],
      );
    };
    await withRecordsUpstream(
      t,
      async ({ server: upstream, proxy }) => {
        await withStoreFile(async (db) => {
          const cache = await startServer({
            db,
            port: 0,
            upstream: { url: proxy.url },
            log: () => {},
            now: NOW,
          });
          try {
            const path = '/vX/reference/ipos?ipo_status=rumor&sort=ticker&limit=1000';
            const want = await pagesOf(upstream.url, path);
            assert.match(want[0] ?? '', /Rumoured Inc\./);
            for (let i = 1; i <= 2; i++) {
              assert.deepEqual(await pagesOf(cache.url, path), want, path);
              assert.equal(proxy.seen.at(-1)?.url, path, 'passed upstream as it is');
            }
            // The whole listing, then the request as asked, each time.
            assert.deepEqual(
              proxy.seen.map((s) => s.url),
              [
                '/vX/reference/ipos?ipo_status=rumor&limit=1000',
                path,
                '/vX/reference/ipos?ipo_status=rumor&limit=1000',
                path,
              ],
            );
            const store = cache.store as DuckDbStore;
            for (const table of ['reference_records', 'listed_rows', 'coverage'])
              assert.equal(await countRows(store, `SELECT * FROM ${table}`), 0, table);
          } finally {
            await cache.close();
          }
        });
      },
      seed,
    );
  });
});
