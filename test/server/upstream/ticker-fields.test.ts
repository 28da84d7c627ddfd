import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startServer } from '../../../src/server/index.js';
import { ingestJson } from '../../../src/server/ingest/json.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { startScriptedProxy } from '../../support/scripted-proxy.js';
import { hasShared, recordedDir } from '../../support/shared.js';
import { withStoreFile } from '../../support/store.js';
import { allPages, get, withOfflineServer, withoutOrigin } from '../../support/upstream-rig.js';

/**
 * The tickers listing keeps every field the service gives: the real recorded pages, loaded by
 * `mdq ingest json` into an upstream's store, are answered by it as recorded; a caching server in front
 * stores them, and after the upstream is gone answers them field for field as the service did.
 */

const LISTING = `${recordedDir}v3/reference/tickers.json`;
/** The recorded listing's pages: its first page and the page its cursor led to. */
const pageFiles = () =>
  readdirSync(`${recordedDir}v3/reference`)
    .filter((f) => f === 'tickers.json' || f.startsWith('tickers&cursor='))
    .sort((a, b) => a.length - b.length)
    .map((f) => `${recordedDir}v3/reference/${f}`);

type Json = Record<string, unknown>;
const recordsOf = (file: string): Json[] => JSON.parse(readFileSync(file, 'utf8')).results;

/** Another day than the recorded `last_updated_utc`: a server's own day must not stand in for it. */
const NOW = Date.UTC(2024, 2, 5, 15);

/** Each result, its fields in order, equals the recorded record's. */
function assertSameRecords(got: Json[], want: Json[], what: string): void {
  assert.equal(got.length, want.length, `${what}: results`);
  for (const [i, r] of got.entries()) {
    assert.deepEqual(Object.entries(r), Object.entries(want[i] as Json), `${what}[${i}]`);
  }
}

describe('caching server: tickers listing fields', () => {
  test('every field of the real listing (CIK, FIGIs, last_updated_utc) is stored and answered offline as the service gave it', async (t) => {
    if (!hasShared(t, LISTING)) return;
    const files = pageFiles();
    assert.equal(files.length, 2, 'the recorded listing and its next page');
    const recorded = files.flatMap(recordsOf);
    await withStoreFile((upstreamDb) =>
      withStoreFile(async (cacheDb) => {
        const lean = await DuckDbStore.open(upstreamDb);
        const ingested = await ingestJson(lean, files);
        assert.equal(ingested.rows.tickers, recorded.length);
        const upstream = await startServer({ store: lean, port: 0, log: () => {}, now: NOW });
        const proxy = await startScriptedProxy(upstream.url);
        const path = '/v3/reference/tickers?market=stocks&limit=2';
        let online: string[];
        try {
          // The upstream answers the records as loaded.
          const direct = await allPages(upstream.url, path);
          assertSameRecords(
            direct.flatMap((p) => p.body.results),
            recorded,
            'upstream',
          );
          const cache = await startServer({
            db: cacheDb,
            port: 0,
            upstream: { url: proxy.url },
            log: () => {},
            now: NOW,
          });
          try {
            const pages = await allPages(cache.url, path);
            assert.deepEqual(
              pages.map((p) => p.status),
              [200, 200],
            );
            assertSameRecords(
              pages.flatMap((p) => p.body.results),
              recorded,
              'through the cache',
            );
            online = pages.map((p) => withoutOrigin(p.text, cache.url));
            // Another sort, by a field only the service's records give, from the store.
            const byCik = '/v3/reference/tickers?market=stocks&sort=cik&order=desc';
            const sorted = await get(cache.url, byCik);
            assert.equal(
              withoutOrigin(sorted.text, cache.url),
              withoutOrigin((await get(upstream.url, byCik)).text, upstream.url),
            );
            assert.deepEqual(
              (sorted.body.results as Json[]).map((r) => r.ticker),
              ['AAAU', 'AA', 'A', 'AAA'],
            );
            assert.equal(proxy.seen.length, 1, 'the listing is fetched whole once');
            // A filter on a CIK the stored records give matches their tickers.
            const cik = String(recorded.find((r) => typeof r.cik === 'string')?.cik);
            const byCikFilter = await get(upstream.url, `/v3/reference/tickers?market=stocks&cik=${cik}`);
            assert.deepEqual(
              (byCikFilter.body.results as Json[]).map((r) => r.ticker),
              recorded.filter((r) => r.cik === cik).map((r) => r.ticker),
            );
            assert.ok((byCikFilter.body.results as Json[]).length > 0);
          } finally {
            await cache.close();
          }
        } finally {
          await proxy.close();
          await upstream.close();
          lean.close();
        }

        await withOfflineServer(cacheDb, NOW + 86_400_000, async (offline) => {
          const pages = await allPages(offline.url, path);
          assertSameRecords(
            pages.flatMap((p) => p.body.results),
            recorded,
            'offline',
          );
          assert.deepEqual(
            pages.map((p) => withoutOrigin(p.text, offline.url)),
            online,
          );
        });
      }),
    );
  });
});
