import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { isInvalidParameterError } from '../../../src/core/errors.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { cacheStatus, clearCache } from '../../../src/server/upstream/cache-admin.js';
import { parseRate } from '../../../src/server/upstream/upstream-options.js';
import type { ProxyAction } from '../../support/scripted-proxy.js';
import { countRows, get, withCachingApp, withCachingServer } from '../../support/upstream-rig.js';

/**
 * How the caching server behaves towards its upstream: one call for identical concurrent requests,
 * 429 and Retry-After, failures mid-fetch (500, a connection dropped halfway through a page, an answer
 * that trickles past its deadline) that leave the store as it was, the upstream key kept to the upstream, and freshness.
 */

/** IBM quotes of 2013-10-08: two pages upstream (62,875 quotes, 50,000 a page). */
const TWO_PAGES = '/v3/quotes/IBM?timestamp=2013-10-08&limit=10';

describe('caching server and its upstream', () => {
  test('identical concurrent requests make one upstream fetch', async (t) => {
    await withCachingServer(t, {}, async ({ proxy, cache }) => {
      const path = '/v3/trades/IBM?timestamp=2013-10-07&order=asc&limit=50';
      const answers = await Promise.all(Array.from({ length: 6 }, () => get(cache.url, path)));
      for (const a of answers) assert.equal(a.status, 200);
      const texts = new Set(answers.map((a) => a.text.replace(/"request_id":"[^"]*"/, '')));
      assert.equal(texts.size, 1);
      assert.equal(proxy.seen.length, 1, proxy.seen.map((s) => s.url).join('\n'));
    });
  });

  test('a 429 with Retry-After is waited out and the request answered', async (t) => {
    await withCachingServer(t, {}, async ({ proxy, cache }) => {
      proxy.script = (_req, i): ProxyAction => (i === 0 ? { status: 429, retryAfter: '0.2' } : 'forward');
      const a = await get(cache.url, '/v3/trades/IBM?timestamp=2013-10-07&limit=5');
      assert.equal(a.status, 200);
      assert.equal(a.body.results.length, 5);
      assert.equal(proxy.seen.length, 2);
    });
  });

  test('a 429 that persists reaches the client with its Retry-After, and nothing is stored', async (t) => {
    await withCachingServer(t, { maxRetries: 0 }, async ({ proxy, cache }) => {
      proxy.script = () => ({ status: 429, retryAfter: '30' });
      const a = await get(cache.url, '/v3/trades/IBM?timestamp=2013-10-07&limit=5');
      assert.equal(a.status, 429);
      assert.equal(a.body.status, 'ERROR');
      assert.equal(typeof a.body.request_id, 'string');
      assert.match(a.body.error, /upstream service answered 429.*nothing of this request was stored/);
      assert.equal(a.headers.get('retry-after'), '30');
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM trades'), 0);
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM coverage'), 0);
    });
  });

  for (const [name, fault, status] of [
    ['a 500', { status: 500 }, 500],
    ['a connection dropped halfway through the page', 'drop-mid-body', 502],
  ] as const) {
    test(`${name} on the second page of a fetch stores nothing; the next request fetches it whole`, async (t) => {
      await withCachingServer(t, { maxRetries: 0 }, async ({ lean, proxy, cache }) => {
        proxy.script = (req) => (req.url.includes('cursor=') ? fault : 'forward');
        const failed = await get(cache.url, TWO_PAGES);
        assert.equal(failed.status, status, failed.text);
        assert.equal(failed.body.status, 'ERROR');
        assert.equal(typeof failed.body.error, 'string');
        assert.equal(proxy.seen.length, 2);
        assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM quotes'), 0);
        assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM coverage'), 0);

        proxy.script = () => 'forward';
        const ok = await get(cache.url, TWO_PAGES);
        assert.equal(ok.status, 200, ok.text);
        assert.equal(ok.body.results.length, 10);
        const day = `SELECT * FROM quotes WHERE ticker = 'IBM' AND sip_timestamp >= ${BigInt(Date.UTC(2013, 9, 8, 4)) * 1_000_000n} AND sip_timestamp < ${BigInt(Date.UTC(2013, 9, 9, 4)) * 1_000_000n}`;
        const stored = await countRows(cache.store as DuckDbStore, day);
        assert.equal(stored, await countRows(lean, day));
        assert.ok(stored > 50_000);
        assert.equal(proxy.seen.length, 4);
      });
    });
  }

  test('an upstream that trickles its answer is dropped at the deadline, retried, answered 504; nothing stored', {
    timeout: 120_000,
  }, async (t) => {
    await withCachingServer(t, { maxRetries: 1, totalTimeout: 1 }, async ({ proxy, cache }) => {
      proxy.script = () => 'trickle';
      const path = '/v3/trades/IBM?timestamp=2013-10-07&limit=5';
      const failed = await get(cache.url, path);
      assert.equal(failed.status, 504, failed.text);
      assert.equal(failed.body.status, 'ERROR');
      assert.equal(typeof failed.body.request_id, 'string');
      assert.match(
        failed.body.error,
        /did not answer in time \(ReadTimeout\).*nothing of this request was stored/,
      );
      assert.equal(proxy.seen.length, 2, 'the attempt and its one retry');
      // Each attempt's connection is closed by the caching server, not left to trickle on.
      await Promise.all(proxy.seen.map((s) => s.closed));
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM trades'), 0);
      assert.equal(await countRows(cache.store as DuckDbStore, 'SELECT * FROM coverage'), 0);
      // No request answered in full is asked of this server: under load, any may take past its 1 s.
    });
  });

  test('the upstream key goes upstream only; a local key never does; next_url points here', async (t) => {
    await withCachingServer(t, { apiKey: 'UPSTREAM-SECRET-KEY' }, async ({ proxy, cache, logged }) => {
      const local = { headers: { authorization: 'Bearer LOCAL-CLIENT-KEY' } };
      const a = await get(
        cache.url,
        '/v3/trades/IBM?timestamp=2013-10-07&limit=5&apiKey=LOCAL-QUERY-KEY',
        local,
      );
      assert.equal(a.status, 200);
      assert.ok(a.body.next_url.startsWith(`${cache.url}/`));
      // Without a time range the listing is passed upstream as it is; its link still points here.
      const b = await get(cache.url, '/v3/trades/IBM?limit=3&apiKey=LOCAL-QUERY-KEY', local);
      assert.equal(b.status, 200, b.text);
      assert.equal(b.body.results.length, 3);
      assert.ok(b.body.next_url.startsWith(`${cache.url}/v3/trades/IBM?`), b.body.next_url);
      const c = await get(cache.url, (b.body.next_url as string).slice(cache.url.length), local);
      assert.equal(c.status, 200, c.text);
      assert.ok(proxy.seen.length >= 3);
      for (const s of proxy.seen) {
        assert.equal(s.authorization, 'Bearer UPSTREAM-SECRET-KEY');
        assert.ok(!s.url.includes('LOCAL'), s.url);
      }
      for (const text of [a.text, b.text, c.text, ...logged])
        assert.ok(!text.includes('UPSTREAM-SECRET'), text);
      const path = (cache.store as DuckDbStore).path;
      await cache.close();
      assert.ok(!readFileSync(path).includes('UPSTREAM-SECRET-KEY'));
    });
  });

  test('ended sessions are kept; the current one is fetched again after its age; clear removes it all', async (t) => {
    // 2013-10-08 at 11:00 in New York: the 7th has ended, the 8th has not.
    const now = Date.UTC(2013, 9, 8, 15);
    await withCachingApp(
      t,
      { now, upstream: { maxAgeSeconds: 60 } },
      async ({ lean, store, layer, app, proxy, clock }) => {
        const path =
          '/v2/aggs/ticker/SPY/range/1/minute/2013-10-07/2013-10-08?limit=50000&adjusted=false&apiKey=local';
        const first = await app.request(path);
        assert.equal(first.status, 200);
        assert.equal(proxy.seen.length, 1);
        const ranges = (await cacheStatus(store)).ranges;
        assert.deepEqual(
          ranges.map((r) => [r.kind, r.first, r.last, r.final]),
          [
            ['bars:minute', '2013-10-07', '2013-10-07', true],
            ['bars:minute', '2013-10-08', '2013-10-08', false],
          ],
        );
        clock.now += 30_000;
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 1, 'fresh: answered from the store');
        clock.now += 60_000;
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 2, 'aged: fetched again');
        assert.match(proxy.seen[1]?.url ?? '', /\/range\/1\/minute\/2013-10-08\/2013-10-08\?/);

        // A refresh fetches a stored range again, now.
        const refreshed = await layer.refresh('SPY', { first: '2013-10-07', last: '2013-10-07' });
        assert.deepEqual(refreshed, [
          { kind: 'bars:minute', range: { first: '2013-10-07', last: '2013-10-07' } },
        ]);
        assert.equal(proxy.seen.length, 3);
        assert.match(proxy.seen[2]?.url ?? '', /\/range\/1\/minute\/2013-10-07\/2013-10-07\?/);
        assert.equal(
          await countRows(store, "SELECT * FROM bars WHERE ticker = 'SPY'"),
          await countRows(
            lean,
            "SELECT * FROM bars WHERE ticker = 'SPY' AND resolution = 'minute' AND t >= 1381118400000 AND t < 1381291200000",
          ),
        );

        assert.equal(await clearCache(store), 2);
        assert.equal(await countRows(store, "SELECT * FROM bars WHERE ticker = 'SPY'"), 0);
        assert.equal((await cacheStatus(store)).ranges.length, 0);
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 4, 'cleared: fetched again');
      },
    );
  });

  test('a snapshot is answered as stored until it is older than the age allowed, then fetched again', async (t) => {
    const now = Date.UTC(2013, 9, 8, 15);
    await withCachingApp(
      t,
      { now, upstream: { maxAgeSeconds: 60 } },
      async ({ store, app, proxy, clock }) => {
        const path = '/v2/snapshot/locale/us/markets/stocks/tickers/SPY?apiKey=local';
        const first = (await (await app.request(path)).json()) as { ticker: { ticker: string } };
        assert.equal(first.ticker.ticker, 'SPY');
        clock.now += 59_000;
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 1);
        clock.now += 2000;
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 2);
        assert.equal(await countRows(store, "SELECT * FROM snapshots WHERE kind = 'snapshot:stocks'"), 1);
      },
    );
  });

  test('with an upstream rate, requests wait their turn instead of failing', async (t) => {
    await withCachingServer(t, { rate: { requests: 1, per: 0.05 } }, async ({ proxy, cache }) => {
      const days = ['2013-10-07', '2013-10-08', '2013-10-09', '2013-10-10'];
      const answers = await Promise.all(
        days.map((d) => get(cache.url, `/v2/aggs/ticker/IBM/range/1/minute/${d}/${d}?adjusted=false`)),
      );
      for (const a of answers) assert.equal(a.status, 200, a.text);
      assert.equal(proxy.seen.length, days.length);
      assert.equal(proxy.maxInFlight, 1);
    });
  });

  test('an upstream rate reads as requests per window; a malformed one is refused naming it', () => {
    assert.deepEqual(parseRate('5/min'), { requests: 5, per: 60 });
    assert.deepEqual(parseRate('100/s'), { requests: 100, per: 1 });
    assert.deepEqual(parseRate('5/60s'), { requests: 5, per: 60 });
    for (const bad of ['5 per minute', '0/min', '5/fortnight', '']) {
      assert.throws(
        () => parseRate(bad),
        (e: unknown) =>
          isInvalidParameterError(e) && e.message.includes('upstreamRate') && e.message.includes('5/min'),
      );
    }
  });
});
