import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { DEFAULT_BASE_URL, resolveClientOptions } from '../../src/core/client-options.js';
import {
  APIConnectionError,
  InvalidParameterError,
  MissingApiKeyError,
  PoolTimeout,
  ReadTimeout,
} from '../../src/core/errors.js';
import {
  isRetryableError,
  isRetryableStatus,
  RETRY_BASE_MS,
  RETRY_CAP_MS,
  retryDelay,
} from '../../src/core/retry.js';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../src/core/retry-after.js';

const ENV = ['MASSIVE_API_KEY', 'POLYGON_API_KEY', 'MDQ_BASE_URL'] as const;
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
  saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  for (const k of ENV) delete process.env[k];
});
afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

describe('resolveClientOptions', () => {
  test('defaults follow the spec: 10 s timeouts (300 s in all per request), no connection limits, 3 retries', () => {
    const o = resolveClientOptions('k');
    assert.deepEqual(
      { ...o, logger: undefined },
      {
        apiKey: 'k',
        useAsync: false,
        baseUrl: DEFAULT_BASE_URL,
        connectTimeout: 10,
        readTimeout: 10,
        totalTimeout: 300,
        writeTimeout: 10,
        poolTimeout: 10,
        maxConnections: null,
        maxKeepalive: null,
        maxRetries: 3,
        directHttp: true,
        logger: undefined,
        headers: {},
        rateLimit: null,
      },
    );
  });

  test('the key comes from the argument, else MASSIVE_API_KEY, else POLYGON_API_KEY', () => {
    process.env.POLYGON_API_KEY = 'poly';
    assert.equal(resolveClientOptions(undefined).apiKey, 'poly');
    process.env.MASSIVE_API_KEY = 'massive';
    assert.equal(resolveClientOptions(null).apiKey, 'massive');
    assert.equal(resolveClientOptions('arg').apiKey, 'arg');
  });

  test('no key anywhere → MissingApiKeyError that says how to provide one', () => {
    assert.throws(
      () => resolveClientOptions(undefined),
      (e: unknown) =>
        e instanceof MissingApiKeyError &&
        e.code === 'MDQ_MISSING_API_KEY' &&
        /MASSIVE_API_KEY/.test(e.message) &&
        /POLYGON_API_KEY/.test(e.message),
    );
    assert.throws(() => resolveClientOptions(''), MissingApiKeyError);
  });

  test('MDQ_BASE_URL is the base URL unless one is given; a trailing slash is dropped', () => {
    process.env.MDQ_BASE_URL = 'http://127.0.0.1:8765/';
    assert.equal(resolveClientOptions('k').baseUrl, 'http://127.0.0.1:8765');
    assert.equal(
      resolveClientOptions('k', { baseUrl: 'http://localhost:1/proxy/' }).baseUrl,
      'http://localhost:1/proxy',
    );
  });

  const bad: Array<[string, Record<string, unknown>]> = [
    ['connectTimeout', { connectTimeout: 0 }],
    ['readTimeout', { readTimeout: -1 }],
    ['writeTimeout', { writeTimeout: Number.POSITIVE_INFINITY }],
    ['poolTimeout', { poolTimeout: '10' }],
    ['readTimeout', { readTimeout: Number.NaN }],
    ['maxConnections', { maxConnections: 0 }],
    ['maxConnections', { maxConnections: 1.5 }],
    ['maxKeepalive', { maxKeepalive: -1 }],
    ['maxRetries', { maxRetries: -1 }],
    ['maxRetries', { maxRetries: 2.5 }],
    ['useAsync', { useAsync: 'yes' }],
    ['baseUrl', { baseUrl: 'ftp://example.com' }],
    ['baseUrl', { baseUrl: 'https://api.massive.com?apiKey=x' }],
    ['baseUrl', { baseUrl: 'not a url' }],
    ['logger', { logger: 'console' }],
    ['headers', { headers: { Authorization: 'Bearer other' } }],
    ['headers.x-a', { headers: { 'x-a': 'line\r\nbreak' } }],
  ];
  for (const [name, options] of bad) {
    test(`invalid ${name} (${JSON.stringify(Object.values(options)[0]) ?? String(Object.values(options)[0])}) → InvalidParameterError naming it`, () => {
      assert.throws(
        () => resolveClientOptions('k', options as never),
        (e: unknown) =>
          e instanceof InvalidParameterError && e.parameter === name && e.message.includes(name),
      );
    });
  }

  test('null connection limits mean no limit; valid numbers are kept', () => {
    const o = resolveClientOptions('k', {
      maxConnections: null,
      maxKeepalive: 0,
      maxRetries: 0,
      readTimeout: 0.5,
    });
    assert.equal(o.maxConnections, null);
    assert.equal(o.maxKeepalive, 0);
    assert.equal(o.maxRetries, 0);
    assert.equal(o.readTimeout, 0.5);
  });

  test('an invalid key is refused without echoing it', () => {
    assert.throws(
      () => resolveClientOptions('secret with space'),
      (e: unknown) => e instanceof InvalidParameterError && !e.message.includes('secret'),
    );
  });
});

describe('parseRetryAfter', () => {
  test('delay-seconds, integer or decimal', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter('0'), 0);
    assert.equal(parseRetryAfter(' 1.5 '), 1500);
  });

  test('an HTTP date relative to now; past dates mean no wait', () => {
    const now = Date.UTC(2025, 0, 2, 15, 0, 0);
    assert.equal(parseRetryAfter('Thu, 02 Jan 2025 15:00:07 GMT', now), 7000);
    assert.equal(parseRetryAfter('Thu, 02 Jan 2025 14:00:00 GMT', now), 0);
  });

  test('bounded to 60 s', () => {
    assert.equal(MAX_RETRY_AFTER_MS, 60_000);
    assert.equal(parseRetryAfter('3600'), 60_000);
    assert.equal(parseRetryAfter('Fri, 03 Jan 2025 15:00:00 GMT', Date.UTC(2025, 0, 2)), 60_000);
  });

  test('absent or unreadable → undefined', () => {
    for (const v of [undefined, null, '', 'soon', '-1', '1e3'])
      assert.equal(parseRetryAfter(v), undefined, String(v));
  });
});

describe('retry policy', () => {
  test('retryable statuses are exactly 408, 429, 500, 502, 503, 504', () => {
    const retryable = [];
    for (let s = 100; s < 600; s++) if (isRetryableStatus(s)) retryable.push(s);
    assert.deepEqual(retryable, [408, 429, 500, 502, 503, 504]);
  });

  test('connection errors and read timeouts are retried; pool timeouts are not', () => {
    assert.ok(isRetryableError(new APIConnectionError('reset')));
    assert.ok(isRetryableError(new ReadTimeout('slow')));
    assert.ok(!isRetryableError(new PoolTimeout('full')));
    assert.ok(!isRetryableError(new Error('other')));
  });

  test('full jitter: the wait lies in [0, min(cap, base·2^n)), Retry-After wins', () => {
    for (let n = 0; n < 10; n++) {
      const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** n);
      assert.equal(
        retryDelay(n, undefined, () => 0),
        0,
      );
      assert.equal(
        retryDelay(n, undefined, () => 0.999999),
        Math.floor(0.999999 * ceiling),
      );
      assert.ok(retryDelay(n, undefined) < ceiling);
    }
    assert.equal(
      retryDelay(9, undefined, () => 0.5),
      4000,
    );
    assert.equal(
      retryDelay(0, 2500, () => 0.5),
      2500,
    );
  });
});
