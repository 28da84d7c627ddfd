/**
 * Windows far longer than the range asked, on both stores: SPY's real Lean files are ingested into a
 * DuckDB store and published into a real ClickHouse server, and over loopback HTTP each store answers
 * every timespan with multipliers up to the largest the route takes with the same bodies, each bar made
 * of the range's data alone, and is asked about the range alone.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import { publishToClickHouse } from '../../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { startClickHouse } from '../../support/clickhouse.js';
import { type RecordingStore, recordingStore } from '../../support/recording-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { getJson } from '../app-fixture.js';
import { assertAskedWithin, assertWideBar, WIDE_CASES, WIDE_MULTIPLIERS, widePath } from '../wide-windows.js';

/** SPY's ticks and minute bars around 2013-10-07 and its daily bars: the data of WIDE_CASES. */
const FILES = [
  'equity/usa/tick/spy/20131007_trade.zip',
  'equity/usa/minute/spy/20131004_trade.zip',
  'equity/usa/minute/spy/20131007_trade.zip',
  'equity/usa/daily/spy.zip',
];

test('windows far longer than the range: the same bars of the range alone on DuckDB and ClickHouse', {
  timeout: 300_000,
}, async (t) => {
  if (!hasShared(t, leanDir)) return;
  const servers = await startClickHouse(t);
  if (!servers) return;
  const work = mkdtempSync(join(tmpdir(), 'mdq-wide-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const lean = join(work, 'lean');
  for (const f of FILES) {
    mkdirSync(dirname(join(lean, f)), { recursive: true });
    symlinkSync(join(leanDir, f), join(lean, f));
  }
  const duck = await DuckDbStore.open(join(work, 'store.duckdb'));
  t.after(() => duck.close());
  await ingestLean(duck, lean);
  const clickhouse = await ClickHouseStore.open(servers.urls[0] as string, { readOnly: true });
  t.after(() => clickhouse.close());
  await publishToClickHouse(duck, clickhouse);

  const stores: [string, RecordingStore, RunningServer][] = [];
  for (const [name, store] of [
    ['DuckDB', duck],
    ['ClickHouse', clickhouse],
  ] as const) {
    const recording = recordingStore(store);
    const server = await startServer({ store: recording.store, port: 0, log: () => {} });
    t.after(() => server.close());
    stores.push([name, recording, server]);
  }
  for (const c of WIDE_CASES) {
    const bodies: unknown[] = [];
    for (const [name, recording, server] of stores) {
      const unit = await getJson(server, widePath(c, 1));
      assert.equal(unit.status, 200, `${name}: ${JSON.stringify(unit.body)}`);
      for (const multiplier of WIDE_MULTIPLIERS) {
        recording.clear();
        const { status, body } = await getJson(server, widePath(c, multiplier));
        assert.equal(status, 200, `${name}: ${JSON.stringify(body)}`);
        assertWideBar(c, multiplier, body, unit.body);
        assertAskedWithin(c, multiplier, recording.queries());
        delete body.request_id;
        bodies.push(body);
      }
    }
    const half = bodies.length / 2;
    assert.deepEqual(bodies.slice(half), bodies.slice(0, half), `${c.timespan}: ClickHouse as DuckDB`);
  }
});
