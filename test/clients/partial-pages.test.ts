/**
 * A walk through pages that fails part-way (`allPages`, `getAllPages`) keeps what it fetched: the error
 * (typed as before) carries the pages fetched before the failed one, merged or as a list as the call
 * would have returned them, whose link is the one that failed, so the walk can go on from there. The
 * async and the sync client alike, over real loopback HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InternalServerError, isAPIError, partialPagesOf, StocksClient } from '../../src/index.js';
import {
  type FaultServer,
  type Step,
  startFaultServer,
  startFaultServerThread,
} from '../support/fault-server.js';

const page = (from: number, next?: string) => ({
  status: 'OK',
  request_id: `r${from}`,
  results: [
    { price: from, size: 1 },
    { price: from + 1, size: 1 },
  ],
  ...(next && { next_url: next }),
});
// Page 3 fails on every attempt; after it was mended, it answers and ends the walk.
const SCRIPT: Step[] = [
  { body: page(1, '/v3/trades/AAPL?cursor=p2') },
  { body: page(3, '/v3/trades/AAPL?cursor=p3') },
  { status: 500, body: { status: 'ERROR', request_id: 'x', error: 'boom' } },
];

type Trades = { results: { price: number }[]; next_url?: string };

describe('a walk through pages that fails part-way keeps what it fetched', () => {
  let server: FaultServer;
  before(async () => {
    server = await startFaultServer(SCRIPT);
  });
  after(() => server.close());

  test('allPages merged: the typed error carries the merged pages, its next_url the failed link; the walk goes on from it', async () => {
    server.setScript(SCRIPT);
    const client = StocksClient('k', { useAsync: true, baseUrl: server.url, maxRetries: 0 });
    try {
      const error = await client.getTradesV3('AAPL', { allPages: true }).then(
        () => assert.fail('expected an error'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof InternalServerError);
      assert.equal(error.status, 500);
      assert.match(error.message, /page 3; the 2 pages fetched before it are on the error's `partial`/);
      const partial = partialPagesOf(error) as Trades;
      assert.deepEqual(
        partial.results.map((r) => r.price),
        [1, 2, 3, 4],
      );
      assert.match(String(partial.next_url), /cursor=p3$/);
      server.setScript([{ body: page(5) }]);
      const rest = (await client.getPageByUrl(String(partial.next_url))) as Trades;
      assert.deepEqual(
        rest.results.map((r) => r.price),
        [5, 6],
      );
    } finally {
      await client.close();
    }
  });

  test('mergeAllPages false and getAllPages: the list of pages fetched', async () => {
    const client = StocksClient('k', { useAsync: true, baseUrl: server.url, maxRetries: 0 });
    try {
      server.setScript(SCRIPT);
      const listed = await client.getTradesV3('AAPL', { allPages: true, mergeAllPages: false }).then(
        () => assert.fail('expected an error'),
        (e: unknown) => e,
      );
      assert.ok(isAPIError(listed));
      assert.deepEqual(
        (partialPagesOf(listed) as Trades[]).map((p) => p.results.map((r) => r.price)),
        [
          [1, 2],
          [3, 4],
        ],
      );
      server.setScript(SCRIPT);
      const first = await client.getTradesV3('AAPL');
      const walked = await client.getAllPages(first).then(
        () => assert.fail('expected an error'),
        (e: unknown) => e,
      );
      assert.ok(isAPIError(walked));
      assert.equal((partialPagesOf(walked) as Trades[]).length, 2);
    } finally {
      await client.close();
    }
  });

  test('the sync client: the same error and pages', async () => {
    const thread = await startFaultServerThread(SCRIPT);
    const sync = StocksClient('k', { baseUrl: thread.url, maxRetries: 0 });
    try {
      let error: unknown;
      try {
        sync.getTradesV3('AAPL', { allPages: true });
      } catch (e) {
        error = e;
      }
      assert.ok(isAPIError(error), String(error));
      assert.equal((error as InternalServerError).status, 500);
      const partial = partialPagesOf(error) as Trades;
      assert.deepEqual(
        partial.results.map((r) => r.price),
        [1, 2, 3, 4],
      );
      assert.match(String(partial.next_url), /cursor=p3$/);
    } finally {
      sync.close();
      await thread.close();
    }
  });
});
