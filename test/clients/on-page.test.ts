/**
 * `onPage`: a paged fetch reports each page as it arrives (pages and items so far), with `allPages` and
 * in a `for await` walk. Progress displays are fed by it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type PageProgress, StocksClient } from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';

const KEY = 'test-key-on-page-1';

describe('onPage', () => {
  const server = new RecordingServer();
  before(async () => {
    await server.start();
    await server.use('paginated');
  });
  after(() => server.stop());

  test('allPages reports every page with the items so far; maxPages stops it', async () => {
    const a = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    try {
      const seen: PageProgress[] = [];
      const merged = await a.getTradesV3('AAPL', { allPages: true, onPage: (p) => seen.push(p) });
      assert.equal(merged.results?.length, 9);
      assert.deepEqual(seen, [
        { pages: 1, items: 3 },
        { pages: 2, items: 6 },
        { pages: 3, items: 9 },
      ]);
      const capped: PageProgress[] = [];
      await a.getTradesV3('AAPL', { allPages: true, maxPages: 2, onPage: (p) => capped.push(p) });
      assert.deepEqual(capped.at(-1), { pages: 2, items: 6 });
      const walked: PageProgress[] = [];
      for await (const _ of a.getTradesV3('AAPL', { onPage: (p) => walked.push(p) })) {
        // every item
      }
      assert.deepEqual(
        walked.map((p) => p.pages),
        [1, 2, 3],
      );
      await assert.rejects(
        async () => a.getTradesV3('AAPL', { allPages: true, onPage: 'yes' as never }),
        /Invalid onPage: .*expected a function/,
      );
    } finally {
      await a.close();
    }
  });
});
