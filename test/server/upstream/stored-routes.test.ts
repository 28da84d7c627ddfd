import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type CachingApp,
  withCachingApp,
  withCachingServer,
  withoutRequestId,
} from '../../support/upstream-rig.js';

/** Routes users repeat most are stored, not passed through: previous close, grouped daily. */

/** 2013-10-09 15:00 UTC: the previous session is 2013-10-08. */
const NOW = Date.UTC(2013, 9, 9, 15);

const normal = withoutRequestId;

/** The caching app at {@link NOW}, the upstream on the same clock. */
const withRig = (t: import('node:test').TestContext, fn: (rig: CachingApp) => Promise<void>) =>
  withCachingApp(t, { now: NOW, upstreamNow: NOW }, fn);

describe('caching server: stored routes', () => {
  test('a previous close is stored as daily bars and answered from the store the next time', async (t) => {
    await withRig(t, async ({ server: upstream, proxy, app }) => {
      for (const path of ['/v2/aggs/ticker/IBM/prev', '/v2/aggs/ticker/IBM/prev?adjusted=false']) {
        const want = await (await fetch(`${upstream.url}${path}`)).text();
        const sep = path.includes('?') ? '&' : '?';
        const first = await app.request(`${path}${sep}apiKey=local`);
        assert.equal(first.status, 200);
        assert.equal(normal(await first.text()), normal(want), path);
        const calls = proxy.seen.length;
        const again = await app.request(`${path}${sep}apiKey=local`);
        assert.equal(normal(await again.text()), normal(want), `${path} again`);
        assert.equal(proxy.seen.length, calls, `${path}: answered from the store`);
      }
      assert.ok(
        proxy.seen.every((s) => !s.url.includes('/prev')),
        proxy.seen.map((s) => s.url).join('\n'),
      );
    });
  });

  test("a market's grouped daily bars are stored as daily bars and answered from the store the next time", async (t) => {
    await withRig(t, async ({ server: upstream, proxy, app }) => {
      for (const path of [
        '/v2/aggs/grouped/locale/us/market/stocks/2013-10-08?adjusted=false',
        '/v2/aggs/grouped/locale/global/market/fx/2014-05-01?adjusted=true',
      ]) {
        const want = await (await fetch(`${upstream.url}${path}`)).text();
        assert.ok(JSON.parse(want).resultsCount > 0, `${path}: the upstream has bars`);
        const first = await app.request(`${path}&apiKey=local`);
        assert.equal(first.status, 200);
        assert.equal(normal(await first.text()), normal(want), path);
        const calls = proxy.seen.length;
        const again = await app.request(`${path}&apiKey=local`);
        assert.equal(normal(await again.text()), normal(want), `${path} again`);
        assert.equal(proxy.seen.length, calls, `${path}: answered from the store`);
      }
      assert.equal(proxy.seen.length, 2);
      // Each ticker's daily bar of the day is covered as its own.
      const day = '/v2/aggs/ticker/IBM/range/1/day/2013-10-08/2013-10-08?adjusted=false';
      const want = await (await fetch(`${upstream.url}${day}`)).text();
      assert.equal(normal(await (await app.request(`${day}&apiKey=local`)).text()), normal(want));
      assert.equal(proxy.seen.length, 2, "a ticker's day bar is answered from the grouped day");
    });
  });

  test('a grouped day asked with OTC tickers or adjusted is not answered from the stored unadjusted day', async (t) => {
    await withRig(t, async ({ server: upstream, proxy, app }) => {
      const day = '/v2/aggs/grouped/locale/us/market/stocks/2013-10-08?adjusted=false';
      assert.equal((await app.request(`${day}&apiKey=local`)).status, 200);
      assert.equal(proxy.seen.length, 1);
      for (const path of [`${day}&include_otc=true`, '/v2/aggs/grouped/locale/us/market/stocks/2013-10-08']) {
        const want = await (await fetch(`${upstream.url}${path}`)).text();
        const got = await app.request(`${path}${path.includes('?') ? '&' : '?'}apiKey=local`);
        assert.equal(normal(await got.text()), normal(want), path);
        assert.equal(proxy.seen.at(-1)?.url, path, `${path} is asked upstream`);
      }
      assert.equal(proxy.seen.length, 3);
    });
  });

  test("a caching server's previous close follows its own clock, not the store's latest data", async (t) => {
    await withCachingServer(
      t,
      {},
      async ({ server: upstream, proxy, cache }) => {
        const path = '/v2/aggs/ticker/IBM/prev';
        const want = await (await fetch(`${upstream.url}${path}`)).text();
        assert.equal(JSON.parse(want).resultsCount, 1);
        const got = await (await fetch(`${cache.url}${path}`)).text();
        assert.equal(normal(got), normal(want));
        assert.match(proxy.seen[0]?.url ?? '', /\/range\/1\/day\/2013-10-02\/2013-10-08\?/);
      },
      NOW,
    );
  });
});
