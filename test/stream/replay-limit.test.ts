/**
 * However many connections replay, their queries together take at most `replayQueries(store)` of the
 * store's connections: with 50 streams whose every query is held unanswered, a REST request is still
 * answered, on ClickHouse (the queries held at a proxy in front of the server, each on a socket of the
 * client's pool) and on DuckDB (held in front of its read connections).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startServer } from '../../src/server/index.js';
import { ingestLean } from '../../src/server/ingest/lean.js';
import { publishToClickHouse } from '../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import type { Store } from '../../src/server/store/store.js';
import { replayQueries } from '../../src/server/stream/stream-server.js';
import { leanSubset } from '../server/ingest/helpers.js';
import { startClickHouse } from '../support/clickhouse.js';
import { countingStore } from '../support/counting-store.js';
import { Hold, holdingStore, startHoldingProxy } from '../support/holding.js';
import { hasShared, sharedDir } from '../support/shared.js';
import { openTestStore } from '../support/store.js';
import { KEY, RawClient, REPLAY_DAY } from './fixture.js';

const STREAMS = 50;
/** The replay's read of the next trades (what each stream asks first). */
const replayRead = (sql: string) =>
  /FROM trades WHERE .* ORDER BY sip_timestamp, ticker, sequence_number/s.test(sql);
const futuresDir = `${sharedDir}marketdata-futures/lean/`;

/**
 * Opens {@link STREAMS} replays of GCZ3's trades over `store` (whose replay reads `hold` holds), and
 * checks that a REST request is answered while they are held, with `replayQueries` of them in flight.
 */
async function restBesideHeldReplays(store: Store, hold: Hold): Promise<void> {
  const counting = countingStore(store);
  const server = await startServer({
    store: counting.store,
    port: 0,
    apiKeys: [KEY],
    replayFrom: REPLAY_DAY,
    replaySpeed: 'max',
    cache: false,
    log: () => {},
  });
  const clients: RawClient[] = [];
  // Closed here, before the caller closes the store: the replays' queries end first.
  try {
    const cap = replayQueries(store);
    assert.ok(cap < (store.concurrency ?? 1), `${cap} replay queries leave connections to requests`);
    for (let i = 0; i < STREAMS; i++) {
      const c = await RawClient.open(`${server.url.replace(/^http/, 'ws')}/futures`);
      c.send('auth', KEY);
      c.send('subscribe', 'T.GCZ3');
      clients.push(c);
    }
    await hold.whenHeld(cap);
    assert.equal(counting.inFlight(), cap, 'the replays have as many queries in flight as they may');
    assert.equal(counting.maxInFlight(), cap, 'and never had more');

    const rest = fetch(`${server.url}/v2/aggs/ticker/GCZ3/range/1/day/2013-10-07/2013-10-07`, {
      headers: { Authorization: `Bearer ${KEY}` },
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { resultsCount?: number } }));
    // More replay queries held than allowed would have taken the connections the request needs.
    const first = await Promise.race([rest, hold.whenHeld(cap + 1).then(() => 'more replay queries held')]);
    assert.notEqual(first, 'more replay queries held');
    const answer = await rest;
    assert.equal(answer.status, 200);
    assert.equal(answer.body.resultsCount, 1);
    assert.equal(hold.held(), cap, 'the replays were held while the request was answered');

    hold.release();
    await Promise.all(clients.map((c) => c.until((m) => m.some((x) => x.ev === 'T'))));
  } finally {
    hold.release();
    for (const c of clients) c.close();
    await Promise.all(clients.map((c) => c.closed));
    await server.close();
  }
}

describe('many replays beside REST requests', () => {
  test('ClickHouse: a REST request is answered while 50 replays hold their queries', {
    timeout: 300_000,
  }, async (t) => {
    if (!hasShared(t, futuresDir)) return;
    const servers = await startClickHouse(t);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-replay-limit-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const lean = leanSubset(['future/comex/tick/gc/20131007_trade.zip'], futuresDir);
    t.after(lean.cleanup);
    const duck = await DuckDbStore.open(join(work, 'store.duckdb'));
    t.after(() => duck.close());
    await ingestLean(duck, lean.dir);
    const direct = await ClickHouseStore.open(servers.urls[0] as string);
    t.after(() => direct.close());
    await publishToClickHouse(duck, direct);

    const hold = new Hold();
    const proxy = await startHoldingProxy(direct.target.url, hold, replayRead);
    t.after(() => proxy.close());
    const port = new URL(proxy.url).port;
    const store = await ClickHouseStore.open(`clickhouse://default@127.0.0.1:${port}/default`, {
      readOnly: true,
    });
    t.after(() => store.close());
    await restBesideHeldReplays(store, hold);
  });

  test('DuckDB: a REST request is answered while 50 replays hold their queries', {
    timeout: 120_000,
  }, async (t) => {
    const duck = await openTestStore(t);
    if (!duck) return;
    t.after(() => duck.close());
    const hold = new Hold();
    await restBesideHeldReplays(holdingStore(duck, hold, replayRead), hold);
  });
});
