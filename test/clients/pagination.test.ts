import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { isMdqError, StocksClient, type SyncRawResponse } from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';

const KEY = 'pagination-key-5678';

describe('pagination over loopback HTTP', () => {
  const server = new RecordingServer();
  const foreign = new RecordingServer();

  before(async () => {
    await server.start();
    await foreign.start();
    await server.use('paginated');
  });
  beforeEach(async () => {
    await server.take();
    await foreign.take();
  });
  after(async () => {
    await server.stop();
    await foreign.stop();
  });

  const ids = (results: { id: string }[]) => results.map((r) => r.id);

  test('allPages merges every page in order, first page first, with sane metadata', async () => {
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const merged = await client.getTradesV3('AAPL', { limit: 3, allPages: true });
    await client.close();
    assert.deepEqual(ids(merged.results), ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    assert.equal(merged.next_url, undefined, 'no next_url once every page is in');
    assert.equal(merged.request_id, 'req-1');
    const seen = await server.take();
    assert.equal(seen.length, 3);
    assert.deepEqual(seen[1]?.query, [['cursor', 'p2']], 'a link is followed as given');
  });

  test('maxPages is exact: 1 is one page; 2 keeps the link to the third', async () => {
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const one = await client.getTradesV3('AAPL', { allPages: true, maxPages: 1 });
    assert.equal((await server.take()).length, 1);
    assert.deepEqual(ids(one.results), ['1', '2', '3']);
    const two = await client.getTradesV3('AAPL', { allPages: true, maxPages: 2 });
    assert.deepEqual(ids(two.results), ['1', '2', '3', '4', '5', '6']);
    assert.equal(two.next_url, `${server.url}/v3/trades/AAPL?cursor=p3`);
    await assert.rejects(
      async () => client.getTradesV3('AAPL', { allPages: true, maxPages: 0 }),
      (e: unknown) => isMdqError(e) && /maxPages/.test((e as Error).message),
    );
    await client.close();
  });

  test('maxPages null means every page (async and sync)', async () => {
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const all = await client.getTradesV3('AAPL', { allPages: true, maxPages: null });
    await client.close();
    assert.deepEqual(ids(all.results), ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    assert.equal((await server.take()).length, 3);
    const sync = StocksClient(KEY, { baseUrl: server.url });
    try {
      const pages = sync.getTradesV3('AAPL', { allPages: true, maxPages: null, mergeAllPages: false });
      assert.equal(pages.length, 3);
      assert.equal(sync.getAllPages(pages[0]!, { maxPages: null }).length, 3);
    } finally {
      sync.close();
    }
  });

  test('mergeAllPages false gives the list of pages; rawPageResponses gives responses', async () => {
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const list = await client.getTradesV3('AAPL', { allPages: true, mergeAllPages: false });
    assert.deepEqual(
      list.map((p) => p.request_id),
      ['req-1', 'req-2', 'req-3'],
    );
    const raw = await client.getTradesV3('AAPL', {
      allPages: true,
      mergeAllPages: false,
      rawPageResponses: true,
    });
    assert.ok(raw.every((r) => r instanceof Response));
    assert.deepEqual(
      await Promise.all(raw.map(async (r) => ((await r.json()) as { request_id: string }).request_id)),
      ['req-1', 'req-2', 'req-3'],
    );
    await client.close();
  });

  test('getNextPage, getPreviousPage and getAllPages in both directions', async () => {
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const first = await client.getTradesV3('AAPL', { limit: 3 });
    assert.equal(await client.getPreviousPage(first), false);
    const second = await client.getNextPage(first);
    assert.equal(second.request_id, 'req-2');
    const third = await client.getNextPage(second);
    assert.equal(await client.getNextPage(third), false);
    const back = await client.getPreviousPage(third);
    assert.equal(back.request_id, 'req-2');
    const forward = await client.getAllPages(first);
    assert.deepEqual(
      forward.map((p) => p.request_id),
      ['req-1', 'req-2', 'req-3'],
    );
    const backward = await client.getAllPages(third, { direction: 'previous', maxPages: 2 });
    assert.deepEqual(
      backward.map((p) => p.request_id),
      ['req-3', 'req-2'],
    );
    const rawFirst = await client.getTradesV3('AAPL', { rawResponse: true });
    assert.ok(rawFirst instanceof Response);
    const fromRaw = await client.getNextPage(rawFirst);
    assert.equal(fromRaw.request_id, 'req-2');
    await client.close();
  });

  test('for await walks every item lazily and stops fetching at maxItems', async () => {
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const all: string[] = [];
    for await (const trade of client.getTradesV3('AAPL')) all.push(trade.id);
    assert.deepEqual(all, ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    await server.take();
    const some: string[] = [];
    for await (const trade of client.getTradesV3('AAPL', { maxItems: 4 })) some.push(trade.id);
    assert.deepEqual(some, ['1', '2', '3', '4']);
    assert.equal((await server.take()).length, 2, 'the third page is never fetched');
    for await (const trade of client.getTradesV3('AAPL')) if (trade.id === '2') break;
    assert.equal((await server.take()).length, 1, 'breaking out stops fetching');
    await client.close();
  });

  test('a next_url on another origin is refused and never receives the key', async () => {
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const page = {
      status: 'OK',
      request_id: 'x',
      results: [],
      next_url: `${foreign.url}/v3/trades/AAPL?cursor=p2`,
    };
    await assert.rejects(
      client.getNextPage(page),
      (e: unknown) => (e as Error).name === 'ForeignOriginError',
    );
    await assert.rejects(
      client.getPageByUrl(`${foreign.url}/v3/trades/AAPL`),
      (e: unknown) => (e as Error).name === 'ForeignOriginError',
    );
    assert.equal((await foreign.take()).length, 0);
    await client.close();
  });

  test('the sync client pages exactly like the async one', async () => {
    const a = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const s = StocksClient(KEY, { baseUrl: server.url });
    const asyncMerged = await a.getTradesV3('AAPL', { allPages: true, maxPages: 2 });
    const syncMerged = s.getTradesV3('AAPL', { allPages: true, maxPages: 2 });
    assert.deepEqual(syncMerged, asyncMerged);
    const first = s.getTradesV3('AAPL');
    assert.equal(s.getNextPage(first).request_id, 'req-2');
    const rawFirst = s.getTradesV3('AAPL', { rawResponse: true }) as unknown as SyncRawResponse;
    assert.equal(rawFirst.status, 200);
    assert.equal(JSON.parse(rawFirst.body).request_id, 'req-1');
    assert.equal(s.getNextPage(rawFirst).request_id, 'req-2');
    await a.close();
    s.close();
  });
});
