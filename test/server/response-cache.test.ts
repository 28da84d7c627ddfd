import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringBytes } from '../../src/server/approx-bytes.js';
import { DuckDbStore, type RunningServer, startServer } from '../../src/server/index.js';
import { ResponseCache, responseKey } from '../../src/server/response-cache.js';

const ID_A = 'a'.repeat(32);
const ID_B = 'b'.repeat(32);

describe('ResponseCache', () => {
  test('gives a kept body back with the new request id in place of the first one', () => {
    const cache = new ResponseCache();
    cache.set('k', `{"request_id":"${ID_A}","results":[1,2]}`, ID_A);
    assert.equal(cache.get('k', ID_B), `{"request_id":"${ID_B}","results":[1,2]}`);
    assert.equal(cache.get('other', ID_B), undefined);
    // A body without the id is given back as it is.
    cache.set('plain', '{"status":"OK"}', ID_A);
    assert.equal(cache.get('plain', ID_B), '{"status":"OK"}');
  });

  test('keeps no body holding the id twice, nor one over maxBodyBytes', () => {
    const cache = new ResponseCache({ maxBodyBytes: 300 });
    cache.set('twice', `{"a":"${ID_A}","b":"${ID_A}"}`, ID_A);
    cache.set('long', `{"x":"${'y'.repeat(100)}"}`, ID_A);
    assert.equal(cache.size, 0);
  });

  test('drops the least recently used bodies beyond maxBytes', () => {
    const body = (n: number) => `{"request_id":"${ID_A}","n":${n},"pad":"${'p'.repeat(40)}"}`;
    // Room for three bodies with their keys, not four.
    const one = 160 + stringBytes('k1') + stringBytes(body(1));
    const cache = new ResponseCache({ maxBytes: 3 * one + 10 });
    for (const n of [1, 2, 3]) cache.set(`k${n}`, body(n), ID_A);
    assert.ok(cache.get('k1', ID_A)); // k1 becomes the most recently used
    cache.set('k4', body(4), ID_A); // a fourth body: over the budget, drops k2
    assert.equal(cache.get('k2', ID_A), undefined);
    assert.equal(cache.get('k1', ID_A), body(1));
    assert.equal(cache.get('k4', ID_A), body(4));
    // Setting a key again replaces its body.
    cache.set('k4', body(40), ID_A);
    assert.equal(cache.get('k4', ID_A), body(40));
  });

  test('a stream of distinct heavy bodies, or of long keys, stays within maxBytes', () => {
    const budget = 4 * 2 ** 20;
    const cache = new ResponseCache({ maxBytes: budget });
    const heavy = `{"request_id":"${ID_A}","results":[${'{"p":123.45,"s":100,"x":4},'.repeat(20_000)}{}]}`;
    let peak = 0;
    for (let i = 0; i < 100; i++) {
      cache.set(`http://h/v3/trades/SPY?limit=10000&timestamp.gte=${i}`, heavy, ID_A);
      peak = Math.max(peak, cache.bytes);
    }
    assert.ok(peak <= budget, `${peak} bytes kept, over the ${budget} budget`);
    assert.ok(cache.size > 1 && cache.bytes > budget / 2, 'recent bodies are still kept');
    // A non-Latin-1 body counts two bytes a character.
    assert.equal(stringBytes('€'.repeat(10)) - stringBytes('e'.repeat(10)), 10);
    // Keys count: long distinct URLs with small bodies do not grow the cache past its budget.
    const padding = 'q'.repeat(60_000);
    for (let i = 0; i < 200; i++) {
      cache.set(`http://h/v3/trades/SPY?ticker.any_of=${padding}${i}`, '{"status":"OK"}', ID_A);
      peak = Math.max(peak, cache.bytes);
    }
    assert.ok(peak <= budget, `${peak} bytes kept, over the ${budget} budget`);
  });

  test('keys a URL without its apiKey parameter', () => {
    assert.equal(responseKey('http://h/v2/x?apiKey=s3cret&limit=5'), 'http://h/v2/x?limit=5');
    assert.equal(responseKey('http://h/v2/x?limit=5&apiKey=s3cret'), 'http://h/v2/x?limit=5');
    assert.equal(responseKey('http://h/v2/x?apiKey=s3cret'), 'http://h/v2/x');
    assert.equal(responseKey('http://h/v2/x?limit=5'), 'http://h/v2/x?limit=5');
    assert.equal(responseKey('http://h/v2/x'), 'http://h/v2/x');
  });
});

describe('server with kept answers (cache on)', () => {
  let store: DuckDbStore;
  let cached: RunningServer;
  let plain: RunningServer;
  const t0 = Date.parse('2024-03-01T15:00:00Z');
  before(async () => {
    store = await DuckDbStore.open(':memory:');
    await store.run(
      `INSERT INTO trades (ticker, sip_timestamp, participant_timestamp, sequence_number, price, size, exchange, conditions, id, tape)
       SELECT 'CCH', $1 + i * 1000000000, $1 + i * 1000000000 - 7, i + 1, 50 + i / 100, 10 + i, 4, [12], CAST(i AS VARCHAR), 1
       FROM range(300) r(i)`,
      [BigInt(t0) * 1_000_000n],
    );
    const common = { store, port: 0, log: () => {}, apiKeys: ['right-key'], now: t0 + 3_600_000 };
    cached = await startServer({ ...common, cache: true });
    plain = await startServer({ ...common, cache: false });
  });
  after(async () => {
    await cached.close();
    await plain.close();
    store.close();
  });

  const get = async (base: string, path: string, key = 'right-key') => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, header: res.headers.get('x-request-id'), text: await res.text() };
  };
  const withoutId = (text: string) => text.replace(/"request_id":"[0-9a-f]{32}"/, '"request_id":"-"');

  const paths = [
    '/v2/last/trade/CCH',
    '/v3/trades/CCH?limit=7&order=asc',
    '/v2/aggs/ticker/CCH/range/1/minute/2024-03-01/2024-03-01?limit=2',
    '/v1/marketstatus/now',
  ];

  test('answers a repeated request with the first answer and its own request id', async () => {
    for (const path of paths) {
      const first = await get(cached.url, path);
      const again = await get(cached.url, path);
      const fresh = await get(plain.url, path);
      assert.equal(first.status, 200, `${path}: ${first.text}`);
      assert.equal(again.status, 200);
      assert.notEqual(again.header, first.header);
      // Each body carries the id of its own request, as its X-Request-ID says.
      // (Market status has no request_id in its body.)
      for (const r of [first, again]) {
        if (path !== '/v1/marketstatus/now') assert.ok(r.text.includes(`"request_id":"${r.header}"`), path);
      }
      assert.equal(withoutId(again.text), withoutId(first.text), path);
      // And the answer is the one a server without the cache gives.
      assert.equal(withoutId(again.text).replaceAll(cached.url, plain.url), withoutId(fresh.text), path);
    }
  });

  test('still checks the key of every request', async () => {
    const path = paths[0] as string;
    assert.equal((await get(cached.url, path)).status, 200);
    const wrong = await get(cached.url, path, 'wrong-key');
    assert.equal(wrong.status, 401);
    assert.doesNotMatch(wrong.text, /"results"/);
    const missing = await fetch(`${cached.url}${path}`);
    assert.equal(missing.status, 401);
    // The key in the query string is not part of the URL the answer is kept under.
    const byQuery = await fetch(`${cached.url}${path}?apiKey=right-key`);
    assert.equal(byQuery.status, 200);
    assert.equal(withoutId(await byQuery.text()), withoutId((await get(cached.url, path)).text));
  });

  test('keeps no refusal: a bad request is answered anew each time', async () => {
    const path = '/v3/trades/CCH?limit=-3';
    const first = await get(cached.url, path);
    const again = await get(cached.url, path);
    assert.equal(first.status, 400);
    assert.equal(again.status, 400);
    assert.match(again.text, /limit/);
    assert.ok(again.text.includes(`"request_id":"${again.header}"`));
  });

  test('next_url links keep the origin the request was addressed to', async () => {
    const path = '/v3/trades/CCH?limit=7&order=asc';
    const viaIp = JSON.parse((await get(cached.url, path)).text) as { next_url: string };
    const localhost = cached.url.replace('127.0.0.1', 'localhost');
    const viaName = JSON.parse((await get(localhost, path)).text) as { next_url: string };
    assert.ok(viaIp.next_url.startsWith(`${cached.url}/`), viaIp.next_url);
    assert.ok(viaName.next_url.startsWith(`${localhost}/`), viaName.next_url);
  });
});
