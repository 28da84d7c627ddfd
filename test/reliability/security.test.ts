/**
 * The API key stays secret: it never appears in an error (message, body, cause chain, stack), a log or
 * verbose line, or `inspect` output; a `next_url` or redirect to another origin is never followed, so
 * the key never reaches it; the server refuses missing and wrong keys and compares every configured key
 * in constant time.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, mock, test } from 'node:test';
import { inspect } from 'node:util';
import {
  type AsyncStocksClient,
  AuthenticationError,
  ForeignOriginError,
  isMdqError,
  StocksClient,
} from '../../src/index.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { type FaultServer, startFaultServer, startFaultServerThread } from '../support/fault-server.js';
import { runCliCaptured } from './cli-capture.js';
import { SYNTHETIC_TICKER, writeSyntheticMinuteBars } from './synthetic-store.js';

const KEY = 'sk-live-7f3a9c1e5b2d4f60a8e1c3b5d7f9a2c4';
const OTHER_KEYS = ['another-configured-key', 'a-third-configured-key'];

let store: DuckDbStore;
let server: RunningServer;
let attacker: FaultServer;
let upstream: FaultServer;
const serverLog: string[] = [];

/** Everything an error shows: message, stack, body, and the whole cause chain as inspect prints it. */
function exposed(error: unknown): string {
  return [
    String(error),
    (error as Error)?.stack ?? '',
    inspect(error, { depth: 10, showHidden: true }),
    JSON.stringify(error, (_k, v) => (typeof v === 'bigint' ? String(v) : v)) ?? '',
  ].join('\n');
}

function assertNoKey(text: string, what: string): void {
  assert.ok(!text.includes(KEY), `${what} contains the API key:\n${text.slice(0, 2000)}`);
}

async function failure(p: PromiseLike<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  return assert.fail('expected a failure');
}

before(async () => {
  store = await DuckDbStore.open(':memory:');
  await writeSyntheticMinuteBars(store, '2023-03-01', '2023-03-03');
  server = await startServer({
    store,
    port: 0,
    apiKeys: [KEY, ...OTHER_KEYS],
    log: (line) => serverLog.push(line),
  });
  attacker = await startFaultServer([{ kind: 'echo' }]);
  upstream = await startFaultServer([{}]);
});
after(async () => {
  await server?.close();
  store?.close();
  await attacker?.close();
  await upstream?.close();
});

describe('security: the key never leaks from the client', () => {
  test('errors of every kind, log and verbose lines, and inspect(client) never show the key', async () => {
    const lines: string[] = [];
    const logger = (line: string) => lines.push(line);
    const errors: [string, unknown][] = [];
    const refused = StocksClient(`${KEY}x`, { useAsync: true, baseUrl: server.url, logger, maxRetries: 0 });
    const c = StocksClient(KEY, {
      useAsync: true,
      baseUrl: upstream.url,
      logger,
      maxRetries: 1,
      readTimeout: 0.5,
    });
    try {
      errors.push(['401 from the server', await failure(refused.getLastTrade(SYNTHETIC_TICKER))]);
      // A server that echoes the key it received: in an error body, as text, and in a 200 that is not JSON.
      upstream.setScript([
        { status: 403, body: { status: 'ERROR', error: `key Bearer ${KEY} is not allowed` } },
      ]);
      errors.push(['403 echoing the key as JSON', await failure(c.getLastTrade('AAPL'))]);
      upstream.setScript([{ status: 500, body: `bad key ${KEY}` }]);
      errors.push(['500 echoing the key as text', await failure(c.getLastTrade('AAPL'))]);
      upstream.setScript([{ status: 200, body: `Authorization: Bearer ${KEY}` }]);
      errors.push(['200 that is not JSON, echoing the key', await failure(c.getLastTrade('AAPL'))]);
      upstream.setScript([{ kind: 'stall' }]);
      errors.push(['read timeout', await failure(c.getLastTrade('AAPL'))]);
      upstream.setScript([{ kind: 'drop-mid-body', body: { status: 'OK', echoed: KEY } }]);
      errors.push(['connection dropped mid-body', await failure(c.getLastTrade('AAPL'))]);
      errors.push(['invalid parameter', await failure((async () => c.getLastTrade(''))())]);
      errors.push([
        'foreign next_url',
        await failure(c.getPageByUrl(`${attacker.url}/v3/trades/AAPL?cursor=1&apiKey=${KEY}`)),
      ]);
      const closed = StocksClient(KEY, { useAsync: true, baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
      errors.push(['connection refused', await failure(closed.getLastTrade('AAPL'))]);
      await closed.close();
      for (const [what, error] of errors) {
        assert.ok(isMdqError(error), `${what}: ${String(error)}`);
        assertNoKey(exposed(error), what);
      }
      // Verbose pagination over the real server, with retries logged.
      const paging = StocksClient(KEY, { useAsync: true, baseUrl: server.url, logger });
      await paging.getAggregateBars(SYNTHETIC_TICKER, '2023-03-01', '2023-03-03', {
        timespan: 'minute',
        limit: 1000,
        allPages: true,
        verbose: true,
      });
      assertNoKey(inspect(paging, { depth: 10, showHidden: true }), 'inspect(client)');
      assertNoKey(JSON.stringify(paging.options), 'client.options');
      await paging.close();
      assert.ok(
        lines.some((l) => /page/i.test(l)),
        'verbose lines were written',
      );
      assert.ok(
        lines.some((l) => /retry/i.test(l)),
        'retry lines were written',
      );
      assertNoKey(lines.join('\n'), 'log lines');
    } finally {
      await refused.close();
      await c.close();
    }
  });

  test('the sync client: errors rebuilt from its worker do not show the key', async () => {
    // The sync client blocks this thread, so the server answering it runs in a worker thread.
    const refusing = await startFaultServerThread([
      { status: 401, body: { status: 'ERROR', error: `Unknown API Key ${KEY}` } },
    ]);
    const sync = StocksClient(KEY, { baseUrl: refusing.url, maxRetries: 0 });
    try {
      const error = (() => {
        try {
          sync.getLastTrade(SYNTHETIC_TICKER);
        } catch (e) {
          return e;
        }
        return assert.fail('expected a failure');
      })();
      assert.ok(error instanceof AuthenticationError, String(error));
      assertNoKey(exposed(error), 'sync 401');
      assertNoKey(inspect(sync, { depth: 10, showHidden: true }), 'inspect(sync client)');
    } finally {
      sync.close();
      await refusing.close();
    }
  });
});

describe('security: the CLI never prints the key', () => {
  const CLI_KEY = 'sk-cli-0c9e7a5b3d1f2e4a6c8b0d2f4e6a8c1b';

  test('errors, retries, results and help, with the key from --api-key or the environment', async () => {
    const outputs: [string, string][] = [];
    const run = async (what: string, argv: string[], key: string, viaEnv: boolean, baseUrl: string) => {
      const env = { NO_COLOR: '1', ...(viaEnv ? { MASSIVE_API_KEY: key } : {}) };
      const args = [...argv, '--base-url', baseUrl, ...(viaEnv ? [] : ['--api-key', key])];
      const { code, stdout, stderr } = await runCliCaptured(args, env);
      outputs.push([`${what} (${viaEnv ? 'env' : '--api-key'})`, `exit ${code}\n${stdout}\n${stderr}`]);
      return { code, stdout, stderr };
    };
    for (const viaEnv of [false, true]) {
      // Refused by the server: CLI_KEY is not one of its keys.
      const refused = await run(
        '401',
        ['stocks', 'get-last-trade', SYNTHETIC_TICKER],
        CLI_KEY,
        viaEnv,
        server.url,
      );
      assert.equal(refused.code, 1);
      upstream.setScript([
        { status: 403, body: { status: 'ERROR', error: `key ${CLI_KEY} is not allowed` } },
      ]);
      await run('403 echoing the key', ['stocks', 'get-last-trade', 'AAPL'], CLI_KEY, viaEnv, upstream.url);
      upstream.setScript([{ status: 200, body: { status: 'OK', results: { p: 1, echoed: CLI_KEY } } }]);
      await run(
        '200 echoing the key',
        ['stocks', 'get-last-trade', 'AAPL', '-o', 'json'],
        CLI_KEY,
        viaEnv,
        upstream.url,
      );
      const retried = await run(
        'connection refused, retried',
        ['stocks', 'get-last-trade', 'AAPL'],
        CLI_KEY,
        viaEnv,
        'http://127.0.0.1:9',
      );
      assert.equal(retried.code, 1);
      assert.match(retried.stderr, /retry/i);
      const paged = await run(
        'all pages, json',
        [
          'stocks',
          'get-aggregate-bars',
          SYNTHETIC_TICKER,
          '2023-03-01',
          '2023-03-03',
          '--timespan',
          'minute',
          '--limit',
          '1000',
          '--all-pages',
          '-o',
          'json',
        ],
        KEY,
        viaEnv,
        server.url,
      );
      assert.equal(paged.code, 0, paged.stderr);
      assert.ok(paged.stdout.length > 1000);
      await run('help', ['stocks', 'get-last-trade', '--help'], CLI_KEY, viaEnv, server.url);
    }
    for (const [what, text] of outputs) {
      assert.ok(
        !text.includes(CLI_KEY) && !text.includes(KEY),
        `${what} shows the key:\n${text.slice(0, 1500)}`,
      );
    }
  });
});

describe('security: other origins never receive the key', () => {
  let c: AsyncStocksClient;
  before(() => {
    c = StocksClient(KEY, { useAsync: true, baseUrl: upstream.url, maxRetries: 0 });
  });
  after(() => c.close());

  const page = (next: string) => ({
    status: 'OK',
    results: [{ t: 1, o: 1, h: 1, l: 1, c: 1, v: 1 }],
    next_url: next,
  });

  test('allPages, a for-await walk and getNextPage refuse a next_url on another origin', async () => {
    const before = attacker.requests.length;
    for (const next of [
      `${attacker.url}/v2/aggs/next?cursor=abc`,
      `//${new URL(attacker.url).host}/v2/aggs/next`,
      `http://localhost:${new URL(upstream.url).port}/v2/aggs/next`,
    ]) {
      upstream.setScript([{ body: page(next) }]);
      const merged = await failure(
        c.getAggregateBars('AAPL', '2024-01-02', '2024-01-03', { allPages: true }),
      );
      assert.ok(merged instanceof ForeignOriginError, `allPages to ${next}: ${String(merged)}`);
      const walked = await failure(
        (async () => {
          for await (const _ of c.getAggregateBars('AAPL', '2024-01-02', '2024-01-03')) {
            // walk
          }
        })(),
      );
      assert.ok(walked instanceof ForeignOriginError, `walk to ${next}: ${String(walked)}`);
      const first = await c.getAggregateBars('AAPL', '2024-01-02', '2024-01-03');
      assert.ok((await failure(c.getNextPage(first))) instanceof ForeignOriginError);
    }
    assert.equal(attacker.requests.length, before, 'the other origin received a request');
  });

  test('a redirect to another origin is not followed', async () => {
    const before = attacker.requests.length;
    for (const status of [301, 302, 303, 307, 308]) {
      upstream.setScript([{ status, headers: { location: `${attacker.url}/v2/last/trade/AAPL` }, body: '' }]);
      const error = await failure(c.getLastTrade('AAPL'));
      assert.ok(error instanceof ForeignOriginError, `${status}: ${String(error)}`);
      assertNoKey(exposed(error), `${status} redirect error`);
    }
    assert.equal(attacker.requests.length, before);
  });

  test('on the configured origin the key travels in the Authorization header only', async () => {
    upstream.setScript([{ kind: 'echo' }]);
    const echoed = (await c.getPageByUrl(`${upstream.url}/v2/x?cursor=1&apiKey=${KEY}`)) as {
      url: string;
      headers: Record<string, string>;
    };
    assert.equal(echoed.headers.authorization, `Bearer ${KEY}`);
    assert.ok(!echoed.url.includes(KEY), echoed.url);
  });
});

describe('security: the server', () => {
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));
  const path = `/v2/aggs/ticker/${SYNTHETIC_TICKER}/range/1/day/2023-03-01/2023-03-03`;

  test('missing and wrong keys are refused with 401; right keys, as header or apiKey, are served', async () => {
    const wrong = [
      '',
      KEY.slice(0, -1),
      `${KEY}0`,
      KEY.toUpperCase(),
      `${KEY.slice(0, -1)}5`,
      'x',
      'k'.repeat(4096),
      OTHER_KEYS[0]?.slice(1) ?? '',
    ];
    assert.equal((await get(path)).status, 401);
    for (const k of wrong) {
      const res = await get(path, { authorization: `Bearer ${k}` });
      assert.equal(res.status, 401, `Bearer ${k.slice(0, 20)}`);
      assert.match(res.body, /"status":"ERROR"/);
      if (k.length > 3) assert.ok(!res.body.includes(k), 'the refused key is echoed');
      assert.equal((await get(`${path}?apiKey=${encodeURIComponent(k)}`)).status, 401);
    }
    for (const k of [KEY, ...OTHER_KEYS]) {
      assert.equal((await get(path, { authorization: `Bearer ${k}` })).status, 200);
      assert.equal((await get(`${path}?apiKey=${k}`)).status, 200);
    }
    for (const line of serverLog) {
      assertNoKey(line, 'server log');
      for (const k of OTHER_KEYS) assert.ok(!line.includes(k), `server log shows a key: ${line}`);
    }
    // next_url links written by the server never carry the key back.
    const page = await get(
      `/v2/aggs/ticker/${SYNTHETIC_TICKER}/range/1/minute/2023-03-01/2023-03-03?limit=10&apiKey=${KEY}`,
    );
    assert.equal(page.status, 200);
    assert.match(page.body, /next_url/);
    assertNoKey(page.body, 'a page answered to a key in the query');
  });

  test('every configured key is compared, in constant time, over equal-length digests', async () => {
    const calls: [number, number][] = [];
    const original = crypto.timingSafeEqual;
    const spy = mock.method(
      crypto,
      'timingSafeEqual',
      (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
        calls.push([a.byteLength, b.byteLength]);
        return original(a, b);
      },
    );
    // The server module imported the named export; make it see the spy.
    syncBuiltinESMExports();
    try {
      for (const k of [KEY, 'wrong', `${KEY}-longer-than-any-configured-key`]) {
        calls.length = 0;
        await get(path, { authorization: `Bearer ${k}` });
        assert.equal(calls.length, 1 + OTHER_KEYS.length, `every key compared for ${k.slice(0, 8)}…`);
        for (const [a, b] of calls) assert.ok(a === b && a === 32, `compared ${a} with ${b} bytes`);
      }
    } finally {
      spy.mock.restore();
      syncBuiltinESMExports();
    }
  });
});
