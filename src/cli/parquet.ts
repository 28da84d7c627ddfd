/**
 * Writes the items of a result as a Parquet file through an in-memory DuckDB: the rows go to a
 * newline-delimited JSON file, DuckDB reads it with every row sampled (so a column's type fits all its
 * values) and copies it to Parquet. Nested objects become STRUCT columns and lists LIST columns, as
 * DuckDB reads them from JSON; a field some items lack is NULL there. Integers stay integers (Unix ms
 * and nanosecond timestamps as BIGINT), prices DOUBLE, text VARCHAR.
 *
 * DuckDB's column and field names ignore case, while the API's do not (`p` bid and `P` ask price of a
 * quote, `t` and `T` of a grouped bar): of names at one level that differ only in case, the one that
 * sorts last (the lower-case one) keeps its name and the others get `_` appended (`P_`), once more for
 * each further one.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringifyJson } from '../core/json.js';

/** Items per write to the intermediate file: a long list is never one string. */
const BATCH = 10_000;

/** Writes `items` (plain objects) to `file` as Parquet, replacing it. */
export async function writeParquet(list: Iterable<unknown>, file: string): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const items = Array.isArray(list) ? caseDistinct(list) : list;
  const dir = mkdtempSync(join(tmpdir(), 'mdq-parquet-'));
  try {
    const rows = join(dir, 'rows.ndjson');
    const fd = openSync(rows, 'w');
    let count = 0;
    try {
      let batch: string[] = [];
      for (const item of items) {
        batch.push(stringifyJson(item));
        count++;
        if (batch.length === BATCH) {
          writeSync(fd, `${batch.join('\n')}\n`);
          batch = [];
        }
      }
      if (batch.length > 0) writeSync(fd, `${batch.join('\n')}\n`);
    } finally {
      closeSync(fd);
    }
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      // An empty list has no columns to infer: a file of no rows, with one VARCHAR column `value`.
      const source =
        count === 0
          ? 'SELECT NULL::VARCHAR AS value WHERE false'
          : `SELECT * FROM read_json(${sqlString(rows)}, format = 'newline_delimited', sample_size = -1)`;
      await connection.run(`COPY (${source}) TO ${sqlString(file)} (FORMAT parquet)`);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `items` with the names of every level made distinct ignoring case (see the module's notes). */
function caseDistinct(items: readonly unknown[]): Iterable<unknown> {
  const keysAt = new Map<string, Set<string>>();
  const collect = (value: unknown, path: string) => {
    if (Array.isArray(value)) for (const v of value) collect(v, `${path}[]`);
    else if (isRecord(value)) {
      const keys = keysAt.get(path) ?? new Set<string>();
      keysAt.set(path, keys);
      for (const [k, v] of Object.entries(value)) {
        keys.add(k);
        collect(v, `${path}.${k}`);
      }
    }
  };
  for (const item of items) collect(item, '');
  const renames = new Map<string, Map<string, string>>();
  for (const [path, keys] of keysAt) {
    const groups = new Map<string, string[]>();
    for (const k of keys) groups.set(k.toLowerCase(), [...(groups.get(k.toLowerCase()) ?? []), k]);
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      const renamed = renames.get(path) ?? new Map<string, string>();
      renames.set(path, renamed);
      group.sort((a, b) => (a < b ? 1 : -1));
      for (let i = 1; i < group.length; i++) renamed.set(group[i] as string, `${group[i]}${'_'.repeat(i)}`);
    }
  }
  if (renames.size === 0) return items;
  const rename = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => rename(v, `${path}[]`));
    if (!isRecord(value)) return value;
    const names = renames.get(path);
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [names?.get(k) ?? k, rename(v, `${path}.${k}`)]),
    );
  };
  return items.map((item) => rename(item, ''));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
