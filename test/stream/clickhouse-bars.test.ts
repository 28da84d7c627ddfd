/**
 * The replay's bar channels (forex `CA`, crypto `XA`, index `AM`/`V`, futures `AM`) read from a
 * ClickHouse store the same bars, in the same order, as from a DuckDB store holding the same Lean files.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ingestLean } from '../../src/server/ingest/lean.js';
import { publishToClickHouse } from '../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import type { Store } from '../../src/server/store/store.js';
import { FEEDS } from '../../src/server/stream/feeds.js';
import { type Tick, type TickKey, TickSource, tickKey } from '../../src/server/stream/tick-source.js';
import type { StreamMarket } from '../../src/stream/channels.js';
import { leanSubset } from '../server/ingest/helpers.js';
import { startClickHouse } from '../support/clickhouse.js';
import { hasShared, leanDir, sharedDir } from '../support/shared.js';

const FILES = [
  'forex/oanda/minute/eurusd/20140501_quote.zip',
  'crypto/coinbase/minute/btcusd/20180404_trade.zip',
  'index/usa/minute/spx/20210104_trade.zip',
];
const FUTURES = 'future/cme/minute/es/20131007_trade.zip';
const futuresDir = `${sharedDir}marketdata-futures/lean/`;

/** Per market: where its replay starts and a wildcard of its bar channel. */
const REPLAYS: readonly [StreamMarket, string][] = [
  ['forex', '2014-05-01T00:00:00Z'],
  ['crypto', '2018-04-04T00:00:00Z'],
  ['indices', '2021-01-04T14:00:00Z'],
  ['futures', '2013-10-07T00:00:00Z'],
];

/** The first batches of bar ticks a replay of every ticker's minute bars reads, as keys and closes. */
async function replayed(store: Store, market: StreamMarket, from: string): Promise<unknown[]> {
  const source = new TickSource(store, market, FEEDS[market]);
  const all = { all: true, tickers: [] };
  const fromNs = BigInt(Date.parse(from)) * 1_000_000n;
  const out: unknown[] = [];
  let after: TickKey | undefined;
  for (let i = 0; i < 3; i++) {
    const batch: Tick[] = await source.next(undefined, undefined, fromNs, after, 500, { minute: all });
    const last = batch.at(-1);
    if (!last) break;
    out.push(...batch.map((x) => [tickKey(x), 'bar' in x ? x.bar : undefined]));
    after = tickKey(last);
  }
  return out;
}

describe('the replay of bar channels from a ClickHouse store', () => {
  test('forex, crypto, indices and futures bars as from DuckDB', { timeout: 300_000 }, async (t) => {
    if (!hasShared(t, leanDir) || !hasShared(t, futuresDir)) return;
    const servers = await startClickHouse(t);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-replay-bars-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const lean = leanSubset(FILES);
    t.after(lean.cleanup);
    const futures = leanSubset([FUTURES], futuresDir);
    t.after(futures.cleanup);
    const duck = await DuckDbStore.open(join(work, 'store.duckdb'));
    t.after(() => duck.close());
    await ingestLean(duck, lean.dir);
    await ingestLean(duck, futures.dir);
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string, { readOnly: true });
    t.after(() => clickhouse.close());
    await publishToClickHouse(duck, clickhouse);

    for (const [market, from] of REPLAYS) {
      const expected = await replayed(duck, market, from);
      assert.ok(expected.length > 0, `${market}: bars replayed from DuckDB`);
      assert.deepEqual(await replayed(clickhouse, market, from), expected, market);
    }
  });
});
