import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { type ClientOptions, resolveClientOptions } from '../../src/core/client-options.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ForeignOriginError,
  InternalServerError,
  InvalidParameterError,
  isAPIError,
  isRateLimitError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../../src/core/errors.js';
import { type HttpResponse, Transport } from '../../src/core/transport.js';
import { VERSION } from '../../src/core/version.js';
import { type FaultServer, type Step, startFaultServer } from '../support/fault-server.js';

const KEY = 'test-key-0123456789abcdef';

let server: FaultServer;
let other: FaultServer;
const transports: Transport[] = [];

function transport(options: ClientOptions = {}, baseUrl = server.url): Transport {
  const t = new Transport(resolveClientOptions(KEY, { baseUrl, ...options }));
  transports.push(t);
  return t;
}

async function failure(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error);
    assert.ok(!error.message.includes(KEY), `message leaks the key: ${error.message}`);
    assert.ok(!String(error.stack).includes(KEY), 'stack leaks the key');
    return error as Error & Record<string, unknown>;
  }
  assert.fail('expected a rejection');
}

function echoed(res: HttpResponse): { url: string; headers: Record<string, string> } {
  return JSON.parse(res.body);
}

before(async () => {
  server = await startFaultServer();
  other = await startFaultServer([{ kind: 'echo' }]);
});
after(async () => {
  await Promise.all(transports.map((t) => t.close()));
  await server.close();
  await other.close();
});

describe('requests', () => {
  test('the key travels only in the Authorization header, with User-Agent and Accept', async () => {
    server.setScript([{ kind: 'echo' }]);
    const res = await transport().get('/v3/trades/AAPL?limit=5');
    assert.equal(res.status, 200);
    const seen = echoed(res);
    assert.equal(seen.url, '/v3/trades/AAPL?limit=5');
    assert.equal(seen.headers.authorization, `Bearer ${KEY}`);
    assert.equal(seen.headers['user-agent'], `mdq/${VERSION}`);
    assert.equal(seen.headers.accept, 'application/json');
    const withoutAuth = { ...seen.headers, authorization: undefined };
    assert.ok(!JSON.stringify(withoutAuth).includes(KEY));
    assert.equal(res.url, `${server.url}/v3/trades/AAPL?limit=5`);
  });

  test('the User-Agent version is the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    assert.equal(VERSION, pkg.version);
  });

  test('a base URL path prefix is joined to relative targets, with or without a trailing slash', async () => {
    server.setScript([{ kind: 'echo' }]);
    for (const base of [`${server.url}/proxy`, `${server.url}/proxy/`]) {
      const res = await transport({}, base).get('/v2/aggs/ticker/C:EUR%2FUSD/prev');
      assert.equal(echoed(res).url, '/proxy/v2/aggs/ticker/C:EUR%2FUSD/prev');
    }
  });

  test('an absolute target on the same origin is requested as is (next_url)', async () => {
    server.setScript([{ kind: 'echo' }]);
    const res = await transport({}, `${server.url}/proxy`).get(`${server.url}/v3/trades/AAPL?cursor=abc`);
    assert.equal(echoed(res).url, '/v3/trades/AAPL?cursor=abc');
  });

  test('an apiKey query parameter in a link is not sent, and not reported', async () => {
    server.setScript([{ kind: 'echo' }]);
    const res = await transport().get(`${server.url}/v3/quotes/X?cursor=c1&apiKey=${KEY}&limit=2`);
    assert.equal(echoed(res).url, '/v3/quotes/X?cursor=c1&limit=2');
    assert.ok(!res.url.includes(KEY));
  });

  test('extra headers from the options are sent', async () => {
    server.setScript([{ kind: 'echo' }]);
    const res = await transport({ headers: { 'X-Trace': 'abc' } }).get('/x');
    assert.equal(echoed(res).headers['x-trace'], 'abc');
  });

  test('response headers are lower-cased and the body is decoded as UTF-8', async () => {
    server.setScript([{ body: '{"name":"Société Générale – ünïcödé"}', headers: { 'X-Request-ID': 'r-1' } }]);
    const res = await transport().get('/x');
    assert.equal(res.headers['x-request-id'], 'r-1');
    assert.equal(JSON.parse(res.body).name, 'Société Générale – ünïcödé');
  });

  test('a large body arriving in many chunks is assembled intact', async () => {
    const results = Array.from({ length: 20_000 }, (_, i) => ({ i, p: i * 0.25 }));
    server.setScript([{ body: { results } }]);
    const res = await transport().get('/big');
    assert.deepEqual(JSON.parse(res.body).results, results);
  });

  test('keep-alive reuses connections; maxKeepalive 0 closes each after its response', async () => {
    server.setScript([{ kind: 'echo' }]);
    const ports = async (t: Transport) => {
      const seen = new Set<number>();
      for (let i = 0; i < 6; i++)
        seen.add((JSON.parse((await t.get('/k')).body) as { remotePort: number }).remotePort);
      return seen.size;
    };
    // undici waits one event-loop turn before reusing a socket, so back-to-back requests may alternate
    // between two connections; without keep-alive every request needs a new one.
    assert.ok((await ports(transport())) <= 2);
    assert.equal(await ports(transport({ maxKeepalive: 0 })), 6);
  });
});

describe('error statuses', () => {
  // Bodies as documented for the service (wire-format §4): 400/401/429 carry `error`, 403/404 `message`.
  const cases: Array<[number, Record<string, string>, new (...a: never[]) => APIError, string]> = [
    [
      400,
      { status: 'ERROR', request_id: 'req-400', error: "Could not parse the time parameter: 'from'." },
      BadRequestError,
      'error',
    ],
    [401, { status: 'ERROR', request_id: 'req-401', error: 'Unknown API Key' }, AuthenticationError, 'error'],
    [
      403,
      { status: 'NOT_AUTHORIZED', request_id: 'req-403', message: 'You are not entitled to this data.' },
      PermissionDeniedError,
      'message',
    ],
    [
      404,
      { status: 'NOT_FOUND', request_id: 'req-404', message: 'Data not found.' },
      NotFoundError,
      'message',
    ],
    [
      429,
      { status: 'ERROR', request_id: 'req-429', error: "You've exceeded the maximum requests per minute" },
      RateLimitError,
      'error',
    ],
    [500, { status: 'ERROR', request_id: 'req-500', error: 'Internal error' }, InternalServerError, 'error'],
    [502, { status: 'ERROR', request_id: 'req-502', error: 'Bad gateway' }, InternalServerError, 'error'],
    [418, { status: 'ERROR', request_id: 'req-418', error: 'teapot' }, APIError, 'error'],
  ];
  for (const [status, body, Cls, field] of cases) {
    test(`${status} → ${Cls.name} with status, request id and the API's message`, async () => {
      server.setScript([{ status, body }]);
      const error = await failure(transport({ maxRetries: 0 }).get('/v3/trades/AAPL?limit=5'));
      assert.ok(error instanceof Cls);
      assert.equal(error.name, Cls.name);
      assert.equal(error.status, status);
      assert.equal(error.requestId, body.request_id);
      assert.equal(error.apiMessage, body[field]);
      assert.deepEqual(error.body, body);
      assert.equal(error.path, '/v3/trades/AAPL');
      assert.ok(isAPIError(error));
      assert.ok(error.message.includes(String(body[field])));
    });
  }

  test('the request id falls back to the X-Request-ID header', async () => {
    server.setScript([
      {
        status: 404,
        body: { status: 'NOT_FOUND', message: 'Ticker not found.' },
        headers: { 'X-Request-ID': 'hdr-42' },
      },
    ]);
    const error = await failure(transport().get('/v3/reference/tickers/NOPE'));
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.requestId, 'hdr-42');
  });

  test('a non-JSON error body is kept as text', async () => {
    server.setScript([{ status: 404, body: '<html>gone</html>', headers: { 'content-type': 'text/html' } }]);
    const error = await failure(transport().get('/x'));
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.body, '<html>gone</html>');
    assert.equal(error.requestId, undefined);
  });

  test('a server echoing the refused key does not put it in the error', async () => {
    server.setScript([
      { status: 401, body: { status: 'ERROR', request_id: 'e', error: `Unknown API Key ${KEY}` } },
    ]);
    const error = await failure(transport().get('/x'));
    assert.ok(error instanceof AuthenticationError);
    assert.ok(!JSON.stringify(error.body).includes(KEY));
    assert.ok(!String(error.apiMessage).includes(KEY));
  });

  test('a target undici refuses to send fails at once, without retries', async () => {
    const before = server.requests.length;
    const error = await failure(transport().get('/v3/has space?x=1'));
    assert.ok(error instanceof InvalidParameterError);
    assert.equal(error.attempts, 1);
    assert.equal(server.requests.length, before);
  });

  test('4xx other than 408 and 429 are not retried', async () => {
    server.setScript([{ status: 404, body: { message: 'no' } }, { body: 'never' }]);
    const before = server.requests.length;
    const error = await failure(transport({ maxRetries: 3 }).get('/x'));
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.attempts, 1);
    assert.equal(server.requests.length - before, 1);
  });
});

describe('retries', () => {
  function count(): () => number {
    const start = server.requests.length;
    return () => server.requests.length - start;
  }

  test('503 twice, then success: three requests, the 2xx returned', async () => {
    server.setScript([{ status: 503 }, { status: 503 }, { body: { status: 'OK', n: 3 } }]);
    const n = count();
    const lines: string[] = [];
    const res = await transport({ logger: (l) => lines.push(l) }).get('/v3/x?limit=1');
    assert.deepEqual(JSON.parse(res.body), { status: 'OK', n: 3 });
    assert.equal(n(), 3);
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /InternalServerError 503; retry 1 of 3/);
    assert.ok(lines.every((l) => !l.includes(KEY)));
  });

  for (const status of [408, 500, 502, 504]) {
    test(`${status} is retried`, async () => {
      server.setScript([{ status }, { body: 'ok' }]);
      const n = count();
      assert.equal((await transport().get('/r')).body, 'ok');
      assert.equal(n(), 2);
    });
  }

  test('429 with Retry-After in seconds waits that long', async () => {
    server.setScript([
      { status: 429, headers: { 'Retry-After': '1' }, body: { status: 'ERROR', error: 'slow down' } },
      { body: 'ok' },
    ]);
    const started = Date.now();
    assert.equal((await transport().get('/r')).body, 'ok');
    assert.ok(Date.now() - started >= 950, `waited only ${Date.now() - started} ms`);
  });

  test('429 with Retry-After as an HTTP date waits until then', async () => {
    // HTTP dates have one-second resolution: aim two seconds ahead so at least one second remains.
    const at = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000);
    server.setScript([{ status: 429, headers: { 'Retry-After': at.toUTCString() } }, { body: 'ok' }]);
    const started = Date.now();
    assert.equal((await transport().get('/r')).body, 'ok');
    assert.ok(Date.now() >= at.getTime() - 50, `retried ${at.getTime() - Date.now()} ms early`);
    assert.ok(Date.now() - started < 20_000, 'waited until the date, not a default far longer');
  });

  test('429 without Retry-After backs off at most the first backoff step', async () => {
    server.setScript([{ status: 429 }, { body: 'ok' }]);
    const lines: string[] = [];
    assert.equal((await transport({ logger: (l) => lines.push(l) }).get('/r')).body, 'ok');
    assert.equal(lines.length, 1);
    const delay = Number(/retry 1 of \d+ in ([\d.]+) s/.exec(lines[0]!)?.[1]);
    assert.ok(delay >= 0 && delay <= 0.5, `planned a wait of ${delay} s: ${lines[0]}`);
  });

  test('a connection dropped mid-body is retried', async () => {
    const body = JSON.stringify({ results: Array.from({ length: 200 }, (_, i) => i) });
    server.setScript([{ kind: 'drop-mid-body', body }, { body }]);
    const n = count();
    assert.equal((await transport().get('/r')).body, body);
    assert.equal(n(), 2);
  });

  test('a socket destroyed before any answer is retried', async () => {
    server.setScript([{ kind: 'destroy' }, { body: 'ok' }]);
    const n = count();
    assert.equal((await transport().get('/r')).body, 'ok');
    assert.equal(n(), 2);
  });

  test('budget exhausted: the last typed error, with the number of attempts', async () => {
    server.setScript([{ status: 503, body: { status: 'ERROR', request_id: 'last', error: 'down' } }]);
    const n = count();
    const error = await failure(transport({ maxRetries: 2 }).get('/r'));
    assert.ok(error instanceof InternalServerError);
    assert.equal(error.status, 503);
    assert.equal(error.requestId, 'last');
    assert.equal(error.attempts, 3);
    assert.match(error.message, /after 3 attempts/);
    assert.equal(n(), 3);
  });

  test('budget exhausted on 429: RateLimitError', async () => {
    server.setScript([{ status: 429, headers: { 'Retry-After': '0' } }]);
    const error = await failure(transport({ maxRetries: 1 }).get('/r'));
    assert.ok(isRateLimitError(error));
    assert.equal(error.attempts, 2);
  });

  test('connection refused: APIConnectionError after the retries', async () => {
    const gone = await startFaultServer();
    const url = gone.url;
    await gone.close();
    const error = await failure(transport({ maxRetries: 1 }, url).get('/r'));
    assert.equal(error.name, 'APIConnectionError');
    assert.equal(error.code, 'MDQ_CONNECTION');
    assert.equal(error.attempts, 2);
    assert.match(error.message, /ECONNREFUSED/);
  });
});

describe('origin safety', () => {
  test('an absolute target on another origin is refused; nothing reaches it', async () => {
    const before = other.requests.length;
    const error = await failure(transport().get(`${other.url}/v3/trades/AAPL?cursor=x&apiKey=${KEY}`));
    assert.ok(error instanceof ForeignOriginError);
    assert.equal(other.requests.length, before);
  });

  test('a protocol-relative target to another host is refused', async () => {
    const error = await failure(transport().get(`//${new URL(other.url).host}/v3/x`));
    assert.ok(error instanceof ForeignOriginError);
  });

  const redirects: Step[] = [301, 302, 303, 307, 308].map((status) => ({ status, body: '' }));
  for (const step of redirects) {
    test(`a ${step.status} to another origin is refused without a request reaching it`, async () => {
      const before = other.requests.length;
      server.setScript([{ ...step, headers: { location: `${other.url}/steal` } }]);
      const error = await failure(transport().get('/r'));
      assert.ok(error instanceof ForeignOriginError);
      assert.equal(other.requests.length, before);
    });
  }

  test('a redirect on the same origin is followed, with the key', async () => {
    server.setScript((req) =>
      req.url === '/moved?x=1'
        ? { status: 302, headers: { location: '/new-home?x=2' }, body: '' }
        : { kind: 'echo' },
    );
    const res = await transport().get('/moved?x=1');
    assert.equal(echoed(res).url, '/new-home?x=2');
    assert.equal(echoed(res).headers.authorization, `Bearer ${KEY}`);
    assert.equal(res.url, `${server.url}/new-home?x=2`);
  });

  test('a redirect loop stops after a bounded number of hops', async () => {
    server.setScript([{ status: 302, headers: { location: '/again' }, body: '' }]);
    const start = server.requests.length;
    const error = await failure(transport().get('/again'));
    assert.ok(error instanceof APIError);
    assert.equal(error.status, 302);
    assert.equal(server.requests.length - start, 6);
  });
});
