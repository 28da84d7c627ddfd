import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carryRecordsForward, markRecordFieldsFilled } from './clickhouse-record-fields.js';
import { CLICKHOUSE_TABLES, type ClickHouseTable } from './clickhouse-schema.js';
import { openShards } from './clickhouse-shards.js';
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
  if (isFloat(type)) return `${name}, ${exactFloat(name)}`;
  return name;
}

const isFloat = (type: string) => type === 'Float64' || type === 'Nullable(Float64)';

/**
 * ClickHouse reads decimal text into a float inexactly (1.465415 becomes the next double up), so each
 * float goes besides as its significand `name__m`, a whole number below 2^53 that it reads exactly, and
 * the power of two `name__e` that scales it: m × 2^e is the value, bit for bit. 0 and values out of
 * the range where DuckDB scales them exactly (none in market data) have m = 0 and go as text alone.
 */
function exactFloat(name: string): string {
  const e0 = `floor(log2(abs(${name})))`;
  const s = `(abs(${name}) * pow(2, -${e0}))`;
  const e = `(${e0} + CASE WHEN ${s} >= 2 THEN 1 WHEN ${s} < 1 THEN -1 ELSE 0 END)`;
  const exact = `isfinite(${name}) AND abs(${name}) BETWEEN 1e-250 AND 1e250`;
  return `CASE WHEN ${exact} THEN CAST(${name} * pow(2, 52 - ${e}) AS BIGINT) ELSE 0 END AS ${name}__m,
    CASE WHEN ${exact} THEN CAST(${e} - 52 AS INTEGER) ELSE 0 END AS ${name}__e`;
}

/** The columns of the table of `table`'s rows as exported, before their floats are put together. */
function rawColumns(table: ClickHouseTable): string {
  return table.columns
    .flatMap(([name, type]) =>
      isFloat(type) ? [`${name} ${type}`, `${name}__m Int64`, `${name}__e Int32`] : [`${name} ${type}`],
    )
    .join(', ');
}

/** `table`'s columns from its raw rows, each float put together from its significand and power of two. */
function fromRaw(table: ClickHouseTable): string {
  return table.columns
    .map(([name, type]) =>
      isFloat(type) ? `if(${name}__m = 0, ${name}, toFloat64(${name}__m) * pow(2, ${name}__e))` : name,
    )
    .join(', ');
}

/** A step of a publish after which a reader could see something new, or the run could stop. */
export interface PublishStep {
  readonly table: string;
  /**
   * `staged`: the table's new rows, joined by the stored rows they leave in place, are in the staging
   * tables, and nothing a reader sees has changed yet; `swapped`: one partition (month) on one server
   * now holds its new rows.
   */
  readonly step: 'staged' | 'swapped';
  /** The partition swapped (`swapped` only), as ClickHouse writes it (`201310`, `tuple()`). */
  readonly partition?: string;
  /** The server whose partition was swapped (`swapped` only), as a store location. */
  readonly server?: string;
}

/** Options of {@link publishToClickHouse}. */
export interface PublishOptions {
  /**
   * Called after each {@link PublishStep}, before the next one starts (a rejection stops the
   * publish there, as a failure would).
   * @default none
   */
  onStep?: (step: PublishStep) => void | Promise<void>;
}

/** Where a table's partitions are swapped: a server, its table and its staging table. */
interface Shard {
  readonly store: ClickHouseStore;
  readonly table: string;
  readonly stage: string;
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
 *
 * In cluster mode the staging table is sharded as the target is (local tables under a `Distributed`
 * table with the same sharding key), so each server's staging shard holds the new rows of exactly the
 * slices its own shard holds, and the stored rows that stay are joined in there, on that server. As
 * 18.16 runs no `REPLACE PARTITION` `ON CLUSTER`, each server's month is then swapped over a
 * connection to that server ({@link openShards}): atomic per server. A month is swapped on every
 * server before the next month, so a reader through the `Distributed` table may, for that moment,
 * see the month new on one shard and old on another: each ticker's month whole (a ticker lives on
 * one shard), old or new, and never a month half-dropped. A failure before a month's swap leaves it
 * old on every server; the staging tables are disposable and a re-run starts them afresh.
 */
export async function publishToClickHouse(
  staging: DuckDbStore,
  target: ClickHouseStore,
  options: PublishOptions = {},
): Promise<PublishedRows> {
  // Every server answers before anything is written.
  const servers = target.cluster ? await openShards(target) : [target];
  const folder = mkdtempSync(join(tmpdir(), 'mdq-publish-'));
  const published: PublishedRows = {};
  let fillsRecordFields = false;
  try {
    await target.createSchema();
    fillsRecordFields = await carryRecordsForward(staging, target);
    for (const table of CLICKHOUSE_TABLES) {
      const stage = `${table.name}_stage`;
      const shards = servers.map((store) =>
        target.cluster
          ? { store, table: `${table.name}_local`, stage: `${stage}_local` }
          : { store, table: table.name, stage },
      );
      const file = join(folder, `${table.name}.json`);
      published[table.name] = await publishTable(staging, target, shards, table, file, options);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
    if (target.cluster) for (const s of servers) await s.close();
  }
  if (fillsRecordFields) await markRecordFieldsFilled(target);
  return published;
}

async function publishTable(
  staging: DuckDbStore,
  target: ClickHouseStore,
  shards: readonly Shard[],
  table: ClickHouseTable,
  file: string,
  { onStep }: PublishOptions,
): Promise<number> {
  const [count] = await staging.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table.name}`);
  const rows = Number(count?.n ?? 0n);
  if (rows === 0) return 0;
  const select = table.columns.map(([name, type]) => exportColumn(name, type)).join(', ');
  await staging.run(
    `COPY (SELECT ${select} FROM ${table.name}) TO '${file.replaceAll("'", "''")}' (FORMAT JSON)`,
  );

  // A staging table an interrupted run left behind holds nothing the target needs: made afresh.
  const stage = `${table.name}_stage`;
  const raw = `${table.name}_raw`;
  await target.dropTable(stage);
  await target.run(`DROP TABLE IF EXISTS ${raw}`);
  await target.createTable(table, stage);
  try {
    // The rows as exported, on the server the store URL names, then with their floats put together
    // into the staging table; in cluster mode through the staging `Distributed` table: its rows reach
    // the shards the target's rows of the same key are on.
    await target.run(`CREATE TABLE ${raw} (${rawColumns(table)}) ENGINE = Log`);
    await target.insert(raw, 'JSONEachRow', createReadStream(file));
    await target.insertSelect(stage, `SELECT ${fromRaw(table)} FROM ${raw}`);
    await target.run(`DROP TABLE ${raw}`);
    const swaps: { shard: Shard; partitions: string[] }[] = [];
    for (const shard of shards) {
      // The partitions with new rows on this server (the one partition of a small table, if any).
      const partitions = (
        await shard.store.all<{ p: string }>(
          table.partitionBy
            ? `SELECT DISTINCT toString(${table.partitionBy}) AS p FROM ${shard.stage} ORDER BY p`
            : `SELECT 'tuple()' AS p FROM ${shard.stage} LIMIT 1`,
        )
      ).map((r) => r.p);
      if (partitions.length === 0) continue;
      // The stored rows that stay: in the partitions about to be swapped, outside the new slices. A
      // slice lives on one shard, so each server's staging table names every slice it replaces there.
      const inPartitions = table.partitionBy ? `${table.partitionBy} IN (${partitions.join(', ')}) AND ` : '';
      await shard.store.run(
        `INSERT INTO ${shard.stage} SELECT * FROM ${shard.table}
          WHERE ${inPartitions}(${table.sliceKey}) NOT IN (SELECT DISTINCT ${table.sliceKey} FROM ${shard.stage})`,
      );
      swaps.push({ shard, partitions });
    }
    await onStep?.({ table: table.name, step: 'staged' });
    const months = [...new Set(swaps.flatMap((s) => s.partitions))].sort();
    for (const p of months) {
      for (const { shard, partitions } of swaps) {
        if (!partitions.includes(p)) continue;
        await shard.store.run(`ALTER TABLE ${shard.table} REPLACE PARTITION ${p} FROM ${shard.stage}`);
        await onStep?.({ table: table.name, step: 'swapped', partition: p, server: shard.store.location });
      }
    }
  } finally {
    await target.run(`DROP TABLE IF EXISTS ${raw}`);
    await target.dropTable(stage);
  }
  return rows;
}
