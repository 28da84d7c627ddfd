import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carryRecordsForward, markRecordFieldsFilled } from './clickhouse-record-fields.js';
import { CLICKHOUSE_TABLES, type ClickHouseTable } from './clickhouse-schema.js';
import type { ClickHouseStore } from './clickhouse-store.js';
import type { DuckDbStore } from './duckdb-store.js';

/** Rows published per table. */
export type PublishedRows = Record<string, number>;

/** How a DuckDB column is written for ClickHouse's `JSONEachRow` reader, by its ClickHouse type. */
function exportColumn(name: string, type: string): string {
  if (type === 'Array(String)') return `coalesce(${name}, []::VARCHAR[]) AS ${name}`;
  if (type.startsWith('Array(')) return `coalesce(${name}, []::INTEGER[]) AS ${name}`;
  if (type === 'UInt8') return `${name}::INTEGER AS ${name}`;
  if (type.includes('DateTime')) return `strftime(${name}, '%Y-%m-%d %H:%M:%S') AS ${name}`;
  return name;
}

/**
 * Publishes everything in `staging` (a DuckDB store a `mdq ingest` has just filled from files) into
 * the ClickHouse `target`, creating its tables when missing. This is how `mdq ingest … --store
 * clickhouse://…` writes: the files are parsed into a scratch DuckDB store by the same code as
 * always, then each table is published.
 *
 * Atomic and idempotent by partition swap: the new rows go into a staging table of the same
 * structure, joined there by the target's rows of the same partitions (months) that the new rows do
 * not replace, i.e. outside the slices (a ticker's day, or a small table's key) the new rows cover;
 * then `ALTER TABLE … REPLACE PARTITION … FROM` swaps each partition in whole. A reader sees a month
 * before or after, never half of it, and a re-run replaces the same slices with the same rows, so
 * nothing is ever duplicated. An interrupted run leaves each month old or new; running it again
 * completes it. One writer at a time (as with a DuckDB file).
 */
export async function publishToClickHouse(
  staging: DuckDbStore,
  target: ClickHouseStore,
): Promise<PublishedRows> {
  await target.createSchema();
  const fillsRecordFields = await carryRecordsForward(staging, target);
  const folder = mkdtempSync(join(tmpdir(), 'mdq-publish-'));
  const published: PublishedRows = {};
  try {
    for (const table of CLICKHOUSE_TABLES) {
      published[table.name] = await publishTable(staging, target, table, join(folder, `${table.name}.json`));
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  if (fillsRecordFields) await markRecordFieldsFilled(target);
  return published;
}

async function publishTable(
  staging: DuckDbStore,
  target: ClickHouseStore,
  table: ClickHouseTable,
  file: string,
): Promise<number> {
  const [count] = await staging.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table.name}`);
  const rows = Number(count?.n ?? 0n);
  if (rows === 0) return 0;
  const select = table.columns.map(([name, type]) => exportColumn(name, type)).join(', ');
  await staging.run(
    `COPY (SELECT ${select} FROM ${table.name}) TO '${file.replaceAll("'", "''")}' (FORMAT JSON)`,
  );

  const stage = `${table.name}_stage`;
  if (target.cluster) {
    const [left] = await target.all<{ n: bigint }>(
      `SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = '${stage}'`,
    );
    if (left && left.n > 0n) {
      throw new Error(
        `${stage} holds the rows of an earlier publish that failed; restore them into ${table.name} first`,
      );
    }
  }
  let keep = false;
  await target.dropTable(stage);
  await target.createTable(table, stage);
  try {
    await target.insert(stage, 'JSONEachRow', createReadStream(file));
    const partitions = table.partitionBy
      ? (
          await target.all<{ p: string }>(`SELECT DISTINCT toString(${table.partitionBy}) AS p FROM ${stage}`)
        ).map((r) => r.p)
      : ['tuple()'];
    // The target's rows that stay: in the partitions about to be swapped, outside the new slices.
    // Sharded by ticker, a slice lives on one shard; GLOBAL ships the slice list to every shard.
    const inPartitions = table.partitionBy ? `${table.partitionBy} IN (${partitions.join(', ')}) AND ` : '';
    const global = target.cluster ? 'GLOBAL ' : '';
    await target.run(
      `INSERT INTO ${stage} SELECT * FROM ${table.name}
        WHERE ${inPartitions}(${table.sliceKey}) ${global}NOT IN (SELECT DISTINCT ${table.sliceKey} FROM ${stage})`,
    );
    if (!target.cluster) {
      for (const p of partitions)
        await target.run(`ALTER TABLE ${table.name} REPLACE PARTITION ${p} FROM ${stage}`);
    } else {
      // 18.16 runs no REPLACE PARTITION ON CLUSTER: each month is dropped on every shard, then refilled
      // from the staging table (whose rows go to the same shards, by the same key). Should that fail,
      // the staging table is kept with the month's rows, and the next run refuses to start until it
      // is dealt with.
      for (const p of partitions) {
        await target.run(`ALTER TABLE ${table.name}_local${target.onCluster} DROP PARTITION ${p}`);
        const partition = table.partitionBy ? ` WHERE ${table.partitionBy} = ${p}` : '';
        try {
          await target.run(`INSERT INTO ${table.name} SELECT * FROM ${stage}${partition}`);
        } catch (e) {
          keep = true;
          throw new Error(
            `Publishing ${table.name} failed after its partition ${p} was dropped; its rows are in ${stage} (${(e as Error).message})`,
            { cause: e },
          );
        }
      }
    }
  } finally {
    if (!keep) await target.dropTable(stage);
  }
  return rows;
}
