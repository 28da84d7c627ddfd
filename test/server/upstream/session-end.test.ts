import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cacheStatus } from '../../../src/server/upstream/cache-admin.js';
import { firstOpenDay } from '../../../src/server/upstream/session-end.js';
import { withCachingApp } from '../../support/upstream-rig.js';

/** A day of the caching server's coverage is final from its market's close on, not only from midnight. */

const HOUR = 3_600_000;

describe('caching server: when a market day has ended', () => {
  test('stocks at 20:00 New York, forex and crypto at midnight UTC, a futures daily bar at 17:00 New York', () => {
    // 2013-10-08: New York is UTC-4 (summer time); 2013-12-10: UTC-5.
    const summer = Date.UTC(2013, 9, 8);
    const winter = Date.UTC(2013, 11, 10);
    assert.equal(firstOpenDay('SPY', 'bars:minute', summer + 24 * HOUR - 1), '2013-10-08');
    assert.equal(firstOpenDay('SPY', 'bars:minute', summer + 24 * HOUR), '2013-10-09');
    assert.equal(firstOpenDay('SPY', 'trades', winter + 25 * HOUR - 1), '2013-12-10');
    assert.equal(firstOpenDay('SPY', 'trades', winter + 25 * HOUR), '2013-12-11');
    assert.equal(firstOpenDay('I:VIX', 'bars:day', winter + 25 * HOUR), '2013-12-11');
    assert.equal(firstOpenDay('C:EURUSD', 'bars:minute', summer + 24 * HOUR - 1), '2013-10-08');
    assert.equal(firstOpenDay('X:BTCUSD', 'bars:day', summer + 24 * HOUR), '2013-10-09');
    assert.equal(firstOpenDay('ESZ3', 'bars:day', summer + 21 * HOUR - 1), '2013-10-08');
    assert.equal(firstOpenDay('ESZ3', 'bars:day', summer + 21 * HOUR), '2013-10-09');
    // The next session trades from 18:00 on the same calendar day: its minute bars are not final yet.
    assert.equal(firstOpenDay('ESZ3', 'bars:minute', summer + 23 * HOUR), '2013-10-08');
    assert.equal(firstOpenDay('ESZ3', 'bars:minute', summer + 28 * HOUR), '2013-10-09');
  });

  test("a stock's day fetched after 20:00 New York is kept for good, not fetched again when the age has passed", async (t) => {
    // 2013-10-08 21:00 in New York, still 2013-10-08 there.
    const now = Date.UTC(2013, 9, 9, 1);
    await withCachingApp(
      t,
      { now, upstream: { maxAgeSeconds: 60 } },
      async ({ store, app, proxy, clock }) => {
        const path = '/v2/aggs/ticker/SPY/range/1/minute/2013-10-08/2013-10-08?adjusted=false&apiKey=local';
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 1);
        const [range] = (await cacheStatus(store)).ranges;
        assert.deepEqual(
          { first: range?.first, last: range?.last, final: range?.final },
          { first: '2013-10-08', last: '2013-10-08', final: true },
        );
        clock.now += 2 * HOUR;
        assert.equal((await app.request(path)).status, 200);
        assert.equal(proxy.seen.length, 1, 'an ended session is answered from the store');
      },
    );
  });
});
