import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { coverageRows } from '../../../src/server/upstream/coverage.js';
import { withCachingApp } from '../../support/upstream-rig.js';

/**
 * Freshness of stored answers: an answer about a period whose sessions had ended when it was fetched
 * (a grouped day, a crypto open and close, an indicator up to an ended session) cannot change any
 * more and is kept for good; an answer about now, the current session, or adjusted stock bars (which a
 * later split changes) is fetched again once older than the age allowed. `refresh` fetches either.
 */

/** 2015-12-24 16:00 UTC, 11:00 in New York: 2015-12-23 has ended everywhere, 2015-12-24 nowhere. */
const NOW = Date.UTC(2015, 11, 24, 16);
const YEAR_MS = 365 * 86_400_000;

/** Answers about ended sessions. */
const PAST = [
  '/v2/aggs/grouped/locale/global/market/crypto/2015-12-23',
  '/v2/aggs/grouped/locale/us/market/stocks/2015-12-23?adjusted=false&include_otc=true',
  '/v1/open-close/crypto/BTC/USD/2015-12-23',
  '/v1/indicators/rsi/X:BTCUSD?timespan=day&window=14&limit=2&timestamp.lte=2015-12-23',
  '/v1/indicators/sma/GOOG?timespan=day&window=5&limit=3&adjusted=false&timestamp.lt=2015-12-24',
  '/v1/indicators/ema/GOOG?timespan=hour&window=5&limit=3&adjusted=false&timestamp.lte=1450904400000',
];

/** Requests answered from stored bars of ended sessions (unadjusted: no splits to refresh). */
const FROM_BARS = [
  '/v1/open-close/GOOG/2015-12-23?adjusted=false',
  '/v2/aggs/ticker/GOOG/range/5/minute/2015-12-22/2015-12-23?adjusted=false&limit=5',
];

/** Answers that can still change. */
const CURRENT = [
  // Up to now.
  '/v1/indicators/rsi/X:BTCUSD?timespan=day&window=14&limit=2',
  // Adjusted stock bars: a later split changes them.
  '/v1/indicators/sma/GOOG?timespan=day&window=5&limit=3&timestamp.lte=2015-12-23',
  '/v2/aggs/grouped/locale/us/market/stocks/2015-12-23',
  // The week holding the bound (from Monday 2015-12-21) has not ended.
  '/v1/indicators/sma/X:BTCUSD?timespan=week&window=2&limit=2&timestamp.lte=2015-12-22',
];

/** The upstream requests of `seen` from `from` on. */
const fetchedSince = (seen: readonly { url: string }[], from: number) => seen.slice(from).map((s) => s.url);

/** `path` with a local client's key (never sent upstream, no part of a stored answer's key). */
const keyed = (path: string) => `${path}${path.includes('?') ? '&' : '?'}apiKey=local`;

describe('caching server: answers about ended sessions are kept for good', () => {
  test('answers about ended sessions are not fetched again however old; answers about now, the current week or adjusted stock bars are', async (t) => {
    await withCachingApp(
      t,
      { now: NOW, upstreamNow: NOW, upstream: { maxAgeSeconds: 60 } },
      async ({ app, proxy, clock, store }) => {
        const answers = new Map<string, string>();
        for (const path of [...PAST, ...FROM_BARS, ...CURRENT]) {
          const res = await app.request(keyed(path));
          const text = await res.text();
          assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
          answers.set(path, text);
        }
        assert.equal(
          proxy.seen.length,
          PAST.length + FROM_BARS.length + CURRENT.length,
          'one upstream call each (the open and close of a day fetches its minute bars)',
        );
        const final = new Map((await coverageRows(store)).map((r) => [r.ticker, r.final]));
        for (const path of PAST) assert.equal(final.get(path), true, `${path} is final`);
        for (const path of CURRENT) assert.equal(final.get(path), false, `${path} ages`);

        clock.now += YEAR_MS;
        const before = proxy.seen.length;
        for (const path of [...PAST, ...FROM_BARS, ...CURRENT]) {
          const res = await app.request(keyed(path));
          assert.equal(res.status, 200, path);
          if (!CURRENT.includes(path)) {
            const again = (await res.text()).replace(/"request_id":"[^"]*"/, '');
            assert.equal(again, (answers.get(path) as string).replace(/"request_id":"[^"]*"/, ''), path);
          }
        }
        assert.deepEqual(
          fetchedSince(proxy.seen, before).map((url) => decodeURIComponent(url)),
          CURRENT,
          'only what can still change is fetched again',
        );
      },
    );
  });

  test('an answer about a day fetched before its session ended ages until fetched after it, then is kept', async (t) => {
    // 2015-12-23 20:00 UTC: crypto's day ends at midnight UTC.
    const during = Date.UTC(2015, 11, 23, 20);
    await withCachingApp(
      t,
      { now: during, upstreamNow: NOW, upstream: { maxAgeSeconds: 60 } },
      async ({ app, proxy, clock }) => {
        const path = '/v2/aggs/grouped/locale/global/market/crypto/2015-12-23';
        const ask = async () => assert.equal((await app.request(keyed(path))).status, 200);
        await ask();
        clock.now += 30_000;
        await ask();
        assert.equal(proxy.seen.length, 1, 'fresh: answered as stored');
        clock.now += 31_000;
        await ask();
        assert.equal(proxy.seen.length, 2, 'the day had not ended: aged, fetched again');
        clock.now = Date.UTC(2015, 11, 24, 0, 0, 30);
        await ask();
        assert.equal(proxy.seen.length, 3, 'aged: fetched again, now after the day ended');
        clock.now += YEAR_MS;
        await ask();
        assert.equal(proxy.seen.length, 3, 'kept for good');
      },
    );
  });

  test('refresh fetches an answer kept for good again, and it stays kept', async (t) => {
    await withCachingApp(
      t,
      { now: NOW, upstreamNow: NOW, upstream: { maxAgeSeconds: 60 } },
      async ({ app, proxy, clock, layer, store }) => {
        const path = '/v1/open-close/crypto/BTC/USD/2015-12-23';
        assert.equal((await app.request(keyed(path))).status, 200);
        assert.equal(proxy.seen.length, 1);
        clock.now += YEAR_MS;
        const done = await layer.refresh(path, { first: '2015-12-23', last: '2015-12-23' });
        assert.deepEqual(
          done.map((d) => d.kind),
          ['answer'],
        );
        assert.deepEqual(
          proxy.seen.map((s) => s.url),
          [path, path],
        );
        const [row] = await coverageRows(store, path);
        assert.equal(row?.final, true);
        assert.equal(row?.fetchedAt, new Date(clock.now).toISOString().replace(/\.\d+Z$/, 'Z'));
        clock.now += YEAR_MS;
        assert.equal((await app.request(keyed(path))).status, 200);
        assert.equal(proxy.seen.length, 2);
      },
    );
  });
});
