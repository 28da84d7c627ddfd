/**
 * A server that answers every page with the same `next_url` (or cycles through a few) would keep a
 * paging walk going forever. Every walk stops at the first link it already followed, keeps what it
 * fetched, and says why in one warning line. Real loopback HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StocksClient } from '../../src/index.js';
import { type FaultServer, type Step, startFaultServer } from '../support/fault-server.js';

const KEY = 'loop-key-0123456789abcdef';
/** After this many requests the server gives up looping, so a walk that does not stop still ends. */
const GIVE_UP = 25;

describe('a next_url that repeats', () => {
  let server: FaultServer;
  before(async () => {
    server = await startFaultServer();
  });
  after(() => server.close());

  let start = 0;
  /** Requests received since the script was last set. */
  const sent = () => server.requests.length - start;

  /** Pages `{ results: [{ id: n }] }` whose next_url cycles through `cycle` cursors. */
  function loop(cycle: number): void {
    start = server.requests.length;
    server.setScript((_req, index): Step => {
      const body: Record<string, unknown> = {
        status: 'OK',
        request_id: `r${index}`,
        results: [{ id: index }],
      };
      if (index < GIVE_UP) body.next_url = `${server.url}/v3/trades/AAPL?cursor=c${index % cycle}`;
      return { body };
    });
  }

  function client(lines: string[]) {
    return StocksClient(KEY, { useAsync: true, baseUrl: server.url, logger: (l) => lines.push(l) });
  }

  const warning =
    /^Stopped paging after \d+ pages?: the service sent a next_url already followed \(\/v3\/trades\/AAPL\)/;

  test('allPages stops at the repeated link and keeps every page fetched, without a next_url', async () => {
    loop(1);
    const lines: string[] = [];
    const c = client(lines);
    try {
      const merged = await c.getTradesV3('AAPL', { allPages: true });
      assert.equal(sent(), 2, 'the first page, then the link once');
      assert.deepEqual(
        merged.results.map((r) => (r as unknown as { id: number }).id),
        [0, 1],
      );
      assert.equal(merged.next_url, undefined);
      assert.equal(lines.length, 1);
      assert.match(lines[0] ?? '', warning);
      assert.match(lines[0] ?? '', /after 2 pages/);
      const pages = await c.getTradesV3('AAPL', { allPages: true, mergeAllPages: false });
      assert.equal(pages.length, 2);
    } finally {
      await c.close();
    }
  });

  test('a cycle through several links is caught too', async () => {
    loop(3);
    const lines: string[] = [];
    const c = client(lines);
    try {
      const merged = await c.getTradesV3('AAPL', { allPages: true });
      // The target, then c0, c1, c2; the next link, c0, was followed before.
      assert.equal(sent(), 4);
      assert.equal(merged.results.length, 4);
      assert.match(lines.at(-1) ?? '', warning);
    } finally {
      await c.close();
    }
  });

  test('for await walks each page once, then ends', async () => {
    loop(1);
    const lines: string[] = [];
    const c = client(lines);
    try {
      const ids: number[] = [];
      for await (const trade of c.getTradesV3('AAPL')) ids.push((trade as unknown as { id: number }).id);
      assert.deepEqual(ids, [0, 1]);
      assert.match(lines.at(-1) ?? '', warning);
    } finally {
      await c.close();
    }
  });

  test('getAllPages stops too', async () => {
    loop(1);
    const lines: string[] = [];
    const c = client(lines);
    try {
      const first = await c.getTradesV3('AAPL');
      const pages = await c.getAllPages(first);
      // The given page, the link once (its answer links to itself again).
      assert.equal(pages.length, 2);
      assert.equal(sent(), 2);
      assert.match(lines.at(-1) ?? '', warning);
    } finally {
      await c.close();
    }
  });

  test('a full-range chunk stops too, and keeps its bars', async () => {
    start = server.requests.length;
    const t = Date.parse('2024-01-02T00:00:00-05:00');
    server.setScript((_req, index): Step => {
      const body: Record<string, unknown> = {
        status: 'OK',
        request_id: `r${index}`,
        results: [{ t, o: 1, h: 1, l: 1, c: 1, v: 1 }],
      };
      if (index < GIVE_UP)
        body.next_url = `${server.url}/v2/aggs/ticker/AAPL/range/1/day/${t}/2024-01-02?cursor=same`;
      return { body };
    });
    const lines: string[] = [];
    const c = client(lines);
    try {
      const bars = await c.getFullRangeAggregateBars('AAPL', '2024-01-02', '2024-01-02', { timespan: 'day' });
      assert.deepEqual(
        bars.map((b: { t: number }) => b.t),
        [t],
      );
      assert.equal(sent(), 2);
      assert.ok(
        lines.some((l) =>
          /^Stopped paging after 2 pages: .*\(\/v2\/aggs\/ticker\/AAPL\/range\/1\/day\//.test(l),
        ),
        JSON.stringify(lines),
      );
    } finally {
      await c.close();
    }
  });
});
