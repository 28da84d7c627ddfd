/**
 * Streams opened and dropped leave no work behind: the replay queries of connections that have gone,
 * still waiting for the replays' shared store slots, never run, so a server whose clients opened many
 * replays and left does only the queries it had already started.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../../src/server/index.js';
import type { Store } from '../../src/server/store/store.js';
import { replayQueries } from '../../src/server/stream/stream-server.js';
import { Hold, holdingStore } from '../support/holding.js';
import { openTestStore } from '../support/store.js';
import { KEY, RawClient, REPLAY_DAY } from './fixture.js';

const STREAMS = 30;
/** The replay's read of the next trades (what each stream asks first). */
const replayRead = (sql: string) =>
  /FROM trades WHERE .* ORDER BY sip_timestamp, ticker, sequence_number/s.test(sql);

/** `inner` counting the replay reads that reach it. */
function countingReads(inner: Store): { store: Store; reads: () => number } {
  let n = 0;
  const count = (sql: string) => {
    if (replayRead(sql)) n++;
  };
  return {
    reads: () => n,
    store: {
      location: inner.location,
      readOnly: inner.readOnly,
      dialect: inner.dialect,
      ...(inner.concurrency !== undefined && { concurrency: inner.concurrency }),
      all: (sql, params) => {
        count(sql);
        return inner.all(sql, params);
      },
      columns: (sql, params) => {
        count(sql);
        return inner.columns(sql, params);
      },
      run: (sql, params) => inner.run(sql, params),
      close: () => inner.close(),
    },
  };
}

test('the waiting replay queries of dropped streams never run', { timeout: 120_000 }, async (t) => {
  const duck = await openTestStore(t);
  if (!duck) return;
  t.after(() => duck.close());
  const hold = new Hold();
  // Counted behind the hold: a read counts once it is let through to the store.
  const counted = countingReads(duck);
  const server = await startServer({
    store: holdingStore(counted.store, hold, replayRead),
    port: 0,
    apiKeys: [KEY],
    replayFrom: REPLAY_DAY,
    replaySpeed: 'max',
    cache: false,
    log: () => {},
  });
  const cap = replayQueries(duck);
  try {
    const clients: RawClient[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const c = await RawClient.open(`${server.url.replace(/^http/, 'ws')}/stocks`);
      c.send('auth', KEY);
      c.send('subscribe', 'T.SPY');
      await c.until((m) => m.some((x) => x.status === 'success'));
      clients.push(c);
    }
    await hold.whenHeld(cap);
    assert.equal(hold.held(), cap, 'the first replays hold every slot, the others wait');

    for (const c of clients) c.close();
    await Promise.all(clients.map((c) => c.closed));
    // The server has seen the connections close once it answers a request that came after.
    const res = await fetch(`${server.url}/v2/aggs/ticker/SPY/prev`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    assert.equal(res.status, 200);
    await res.arrayBuffer();

    hold.release();
  } finally {
    hold.release();
    await server.close();
  }
  // Only the reads that had a slot when their streams went away reached the store.
  assert.equal(counted.reads(), cap);
});
