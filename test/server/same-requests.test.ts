/**
 * Identical requests arriving together are answered by one computation: the server that keeps answers
 * lets the later ones wait for the first one's answer instead of running its queries again, so a crowd
 * asking for the same heavy page costs the store what one request does. Each still gets its own
 * request id, and the same results.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../../src/server/index.js';
import { countingStore } from '../support/counting-store.js';
import { openTestStore } from '../support/store.js';

const PATH = '/v3/trades/SPY?timestamp=2013-10-07&limit=20000';
const CROWD = 20;

test('a crowd of identical requests costs the store the queries of one', { timeout: 120_000 }, async (t) => {
  const duck = await openTestStore(t);
  if (!duck) return;
  t.after(() => duck.close());
  const counting = countingStore(duck);
  // No query-result cache: every query a request makes reaches the counting store.
  const options = { store: counting.store, port: 0, cache: true, queryCacheBytes: 0, log: () => {} } as const;

  const alone = await startServer(options);
  let one: { results: unknown[]; request_id: string };
  try {
    one = (await (await fetch(alone.url + PATH)).json()) as typeof one;
  } finally {
    await alone.close();
  }
  const queriesOfOne = counting.queries();
  assert.ok(queriesOfOne > 0 && one.results.length === 20_000);

  counting.reset();
  const server = await startServer(options);
  try {
    const answers = await Promise.all(
      Array.from({ length: CROWD }, async () => {
        const res = await fetch(server.url + PATH);
        assert.equal(res.status, 200);
        return (await res.json()) as typeof one;
      }),
    );
    for (const a of answers) assert.deepEqual(a.results, one.results);
    assert.equal(new Set(answers.map((a) => a.request_id)).size, CROWD, 'each answer has its own request id');
  } finally {
    await server.close();
  }
  assert.equal(counting.queries(), queriesOfOne, `${CROWD} identical requests, the queries of one`);
});
