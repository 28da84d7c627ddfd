import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  AbortError,
  APIConnectionError,
  InvalidParameterError,
  RateLimiter,
  ReferenceClient,
  StocksClient,
} from '../../src/index.js';
import { FakeClock, mostInWindow } from '../support/fake-clock.js';
import { RecordingServer, type SeenRequest } from '../support/recording-server.js';
import { type Answer, handlers, type MinuteBarsConfig } from '../support/server-handlers.js';

const KEY = 'rate-limit-key-7';
const FROM = '2024-01-02';
const TO = '2024-06-28';
const BARS: MinuteBarsConfig = {
  stepMinutes: 30,
  dataStart: Date.parse('2023-12-01T00:00:00Z'),
  dataEnd: Date.parse('2024-07-31T00:00:00Z'),
  cap: 1000, // about three pages per 45-day chunk
};

/**
 * A loopback server in this thread that stamps each request's arrival with the limiter's clock, and
 * answers like the service on a plan of `plan.requests` per `plan.per` seconds: a request over the limit
 * gets 429. `fault(n)` may answer the n-th request (from 1) otherwise.
 */
class PlanServer {
  url = '';
  arrivals: number[] = [];
  seen: SeenRequest[] = [];
  refused = 0;
  handler: (req: SeenRequest, origin: string) => Answer = (req, origin) =>
    handlers.paginated!(req, origin, undefined);
  fault: (n: number) => Answer | undefined = () => undefined;
  readonly #server: Server;

  constructor(
    readonly clock: FakeClock,
    readonly plan: { requests: number; per: number },
  ) {
    this.#server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: [...url.searchParams.entries()],
        headers: req.headers,
        at: clock.now(),
      };
      this.seen.push(seen);
      this.arrivals.push(clock.now());
      let answer = this.fault(this.seen.length);
      if (mostInWindow(this.arrivals, this.plan.per * 1000) > this.plan.requests) {
        this.refused++;
        answer = {
          status: 429,
          body: '{"status":"ERROR","request_id":"x","error":"You\'ve exceeded the maximum requests per minute"}',
        };
      }
      answer ??= this.handler(seen, this.url);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.arrivals = [];
    this.seen = [];
    this.refused = 0;
    this.fault = () => undefined;
    this.handler = (req, origin) => handlers.paginated!(req, origin, undefined);
  }

  stop(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** Waits (event-loop turns, not time) until `n` requests wait in `limiter`; fails rather than hang. */
async function untilQueued(limiter: RateLimiter, n: number): Promise<void> {
  for (let turn = 0; limiter.queued < n; turn++) {
    if (turn > 10_000) assert.fail(`${n} requests never queued (${limiter.queued} did)`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The limit held: never more than `requests` arrivals in `per` seconds, and time had to pass for it. */
function assertSpaced(server: PlanServer, requests: number, per: number): void {
  const n = server.arrivals.length;
  assert.ok(n > requests, `the test sends more than ${requests} requests (sent ${n})`);
  assert.ok(
    mostInWindow(server.arrivals, per * 1000) <= requests,
    `at most ${requests} arrivals in any ${per} s: ${server.arrivals.join(', ')}`,
  );
  assert.equal(server.refused, 0, 'the service never had to answer 429');
}

describe('rateLimit option over loopback HTTP (async client, fake clock)', () => {
  const plan = { requests: 5, per: 60 };
  const clock = new FakeClock({ autoAdvance: true });
  const server = new PlanServer(clock, plan);
  const limiter = () => new RateLimiter({ ...plan, clock });
  before(() => server.start());
  after(() => server.stop());
  beforeEach(() => server.reset());

  test('without a limit, the free plan answers 429 (the test can tell)', async () => {
    server.handler = (req, origin) => handlers.minuteBars!(req, origin, BARS);
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url, maxRetries: 0 });
    try {
      await assert.rejects(client.getFullRangeAggregateBars('AAPL', FROM, TO, { info: false }));
      assert.ok(server.refused > 0);
    } finally {
      await client.close();
    }
  });

  test('full-range chunks fetched by ten parallel workers, each chunk paged, stay within the limit', async () => {
    server.handler = (req, origin) => handlers.minuteBars!(req, origin, BARS);
    const client = StocksClient(KEY, {
      useAsync: true,
      baseUrl: server.url,
      maxRetries: 0,
      rateLimit: limiter(),
    });
    try {
      const bars = await client.getFullRangeAggregateBars('AAPL', FROM, TO, {
        maxConcurrentWorkers: 10,
        info: false,
      });
      const lo = Date.parse('2024-01-02T00:00:00-05:00');
      const hi = Date.parse('2024-06-29T00:00:00-04:00');
      assert.equal(bars.length, Math.ceil((hi - lo) / (30 * 60_000)), 'every bar of the range');
      assert.ok(
        server.seen.some((r) => r.query.some(([k]) => k === 'cursor')),
        'chunks were paged through next_url',
      );
      assert.ok(new Set(server.seen.map((r) => r.path)).size > 2, 'several chunks');
      assertSpaced(server, plan.requests, plan.per);
    } finally {
      await client.close();
    }
  });

  test('allPages, for await and page helpers stay within the limit', async () => {
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url, rateLimit: limiter() });
    try {
      const merged = await client.getTradesV3('AAPL', { allPages: true });
      assert.equal(merged.results?.length, 9);
      let walked = 0;
      for await (const _ of client.getTradesV3('AAPL')) walked++;
      assert.equal(walked, 9);
      const first = await client.getTradesV3('AAPL');
      assert.equal((await client.getAllPages(first)).length, 3);
      assert.equal(server.arrivals.length, 9);
      assertSpaced(server, plan.requests, plan.per);
    } finally {
      await client.close();
    }
  });

  test('retries wait for their turn like any request', async () => {
    // Every third request fails with 503 and Retry-After: 0, so the retry would go at once.
    server.fault = (n) =>
      n % 3 === 0 ? { status: 503, body: '{"status":"ERROR"}', headers: { 'retry-after': '0' } } : undefined;
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url, rateLimit: limiter() });
    try {
      const results = await Promise.all(
        Array.from({ length: 4 }, () => client.getTradesV3('AAPL', { allPages: true })),
      );
      for (const merged of results) assert.equal(merged.results?.length, 9);
      assert.ok(server.seen.length > 12, 'some requests were retried');
      assertSpaced(server, plan.requests, plan.per);
    } finally {
      await client.close();
    }
  });

  test('one RateLimiter shared by two clients limits them together', async () => {
    const shared = limiter();
    const stocks = StocksClient(KEY, { useAsync: true, baseUrl: server.url, rateLimit: shared });
    const other = StocksClient(KEY, { useAsync: true, baseUrl: server.url, rateLimit: shared });
    try {
      assert.equal(stocks.options.rateLimit, shared);
      await Promise.all([
        stocks.getTradesV3('AAPL', { allPages: true }),
        other.getTradesV3('AAPL', { allPages: true }),
      ]);
      assert.equal(server.arrivals.length, 6);
      assertSpaced(server, plan.requests, plan.per);
    } finally {
      await stocks.close();
      await other.close();
    }
  });

  test('invalid rateLimit is refused before any request', async () => {
    for (const [rateLimit, parameter] of [
      [{ requests: 0, per: 60 }, 'rateLimit.requests'],
      [{ requests: 5, per: -1 }, 'rateLimit.per'],
      [{ requests: 5 }, 'rateLimit.per'],
      ['5/min', 'rateLimit'],
    ] as const) {
      assert.throws(
        () => ReferenceClient(KEY, { useAsync: true, baseUrl: server.url, rateLimit: rateLimit as never }),
        (e: unknown) => e instanceof InvalidParameterError && e.parameter === parameter,
      );
      assert.throws(
        () => StocksClient(KEY, { baseUrl: server.url, rateLimit: rateLimit as never }),
        (e: unknown) => e instanceof InvalidParameterError && e.parameter === parameter,
        'the sync client too',
      );
    }
    assert.equal(server.seen.length, 0);
  });
});

describe('a request waiting for its turn (manual clock)', () => {
  const clock = new FakeClock();
  const server = new PlanServer(clock, { requests: 1, per: 60 });
  before(() => server.start());
  after(() => server.stop());
  beforeEach(() => server.reset());

  test('an AbortSignal takes it out of the queue; nothing is sent', async () => {
    const limiter = new RateLimiter({ requests: 1, per: 60, clock });
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url, rateLimit: limiter });
    try {
      await client.getTradesV3('AAPL');
      const controller = new AbortController();
      // A paged call starts when first awaited: `then` starts it.
      const waiting = client.getTradesV3('AAPL', { signal: controller.signal }).then((r) => r);
      const behind = client.getTradesV3('AAPL').then((r) => r);
      await untilQueued(limiter, 2);
      controller.abort();
      await assert.rejects(waiting, (e: unknown) => e instanceof AbortError);
      assert.equal(limiter.queued, 1);
      assert.equal(server.seen.length, 1);
      clock.advance(60_000);
      await behind;
      assert.equal(server.seen.length, 2, 'the request behind it went in its turn');
    } finally {
      await client.close();
    }
  });

  test('close() fails the queued requests with a clear error; another client sharing the limiter keeps its turn', async () => {
    const limiter = new RateLimiter({ requests: 1, per: 60, clock });
    const closing = StocksClient(KEY, { useAsync: true, baseUrl: server.url, rateLimit: limiter });
    const staying = StocksClient(KEY, { useAsync: true, baseUrl: server.url, rateLimit: limiter });
    try {
      await closing.getTradesV3('AAPL');
      // Each outcome is taken as it settles, during close().
      const queued = [
        closing.getTradesV3('AAPL', { allPages: true }).then(
          () => assert.fail('fulfilled'),
          (e: unknown) => e,
        ),
        closing.getTradesV3('AAPL').then(
          () => assert.fail('fulfilled'),
          (e: unknown) => e,
        ),
      ];
      const other = staying.getTradesV3('AAPL').then((r) => r);
      await untilQueued(limiter, 3);
      await closing.close();
      const errors = await Promise.all(queued);
      for (const e of errors) {
        assert.ok(e instanceof APIConnectionError, String(e));
        assert.match(e.message, /closed while this request waited for its turn in the rate limit/);
      }
      assert.notEqual(errors[0], errors[1], 'each request has an error of its own');
      assert.equal(limiter.queued, 1);
      clock.advance(60_000);
      await other;
      assert.equal(server.seen.length, 2);
    } finally {
      await staying.close();
    }
  });
});

describe('rateLimit in the synchronous client (real clock, short window)', () => {
  const server = new RecordingServer();
  before(() => server.start());
  after(() => server.stop());

  test('pages and full-range chunks of a sync client stay within the limit', async () => {
    await server.use('minuteBars', BARS);
    await server.take();
    const per = 0.2;
    const client = StocksClient(KEY, { baseUrl: server.url, rateLimit: { requests: 2, per } });
    try {
      const bars = client.getFullRangeAggregateBars('AAPL', '2024-01-02', '2024-02-28', { info: false });
      assert.ok(bars.length > 0);
    } finally {
      client.close();
    }
    const seen = await server.take();
    assert.ok(seen.length > 2, `more requests than the limit (${seen.length})`);
    // Arrivals are stamped on the server's thread and the limiter runs on the client's worker thread:
    // their clocks share an origin to within a fraction of a millisecond, hence the 1 ms allowance.
    const arrivals = seen.map((r) => r.at);
    assert.ok(
      mostInWindow(arrivals, per * 1000 - 1) <= 2,
      `at most 2 arrivals in any ${per} s: ${arrivals.map((t) => (t - arrivals[0]!).toFixed(1)).join(', ')}`,
    );
  });

  test('a RateLimiter cannot be shared with a synchronous client', () => {
    assert.throws(
      () => StocksClient(KEY, { baseUrl: server.url, rateLimit: new RateLimiter({ requests: 5, per: 60 }) }),
      (e: unknown) =>
        e instanceof InvalidParameterError &&
        e.parameter === 'rateLimit' &&
        /\{ requests, per \}/.test(e.message),
    );
  });
});
