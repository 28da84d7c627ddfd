/**
 * Publishing into a real two-shard cluster is atomic per server and month: a re-run duplicates
 * nothing and a reader through the Distributed tables sees every row all along; a publish that fails
 * before a month's swap leaves that month's stored rows whole on both shards, and one that fails
 * midway leaves each month on each shard either wholly old or wholly new, which a re-run completes.
 * Faults are injected between the publish's steps (its `onStep`): an error, or a staging table
 * dropped on the servers so that ClickHouse itself refuses the next swap.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import { type PublishStep, publishToClickHouse } from '../../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { startClickHouse } from '../../support/clickhouse.js';
import { hasShared, leanDir } from '../../support/shared.js';

/** Minute bars of several tickers in four months, and a day of ticks. */
const FILES = [
  ...['spy', 'ibm', 'aig', 'bac'].map((t) => `equity/usa/minute/${t}/20131007_trade.zip`),
  ...['aapl', 'twx'].map((t) => `equity/usa/minute/${t}/20140605_trade.zip`),
  'equity/usa/minute/goog/20151224_trade.zip',
  ...['btcusd', 'ethusd'].map((t) => `crypto/coinbase/minute/${t}/20180404_trade.zip`),
  'equity/usa/tick/ibm/20131007_trade.zip',
  'equity/usa/tick/bac/20131007_trade.zip',
];

const TABLES = ['trades', 'bars', 'tickers'];

/** Per month of `bars` on one server: rows, and an exact digest of the column the new data changes. */
type Months = Record<string, string>;

async function barMonths(server: ClickHouseStore): Promise<Months> {
  // Aliases apart from the column names: ClickHouse would read an alias `n` inside `sum(n)`.
  const rows = await server.all<{ month: string; rows: bigint; trades: bigint; times: bigint }>(
    `SELECT toString(toYYYYMM(toDate(intDiv(t, 1000)))) AS month, count() AS rows, sum(ifNull(n, 0)) AS trades,
            sum(t) AS times
       FROM bars_local GROUP BY month ORDER BY month`,
  );
  return Object.fromEntries(rows.map((r) => [r.month, `${r.rows} rows, n ${r.trades}, t ${r.times}`]));
}

async function count(store: ClickHouseStore | DuckDbStore, table: string): Promise<number> {
  const [row] = await store.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(row?.n);
}

/** Rows of each table on each server. */
async function counts(servers: readonly ClickHouseStore[]): Promise<number[][]> {
  return Promise.all(servers.map((s) => Promise.all(TABLES.map((t) => count(s, `${t}_local`)))));
}

describe('ClickHouse cluster publish', () => {
  test('atomic per server and month: no duplicates, full reads throughout, a failed run loses nothing', {
    timeout: 600_000,
  }, async (t) => {
    if (!hasShared(t, leanDir)) return;
    const servers = await startClickHouse(t, 2);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-cluster-publish-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const lean = join(work, 'lean');
    for (const f of FILES) {
      mkdirSync(dirname(join(lean, f)), { recursive: true });
      symlinkSync(join(leanDir, f), join(lean, f));
    }
    const old = await DuckDbStore.open(join(work, 'old.duckdb'));
    t.after(() => old.close());
    await ingestLean(old, lean);
    // The new data: the same files, read again, with a changed value in every bar, and without SPY,
    // whose stored bars must then stay as they are.
    const changed = await DuckDbStore.open(join(work, 'new.duckdb'));
    t.after(() => changed.close());
    await ingestLean(changed, lean);
    await changed.run('UPDATE bars SET n = coalesce(n, 0) + 1');
    await changed.run("DELETE FROM bars WHERE ticker = 'SPY'");

    const cluster = await ClickHouseStore.open(servers.urls[0] as string, {
      cluster: servers.cluster as string,
    });
    const shards = await Promise.all(servers.urls.map((url) => ClickHouseStore.open(url)));
    t.after(async () => {
      await cluster.close();
      for (const s of shards) await s.close();
    });
    const total = await Promise.all(TABLES.map((table) => count(old, table)));

    await publishToClickHouse(old, cluster);
    const before = await counts(shards);
    const oldMonths = await Promise.all(shards.map(barMonths));
    assert.deepEqual(
      TABLES.map((_, i) => before.reduce((sum, shard) => sum + (shard[i] as number), 0)),
      total,
      'every row once, over the two shards',
    );
    assert.ok(
      oldMonths.every((m) => Object.keys(m).length > 0),
      `bars on both shards: ${JSON.stringify(oldMonths)}`,
    );

    await t.test('a re-run duplicates nothing, and a reader sees every row all along', async () => {
      const steps: PublishStep[] = [];
      const full = async (when: string) => {
        assert.deepEqual(await Promise.all(TABLES.map((table) => count(cluster, table))), total, when);
      };
      let publishing = true;
      let reads = 0;
      const reader = (async () => {
        do {
          await full(`a read during the publish (read ${++reads})`);
          // A breath between reads, to leave the shared machine to the publish.
          await new Promise((resolve) => setTimeout(resolve, 10));
        } while (publishing);
      })();
      try {
        await publishToClickHouse(old, cluster, {
          onStep: async (step) => {
            steps.push(step);
            await full(`after ${JSON.stringify(step)}`);
          },
        });
      } finally {
        publishing = false;
        await reader;
      }
      assert.deepEqual(await counts(shards), before);
      assert.deepEqual(await Promise.all(shards.map(barMonths)), oldMonths);
      const swapped = new Set(
        steps.filter((s) => s.table === 'bars' && s.step === 'swapped').map((s) => s.server),
      );
      assert.equal(swapped.size, 2, `bars swapped on both servers: ${JSON.stringify(steps)}`);
    });

    await t.test('a failure before the swaps leaves every stored row as it was', async () => {
      await assert.rejects(
        publishToClickHouse(changed, cluster, {
          onStep: (step) => {
            if (step.table === 'bars' && step.step === 'staged')
              throw new Error('fault injected before the swaps');
          },
        }),
        /fault injected before the swaps/,
      );
      assert.deepEqual(await counts(shards), before);
      assert.deepEqual(await Promise.all(shards.map(barMonths)), oldMonths);
      await assertNoStaging(shards);
    });

    let midway: Months[] = [];
    await t.test('a failure midway leaves each month on each shard whole, old or new', async () => {
      let swaps = 0;
      await assert.rejects(
        publishToClickHouse(changed, cluster, {
          onStep: async (step) => {
            if (step.table !== 'bars' || step.step !== 'swapped' || ++swaps > 1) return;
            // The staging shards vanish after the first swap: the next swap fails in ClickHouse.
            for (const s of shards) await s.run('DROP TABLE bars_stage_local');
          },
        }),
        /bars_stage_local/,
      );
      assert.equal(swaps, 1);
      assert.deepEqual(await counts(shards), before, 'no row lost or doubled on either shard');
      midway = await Promise.all(shards.map(barMonths));
      await assertNoStaging(shards);
    });

    await t.test(
      'a server that does not answer at the port of the store URL is named before any write',
      async () => {
        // The first server behind a port of its own on 127.0.0.1 only: the second one is then looked
        // for on ::1 at that port, where nothing answers.
        const first = new URL(servers.urls[0] as string);
        const proxy = createServer((socket) => {
          const upstream = connect(Number(first.port), first.hostname);
          socket.pipe(upstream).pipe(socket);
          const end = () => {
            socket.destroy();
            upstream.destroy();
          };
          socket.on('error', end);
          upstream.on('error', end);
        });
        await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
        const port = (proxy.address() as AddressInfo).port;
        try {
          const viaProxy = await ClickHouseStore.open(`clickhouse://default@127.0.0.1:${port}/default`, {
            cluster: servers.cluster as string,
          });
          try {
            await assert.rejects(
              publishToClickHouse(changed, viaProxy),
              new RegExp(
                `Shard 2 \\(replica 1\\) of cluster ${servers.cluster} does not answer over HTTP at \\[::1\\]:${port}`,
              ),
            );
          } finally {
            await viaProxy.close();
          }
        } finally {
          proxy.close();
        }
        assert.deepEqual(await Promise.all(shards.map(barMonths)), midway, 'nothing written');
      },
    );

    await t.test('a re-run completes it; every month a failed run left is the old or the new', async () => {
      assert.equal(midway.length, shards.length, 'the state the failed run left was read');
      await publishToClickHouse(changed, cluster);
      assert.deepEqual(await counts(shards), before);
      const newMonths = await Promise.all(shards.map(barMonths));
      const states = { old: 0, new: 0 };
      shards.forEach((_, i) => {
        for (const [month, seen] of Object.entries(midway[i] as Months)) {
          const [was, is] = [oldMonths[i]?.[month], newMonths[i]?.[month]];
          assert.ok(seen === was || seen === is, `shard ${i + 1}, ${month}: ${seen}; old ${was}, new ${is}`);
          if (was !== is) states[seen === was ? 'old' : 'new']++;
        }
      });
      assert.equal(states.new, 1, 'one month swapped on one shard before the failure');
      assert.ok(states.old > 0, 'the months after the failure still old');
      // SPY is not in the new data: its stored bars stay.
      const [spy] = await cluster.all<{ n: bigint }>("SELECT count() AS n FROM bars WHERE ticker = 'SPY'");
      const [oldSpy] = await old.all<{ n: bigint }>("SELECT count(*) AS n FROM bars WHERE ticker = 'SPY'");
      assert.ok(Number(oldSpy?.n) > 0);
      assert.equal(Number(spy?.n), Number(oldSpy?.n));
    });
  });
});

/** No staging table is left on any server. */
async function assertNoStaging(shards: readonly ClickHouseStore[]): Promise<void> {
  for (const s of shards) {
    const left = await s.all<{ name: string }>(
      "SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE '%\\_stage%'",
    );
    assert.deepEqual(left, [], s.location);
  }
}
