/**
 * The server reads query and path values as the service does, over loopback HTTP: Python clients send
 * `True`/`False`, other clients `+5`, `007`, `1e2`, RFC 3339 with an offset, lists with spaces or
 * repeated keys. Each accepted spelling answers exactly what the plain spelling answers; anything
 * else is a 400 in the API's error shape naming the parameter, the value and what is allowed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJson } from '../../src/core/json.js';
import type { RunningServer } from '../../src/server/index.js';
import { fixtureServer } from './app-fixture.js';

async function get(
  server: RunningServer,
  path: string,
): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(`${server.url}${path}${path.includes('?') ? '&' : '?'}apiKey=k`);
  const text = await res.text();
  return { status: res.status, body: parseJson(text), text };
}

/**
 * The body without what may differ between two spellings of one request: `request_id`, and `next_url`,
 * whose cursor may carry the query as it was spelled.
 */
async function answer(server: RunningServer, path: string): Promise<unknown> {
  const { status, body, text } = await get(server, path);
  assert.equal(status, 200, `${path}: ${text.slice(0, 300)}`);
  const { request_id: _id, next_url: _next, ...rest } = body;
  return rest;
}

/** Asserts that every spelling answers what `plain` answers, and (unless told) that `plain` has results. */
async function sameAnswers(
  server: RunningServer,
  plain: string,
  spellings: string[],
  mayBeEmpty = false,
): Promise<void> {
  const expected = (await answer(server, plain)) as { results?: unknown[] };
  if (!mayBeEmpty) {
    assert.ok(Array.isArray(expected.results) && expected.results.length > 0, `${plain} has results`);
  }
  for (const path of spellings) assert.deepEqual(await answer(server, path), expected, path);
}

async function refused(
  server: RunningServer,
  path: string,
  parameter: string,
  value: string,
  allowed: RegExp,
) {
  const { status, body, text } = await get(server, path);
  assert.equal(status, 400, `${path}: ${text.slice(0, 300)}`);
  assert.equal(body.status, 'ERROR');
  assert.equal(typeof body.request_id, 'string');
  assert.ok(
    String(body.error).startsWith(`Invalid ${parameter}: ${JSON.stringify(value)}; `),
    `${path}: ${body.error}`,
  );
  assert.match(body.error, allowed, path);
}

const AGGS = '/v2/aggs/ticker/SPY/range/1/day/2013-10-07/2013-10-11';

describe('the server reads wire values as the service does', () => {
  test('booleans: every spelling of strconv.ParseBool, so Python clients sending True/False are answered', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    await sameAnswers(
      server,
      `${AGGS}?adjusted=true`,
      ['True', 'TRUE', 't', 'T', '1'].map((s) => `${AGGS}?adjusted=${s}`),
    );
    await sameAnswers(
      server,
      `${AGGS}?adjusted=false`,
      ['False', 'FALSE', 'f', 'F', '0'].map((s) => `${AGGS}?adjusted=${s}`),
    );
    const tickers = '/v3/reference/tickers?market=stocks&limit=5';
    await sameAnswers(server, `${tickers}&active=true`, [`${tickers}&active=True`, `${tickers}&active=1`]);
    // The small fixture store may hold no delisted ticker: the answers must still agree.
    await sameAnswers(
      server,
      `${tickers}&active=false`,
      [`${tickers}&active=False`, `${tickers}&active=F`],
      true,
    );
    for (const bad of ['yes', 'tRuE', '2']) {
      await refused(
        server,
        `${AGGS}?adjusted=${bad}`,
        'adjusted',
        bad,
        /True, TRUE, t, T, 1 or false, False/,
      );
    }
  });

  test('integers: a sign and leading zeros are read, decimals and exponents refused; limit is clamped', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const trades = '/v3/trades/SPY?timestamp=2013-10-07&order=asc';
    await sameAnswers(server, `${trades}&limit=3`, [`${trades}&limit=%2B3`, `${trades}&limit=003`]);
    const { status, body } = await get(server, `${trades}&limit=%2B9223372036854775807`);
    assert.equal(status, 200);
    assert.equal(body.results.length, 50000);
    await refused(server, `${trades}&limit=1e3`, 'limit', '1e3', /base-10 integer of at least 1/);
    await refused(server, `${trades}&limit=2.0`, 'limit', '2.0', /no decimal point or exponent/);
    await refused(server, `${trades}&limit=0`, 'limit', '0', /at least 1/);
  });

  test('dates and Unix ms on aggregates: YYYY-MM-DD, ms with a sign or leading zeros; RFC 3339 refused', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const from = Date.UTC(2013, 9, 7, 4); // 2013-10-07 00:00 New York
    const to = Date.UTC(2013, 9, 11, 4);
    const base = '/v2/aggs/ticker/SPY/range/1/day';
    await sameAnswers(server, `${base}/2013-10-07/2013-10-11`, [
      `${base}/${from}/${to}`,
      `${base}/+${from}/0${to}`,
    ]);
    await refused(
      server,
      `${base}/2013-10-07T00:00:00Z/2013-10-11`,
      'from',
      '2013-10-07T00:00:00Z',
      /YYYY-MM-DD/,
    );
    await refused(server, `${base}/2013-10-07/-1`, 'to', '-1', /non-negative integer Unix millisecond/);
    await refused(server, `${base}/2013-10-7/2013-10-11`, 'from', '2013-10-7', /YYYY-MM-DD/);
  });

  test('v3 timestamps: Unix ns, RFC 3339 with Z or an offset and up to nine fraction digits', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const start = BigInt(Date.UTC(2013, 9, 7, 14)) * 1_000_000n; // 10:00 New York
    const end = start + 60_000_000_000n;
    const trades = (gte: string, lt: string) =>
      `/v3/trades/SPY?timestamp.gte=${encodeURIComponent(gte)}&timestamp.lt=${encodeURIComponent(lt)}&order=asc&limit=50`;
    await sameAnswers(server, trades(String(start), String(end)), [
      trades('2013-10-07T14:00:00Z', '2013-10-07T14:01:00Z'),
      trades('2013-10-07T10:00:00-04:00', '2013-10-07T10:01:00.000000000-04:00'),
      trades('2013-10-07T15:30:00.0+01:30', '2013-10-07T14:01:00.000Z'),
      trades(`+${start}`, `0${end}`),
    ]);
    await refused(
      server,
      trades('2013-10-07T14:00:00', String(end)),
      'timestamp.gte',
      '2013-10-07T14:00:00',
      /RFC 3339 timestamp with an offset/,
    );
    await refused(server, trades('yesterday', String(end)), 'timestamp.gte', 'yesterday', /Unix nanosecond/);
  });

  test('numbers: a sign, a bare fraction and an exponent are read; NaN, Inf and hexadecimal refused', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const conversion = '/v1/conversion/EUR/USD?precision=2';
    const expected = await answer(server, `${conversion}&amount=100`);
    for (const spelling of ['1e2', '%2B100', '100.', '0100.0', '1000E-1']) {
      assert.deepEqual(await answer(server, `${conversion}&amount=${spelling}`), expected, spelling);
    }
    for (const bad of ['NaN', 'Inf', '0x64', '1,5']) {
      await refused(server, `${conversion}&amount=${bad}`, 'amount', bad, /finite decimal number/);
    }
  });

  test('lists: items around commas are trimmed, and repeated keys read as one list', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const indices = '/v3/snapshot/indices';
    await sameAnswers(server, `${indices}?ticker.any_of=I:SPX,I:VIX`, [
      `${indices}?ticker.any_of=I:SPX,%20I:VIX`,
      `${indices}?ticker.any_of=%20I:SPX%20,I:VIX,`,
      `${indices}?ticker.any_of=I:SPX&ticker.any_of=I:VIX`,
    ]);
    const many = `${indices}?ticker.any_of=${Array.from({ length: 251 }, (_, i) => `I:X${i}`).join(',')}`;
    const { status, body } = await get(server, many);
    assert.equal(status, 400);
    assert.match(body.error, /^Invalid ticker\.any_of: "I:X0,I:X1,.*; expected at most 250 items, got 251$/);
  });
});
