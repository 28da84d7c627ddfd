import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createApp } from '../../src/server/app.js';
import type { ServerContext } from '../../src/server/context.js';
import { decodeCursor, encodeCursor } from '../../src/server/cursor.js';
import { startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';

const T0 = Date.UTC(2024, 0, 2, 15, 0); // 10:00 New York

/** A small real DuckDB store: a few trades and daily bars of one ticker and one option contract. */
async function smallStore(): Promise<DuckDbStore> {
  const store = await DuckDbStore.open(':memory:');
  for (let i = 0; i < 30; i++) {
    const ns = BigInt(T0 + i * 1000) * 1_000_000n;
    await store.run(
      `INSERT INTO trades (ticker, sip_timestamp, sequence_number, price, size, exchange, conditions)
       VALUES ($1, $2, $3, $4, $5, 4, [12])`,
      ['ACME', ns, BigInt(i + 1), 100 + i / 10, 100 + i],
    );
    await store.run(
      'INSERT INTO trades (ticker, sip_timestamp, sequence_number, price, size) VALUES ($1, $2, $3, $4, 1)',
      ['O:ACME240119C00100000', ns, BigInt(i + 1), 2 + i / 100],
    );
  }
  for (let d = 0; d < 5; d++) {
    await store.run(
      'INSERT INTO bars (ticker, resolution, t, o, h, l, c, v, vw, n) VALUES ($1, $2, $3, 10, 11, 9, 10.5, 1000, NULL, NULL)',
      ['ACME', 'day', BigInt(Date.UTC(2023, 11, 26 + d, 5))],
    );
  }
  return store;
}

let store: DuckDbStore;
before(async () => {
  store = await smallStore();
});
after(() => store.close());

const ctx = (): ServerContext => ({ store, now: async () => T0 + 3_600_000, log: () => {} });

describe('app: authentication', () => {
  test('a missing key gets the 401 body; Bearer and apiKey are both accepted; unknown keys are refused', async () => {
    const app = createApp(ctx(), { apiKeys: ['alpha', 'beta-key'] });
    const missing = await app.request('/v3/trades/ACME');
    assert.equal(missing.status, 401);
    const body = (await missing.json()) as Record<string, string>;
    assert.equal(body.status, 'ERROR');
    assert.equal(body.error, 'API Key was not provided');
    assert.match(body.request_id as string, /^[0-9a-f]{32}$/);
    assert.equal(missing.headers.get('x-request-id'), body.request_id);

    const bearer = await app.request('/v3/trades/ACME', { headers: { Authorization: 'Bearer beta-key' } });
    assert.equal(bearer.status, 200);
    const query = await app.request('/v3/trades/ACME?apiKey=alpha');
    assert.equal(query.status, 200);

    for (const init of [{ headers: { Authorization: 'Bearer alph' } }, {}]) {
      const url = 'headers' in init ? '/v3/trades/ACME' : '/v3/trades/ACME?apiKey=alphaa';
      const res = await app.request(url, init);
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { error: string }).error, 'Unknown API Key');
    }
    const empty = await app.request('/v3/trades/ACME?apiKey=');
    assert.equal(empty.status, 401);
  });

  test('without configured keys any non-empty key is accepted', async () => {
    const app = createApp(ctx());
    assert.equal((await app.request('/v3/trades/ACME?apiKey=whatever')).status, 200);
    assert.equal((await app.request('/v3/trades/ACME')).status, 401);
  });
});

describe('app: errors, ids and paging links', () => {
  const app = () => createApp(ctx());

  test('an unknown path is a 404 in the API shape; every response carries a fresh X-Request-ID', async () => {
    const res = await app().request('/v9/nothing/here?apiKey=k');
    assert.equal(res.status, 404);
    const body = (await res.json()) as Record<string, string>;
    assert.equal(body.status, 'NOT_FOUND');
    assert.equal(typeof body.message, 'string');
    const a = await app().request('/v3/trades/ACME?apiKey=k');
    const b = await app().request('/v3/trades/ACME?apiKey=k');
    assert.match(a.headers.get('x-request-id') as string, /^[0-9a-f]{32}$/);
    assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'));
  });

  test('next_url is absolute on the request’s own origin, contains ?, and carries no key', async () => {
    const res = await app().request('http://example.test:9999/v3/trades/ACME?apiKey=k&limit=10&order=asc');
    const body = (await res.json()) as { next_url: string; results: unknown[] };
    assert.equal(body.results.length, 10);
    assert.ok(body.next_url.startsWith('http://example.test:9999/v3/trades/ACME?cursor='));
    assert.ok(!body.next_url.includes('apiKey'));
    const cursor = new URL(body.next_url).searchParams.get('cursor') as string;
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
  });

  test('a malformed cursor is a 400, never a 500', async () => {
    const positions = ['x.y', '["1"]', '[1,2]', '["1","x"]', '{"a":1}', '["1","2","3"]'];
    for (const cursor of [
      '%%%',
      '!!',
      ...positions.map((pos) => encodeCursor({ pos, limit: '2' })),
      'AAAA',
      'bm90LWEtcXVlcnk',
    ]) {
      const res = await app().request(`/v3/trades/ACME?apiKey=k&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(res.status, 400, cursor);
      assert.equal(((await res.json()) as { status: string }).status, 'ERROR');
    }
  });

  test('cursors round-trip query strings', () => {
    const params = { 'timestamp.gte': '2024-01-02', limit: '5', pos: '1.2' };
    assert.deepEqual(Object.fromEntries(decodeCursor(encodeCursor(params))), params);
  });

  test('limit above the maximum is clamped; prefixed tickers work raw and percent-encoded', async () => {
    const big = await app().request('/v3/trades/ACME?apiKey=k&limit=999999');
    assert.equal(big.status, 200);
    assert.equal(((await big.json()) as { results: unknown[] }).results.length, 30);
    const raw = await app().request('/v3/trades/O:ACME240119C00100000?apiKey=k&limit=3');
    const encoded = await app().request('/v3/trades/O%3AACME240119C00100000?apiKey=k&limit=3');
    const a = (await raw.json()) as { results: { price: number }[] };
    const b = (await encoded.json()) as { results: { price: number }[] };
    assert.equal(a.results.length, 3);
    assert.deepEqual(
      a.results.map((r) => r.price),
      b.results.map((r) => r.price),
    );
  });

  test('extreme dates, timestamps and sizes are answered, never with a 500', async () => {
    const a = app();
    for (const path of [
      '/v2/aggs/ticker/ACME/range/1/day/1/9007199254740991',
      '/v2/aggs/ticker/ACME/range/1/day/8640000000000000/8640000000000001',
      '/v2/aggs/ticker/ACME/range/1/minute/0/9007199254740991',
      '/v2/aggs/ticker/ACME/range/1/day/0001-01-01/9999-12-31',
      '/v2/aggs/ticker/ACME/range/1000000000000000/minute/2024-01-02/2024-01-02',
      '/v2/aggs/ticker/ACME/range/1000000000000000/year/2024-01-02/2024-01-02',
      '/v3/trades/ACME?timestamp=99999999999999999999',
      '/v3/trades/ACME?timestamp.gte=9999-12-31T23:59:59Z',
      '/v1/indicators/sma/ACME?timestamp.lte=9007199254740991&timespan=year',
      '/v1/indicators/rsi/ACME?timestamp.gte=0001-01-01&window=100000',
      '/v2/ticks/stocks/trades/ACME/9999-12-31?timestamp=99999999999999999999999',
      '/v1/conversion/EUR/USD?amount=1e308&precision=4',
      '/v2/aggs/grouped/locale/us/market/stocks/0001-01-01',
      '/v1/open-close/ACME/9999-12-31',
    ]) {
      const res = await a.request(`${path}${path.includes('?') ? '&' : '?'}apiKey=k`);
      assert.ok([200, 400, 404].includes(res.status), `${res.status} for ${path}`);
    }
  });

  test('fuzzed query strings and path values never produce a 500', async () => {
    const a = app();
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '2024-01-02',
        '1704207600000',
        '-1',
        '0',
        '99999999999999999999',
        'true',
        'asc',
        'desc',
        '%',
      ),
    );
    const keys = fc.constantFrom(
      'limit',
      'sort',
      'order',
      'adjusted',
      'timestamp',
      'timestamp.gte',
      'timestamp.lt',
      'cursor',
      'window',
      'timespan',
      'series_type',
      'amount',
      'precision',
      'reverse',
    );
    const paths = fc.constantFrom(
      (x: string) => `/v2/aggs/ticker/ACME/range/1/day/${x}/2024-01-05`,
      (x: string) => `/v2/aggs/ticker/ACME/range/${x}/minute/2024-01-02/2024-01-02`,
      (x: string) => `/v2/aggs/ticker/ACME/range/1/${x}/2024-01-02/2024-01-02`,
      (x: string) => `/v3/trades/${x}`,
      (x: string) => `/v3/quotes/ACME?timestamp=${x}`,
      (x: string) => `/v2/ticks/stocks/trades/ACME/${x}`,
      (x: string) => `/v1/indicators/rsi/ACME?window=${x}`,
      (x: string) => `/v1/conversion/${x}/USD`,
      (x: string) => `/v1/open-close/ACME/${x}`,
      (x: string) => `/v2/last/trade/${x}`,
    );
    await fc.assert(
      fc.asyncProperty(
        paths,
        text,
        fc.array(fc.tuple(keys, text), { maxLength: 4 }),
        async (path, value, query) => {
          const qs = new URLSearchParams(query);
          qs.set('apiKey', 'k');
          const url = path(encodeURIComponent(value) || 'x');
          const res = await a.request(`${url}${url.includes('?') ? '&' : '?'}${qs}`);
          assert.ok([200, 400, 404].includes(res.status), `${res.status} for ${url}?${qs}`);
          const body = (await res.json()) as { status?: string };
          if (res.status !== 200) assert.ok(['ERROR', 'NOT_FOUND'].includes(body.status as string));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('startServer', () => {
  test('binds loopback on a free port, serves, and closes', async () => {
    const lines: string[] = [];
    const server = await startServer({ store, port: 0, log: (l) => lines.push(l), apiKeys: ['s3cret-key'] });
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${server.url}/v3/trades/ACME?limit=1`, {
        headers: { Authorization: 'Bearer s3cret-key' },
      });
      assert.equal(res.status, 200);
      await fetch(`${server.url}/v3/trades/ACME?apiKey=wrong-key`);
    } finally {
      await server.close();
    }
    assert.ok(lines.some((l) => l.includes(server.url)));
    assert.ok(lines.every((l) => !l.includes('s3cret-key') && !l.includes('wrong-key')));
    // The caller's store stays open.
    assert.equal((await store.all('SELECT 1 AS one')).length, 1);
  });

  test('says so when no key is configured', async () => {
    const lines: string[] = [];
    const server = await startServer({ store, port: 0, log: (l) => lines.push(l) });
    await server.close();
    assert.ok(lines.some((l) => /any non-empty key/.test(l)));
  });

  test('refuses a non-loopback address without configured keys', async () => {
    await assert.rejects(
      startServer({ store, host: '0.0.0.0', port: 0, log: () => {} }),
      /requires at least one API key/,
    );
  });
});
