/**
 * A 200 whose body reports an error (`"status": "ERROR"`, `"NOT_AUTHORIZED"`, `"NOT_FOUND"`, or an
 * `error` and no results) is thrown as the typed error a 4xx with that body gives, never returned as
 * data: every client, async and sync, one call, every pagination helper, a walk and a full range.
 * `OK` and `DELAYED` stay data. Over real loopback HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  CryptoClient,
  ForexClient,
  FuturesClient,
  IndexClient,
  isPermissionDeniedError,
  NotFoundError,
  OptionsClient,
  PermissionDeniedError,
  partialPagesOf,
  RateLimitError,
  ReferenceClient,
  StocksClient,
} from '../../src/index.js';
import {
  type FaultServer,
  type Step,
  startFaultServer,
  startFaultServerThread,
} from '../support/fault-server.js';

const KEY = 'secretkey0123456789abcdef';

const notAuthorized = {
  status: 'NOT_AUTHORIZED',
  request_id: 'req-na-1',
  message: `You are not entitled to this data (key ${KEY}). Please upgrade your plan.`,
};
const page = (first: number, next?: string) => ({
  status: 'OK',
  request_id: `r${first}`,
  results: [{ price: first }, { price: first + 1 }],
  ...(next && { next_url: next }),
});

/** The checks every error reported in a 200 body passes, whatever the call. */
function isNotAuthorized(e: unknown, path: RegExp): true {
  assert.ok(e instanceof PermissionDeniedError, String(e));
  assert.ok(isPermissionDeniedError(e));
  assert.equal(e.status, 403);
  assert.equal(e.httpStatus, 200);
  assert.equal(e.requestId, 'req-na-1');
  assert.match(e.path ?? '', path);
  assert.match(e.message, /^HTTP 200 with status NOT_AUTHORIZED for \/\S+: You are not entitled/);
  assert.match(e.message, /\(request id req-na-1\)/);
  assert.doesNotMatch(e.message, new RegExp(KEY));
  assert.doesNotMatch(JSON.stringify(e.body), new RegExp(KEY));
  assert.match(e.apiMessage ?? '', /key <api key>/);
  return true;
}

describe('an error reported in a 200 body is thrown, never returned as data', () => {
  let server: FaultServer;
  before(async () => {
    server = await startFaultServer([{ body: notAuthorized }]);
  });
  after(() => server.close());

  const options = () => ({ useAsync: true as const, baseUrl: server.url, maxRetries: 3 });

  test('every market client: the typed error with both statuses, the request id and the path, not retried', async () => {
    const clients = {
      stocks: StocksClient(KEY, options()),
      options: OptionsClient(KEY, options()),
      indices: IndexClient(KEY, options()),
      forex: ForexClient(KEY, options()),
      crypto: CryptoClient(KEY, options()),
      futures: FuturesClient(KEY, options()),
      reference: ReferenceClient(KEY, options()),
    };
    const calls: [string, () => Promise<unknown>, RegExp][] = [
      ['stocks', () => clients.stocks.getPreviousClose('AAPL'), /^\/v2\/aggs\/ticker\/AAPL\/prev$/],
      [
        'options',
        () => clients.options.getPreviousClose('O:SPY251219C00650000'),
        /^\/v2\/aggs\/ticker\/O:SPY251219C00650000\/prev$/,
      ],
      ['indices', () => clients.indices.getPreviousClose('I:SPX'), /I:SPX\/prev$/],
      ['forex', () => clients.forex.getPreviousClose('C:EURUSD'), /C:EURUSD\/prev$/],
      ['crypto', () => clients.crypto.getPreviousClose('X:BTCUSD'), /X:BTCUSD\/prev$/],
      ['futures', () => clients.futures.getAggregates('ESZ5'), /^\/futures\/\w+\/aggs\/ESZ5$/],
      ['reference', () => clients.reference.getTickers(), /^\/v3\/reference\/tickers$/],
    ];
    try {
      for (const [name, call, path] of calls) {
        server.setScript([{ body: notAuthorized }]);
        const before = server.requests.length;
        await assert.rejects(call, (e: unknown) => isNotAuthorized(e, path), name);
        assert.equal(server.requests.length - before, 1, `${name}: the answer is not asked again`);
      }
    } finally {
      for (const client of Object.values(clients)) await client.close();
    }
  });

  test('each error status and message gives its class; OK, DELAYED and success stay data', async () => {
    const client = StocksClient(KEY, options());
    try {
      const cases: [unknown, (e: unknown) => boolean][] = [
        [
          { status: 'ERROR', request_id: 'a', error: 'Unknown API Key' },
          (e) => e instanceof AuthenticationError && e.status === 401,
        ],
        [
          { status: 'ERROR', request_id: 'b', error: "You've exceeded the maximum requests per minute" },
          (e) => e instanceof RateLimitError && e.status === 429,
        ],
        [
          { status: 'ERROR', request_id: 'c', error: "Could not parse the time parameter: 'from'" },
          (e) =>
            e instanceof BadRequestError &&
            e.status === 400 &&
            /with status ERROR/.test((e as Error).message),
        ],
        [
          { status: 'NOT_FOUND', request_id: 'd', message: 'Ticker not found.' },
          (e) => e instanceof NotFoundError && e.status === 404 && e.requestId === 'd',
        ],
        [
          { request_id: 'e', error: 'something went wrong' },
          (e) =>
            e instanceof BadRequestError &&
            e.httpStatus === 200 &&
            e.apiMessage === 'something went wrong' &&
            /^HTTP 200 with an error in its body for \/v2\/last\/trade\/AAPL: something went wrong \(request id e\)$/.test(
              (e as Error).message,
            ),
        ],
      ];
      for (const [body, check] of cases) {
        server.setScript([{ body, headers: { 'x-request-id': 'from-header' } }]);
        await assert.rejects(client.getLastTrade('AAPL'), (e: unknown) => {
          assert.ok(check(e), `${JSON.stringify(body)} gave ${String(e)}`);
          return true;
        });
      }
      for (const status of ['OK', 'DELAYED', 'success']) {
        const body = { status, request_id: 'f', results: { p: 1 } };
        server.setScript([{ body }]);
        assert.deepEqual(await client.getLastTrade('AAPL'), body);
      }
      // A per-ticker error inside `results` is data, as the service sends it.
      const partial = {
        status: 'OK',
        results: [{ ticker: 'APx', error: 'NOT_FOUND', message: 'Ticker not found.' }],
      };
      server.setScript([{ body: partial }]);
      const reference = ReferenceClient(KEY, options());
      assert.deepEqual(await reference.getUniversalSnapshot({ symbols: ['APx'] }), partial);
      await reference.close();
      server.setScript([{ body: notAuthorized }]);
      await assert.rejects(client.getLastTrade('AAPL', { rawResponse: true }), PermissionDeniedError);
    } finally {
      await client.close();
    }
  });

  test('pagination: allPages keeps the pages before the error; getNextPage, getPreviousPage, getAllPages and for await throw it', async () => {
    const client = StocksClient(KEY, options());
    const script: Step[] = [{ body: page(1, '/v3/trades/AAPL?cursor=p2') }, { body: notAuthorized }];
    try {
      server.setScript(script);
      const error = await client.getTradesV3('AAPL', { allPages: true }).then(
        () => assert.fail('expected an error'),
        (e: unknown) => e,
      );
      isNotAuthorized(error, /^\/v3\/trades\/AAPL$/);
      const partial = partialPagesOf(error) as { results: { price: number }[]; next_url: string };
      assert.deepEqual(
        partial.results.map((r) => r.price),
        [1, 2],
      );
      assert.match(partial.next_url, /cursor=p2$/);

      server.setScript(script);
      const first = await client.getTradesV3('AAPL');
      await assert.rejects(client.getNextPage(first), (e: unknown) =>
        isNotAuthorized(e, /\/v3\/trades\/AAPL$/),
      );
      server.setScript([{ body: notAuthorized }]);
      await assert.rejects(client.getAllPages(first), (e: unknown) =>
        isNotAuthorized(e, /\/v3\/trades\/AAPL$/),
      );
      server.setScript([{ body: notAuthorized }]);
      await assert.rejects(
        client.getPreviousPage({ ...first, previous_url: '/v3/trades/AAPL?cursor=p0' }),
        PermissionDeniedError,
      );

      server.setScript(script);
      const seen: number[] = [];
      await assert.rejects(async () => {
        for await (const trade of client.getTradesV3('AAPL')) seen.push((trade as { price: number }).price);
      }, PermissionDeniedError);
      assert.deepEqual(seen, [1, 2]);
    } finally {
      await client.close();
    }
  });

  test('a full range whose chunk answers an error in its body fails with it, as objects and as columns', async () => {
    const bar = (t: number) => ({ v: 1, vw: 1, o: 1, c: 1, h: 1, l: 1, t, n: 1 });
    const bars = { ticker: 'AAPL', status: 'OK', resultsCount: 1, results: [bar(Date.UTC(2024, 0, 2, 15))] };
    const client = StocksClient(KEY, { ...options(), maxRetries: 0 });
    try {
      for (const columnar of [false, true]) {
        // The second of two daily chunks reports the error (requests go in chunk order: one worker).
        server.setScript((_req, i) => ({ body: i === 0 ? bars : { ...notAuthorized, resultsCount: 0 } }));
        await assert.rejects(
          client.getAggregateBars('AAPL', '2014-01-01', '2024-01-05', {
            timespan: 'day',
            fullRange: true,
            columnar,
            runParallel: false,
            info: false,
            warnings: false,
          }),
          (e: unknown) => isNotAuthorized(e, /^\/v2\/aggs\/ticker\/AAPL\/range\/1\/day\/\d+\/\d+$/),
          `columnar: ${columnar}`,
        );
      }
    } finally {
      await client.close();
    }
  });
});

describe('the sync client throws an error reported in a 200 body', () => {
  test('one call and all pages', async () => {
    const server = await startFaultServerThread([
      { body: notAuthorized },
      { body: page(1, '/v3/trades/AAPL?cursor=p2') },
      { body: notAuthorized },
    ]);
    const client = StocksClient(KEY, { baseUrl: server.url, maxRetries: 2 });
    try {
      assert.throws(
        () => client.getPreviousClose('AAPL'),
        (e: unknown) => isNotAuthorized(e, /^\/v2\/aggs\/ticker\/AAPL\/prev$/),
      );
      assert.throws(
        () => client.getTradesV3('AAPL', { allPages: true }),
        (e: unknown) => {
          assert.ok(e instanceof APIError && e.httpStatus === 200);
          assert.deepEqual(
            (partialPagesOf(e) as { results: { price: number }[] }).results.map((r) => r.price),
            [1, 2],
          );
          return true;
        },
      );
      assert.equal((await server.requests()).length, 3, 'no answer was asked again');
    } finally {
      client.close();
      await server.close();
    }
  });
});
