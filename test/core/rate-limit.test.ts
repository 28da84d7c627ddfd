import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidParameterError } from '../../src/core/errors.js';
import { isRateLimiter, RateLimiter, rateLimitOption } from '../../src/core/rate-limit.js';
import { FakeClock, mostInWindow } from '../support/fake-clock.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('RateLimiter', () => {
  test('grants `requests` at once, queues the rest in order, and counts each window from the end of a request', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requests: 2, per: 60, clock });
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const take = (n: number) =>
      limiter.acquire().then((release) => {
        order.push(n);
        releases[n] = release;
      });
    const all = [1, 2, 3, 4, 5].map(take);
    await settled();
    assert.deepEqual(order, [1, 2]);
    assert.equal(limiter.queued, 3);

    // Both in flight: time alone frees nothing.
    clock.advance(120_000);
    await settled();
    assert.deepEqual(order, [1, 2]);

    releases[1]!(); // ends at 120 s
    clock.advance(10_000);
    releases[2]!(); // ends at 130 s
    releases[2]!(); // a second call does nothing
    await settled();
    assert.deepEqual(order, [1, 2], 'two ended within the window: the third waits');
    clock.advance(49_999);
    await settled();
    assert.deepEqual(order, [1, 2]);
    clock.advance(1); // 180 s: 60 s after the first end
    await settled();
    assert.deepEqual(order, [1, 2, 3]);
    clock.advance(10_000); // 190 s: 60 s after the second end
    await settled();
    assert.deepEqual(order, [1, 2, 3, 4]);
    releases[3]!();
    releases[4]!();
    clock.advance(60_000);
    await Promise.all(all);
    assert.deepEqual(order, [1, 2, 3, 4, 5]);
    assert.equal(limiter.queued, 0);
  });

  test('an aborted signal takes a request out of the queue; the others keep their turn', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requests: 1, per: 1, clock });
    const first = await limiter.acquire();
    const controller = new AbortController();
    const reason = new Error('no longer wanted');
    const queued = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    await settled();
    assert.equal(limiter.queued, 2);
    controller.abort(reason);
    await assert.rejects(queued, (e) => e === reason);
    assert.equal(limiter.queued, 1);
    first();
    clock.advance(1000);
    (await next)();
    await assert.rejects(limiter.acquire(AbortSignal.abort(reason)), (e) => e === reason);
    assert.equal(clock.pending, 0, 'nothing waits: no timer is left set');
  });

  test('arrivals of a steady stream of requests never exceed the limit in any window', async () => {
    const clock = new FakeClock({ autoAdvance: true });
    const limiter = new RateLimiter({ requests: 3, per: 10, clock });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const release = await limiter.acquire();
        starts.push(clock.now());
        await settled();
        release();
      }),
    );
    assert.equal(starts.length, 20);
    assert.equal(mostInWindow(starts, 10_000), 3);
    assert.ok(clock.now() >= 60_000, 'twenty requests at three per ten seconds take at least a minute');
  });

  test('bad limits are refused, naming the field, the value and what is allowed', () => {
    const cases: [unknown, string, unknown][] = [
      [{ requests: 0, per: 60 }, 'rateLimit.requests', 0],
      [{ requests: 2.5, per: 60 }, 'rateLimit.requests', 2.5],
      [{ requests: '5', per: 60 }, 'rateLimit.requests', '5'],
      [{ per: 60 }, 'rateLimit.requests', undefined],
      [{ requests: 5, per: 0 }, 'rateLimit.per', 0],
      [{ requests: 5, per: Number.POSITIVE_INFINITY }, 'rateLimit.per', Number.POSITIVE_INFINITY],
      [{ requests: 5, per: 60, burst: 2 }, 'rateLimit.burst', 2],
      ['5/min', 'rateLimit', '5/min'],
      [5, 'rateLimit', 5],
    ];
    for (const [value, parameter, bad] of cases) {
      assert.throws(
        () => rateLimitOption(value),
        (e: unknown) => {
          assert.ok(e instanceof InvalidParameterError, String(e));
          assert.equal(e.parameter, parameter);
          assert.deepEqual(e.value, bad);
          assert.match(e.message, /expected|unknown field/);
          return true;
        },
        JSON.stringify(value),
      );
    }
    assert.equal(rateLimitOption(undefined), null);
    assert.equal(rateLimitOption(null), null);
    const limiter = new RateLimiter({ requests: 5, per: 60 });
    assert.equal(rateLimitOption(limiter), limiter, 'a limiter is shared, not copied');
    const own = rateLimitOption({ requests: 5, per: 60 });
    assert.ok(isRateLimiter(own));
    assert.equal(own.requests, 5);
    assert.equal(own.per, 60);
    assert.equal(isRateLimiter({ requests: 5, per: 60 }), false);
  });
});
