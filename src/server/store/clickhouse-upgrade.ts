import { publishToClickHouse } from './clickhouse-publish.js';
import { RECORD_FIELDS_DONE_KEY } from './clickhouse-record-fields.js';
import { CLICKHOUSE_TABLES } from './clickhouse-schema.js';
import type { ClickHouseStore } from './clickhouse-store.js';
import { DuckDbStore } from './duckdb-store.js';

/**
 * Brings the schema of the ClickHouse database `store` names up to date before a server reads it,
 * as a DuckDB file is migrated when opened: creates the tables it lacks, adds the columns an earlier
 * mdq did not write, and fills the reference records' field columns from their text, exactly as the
 * next `mdq ingest` would (it is a publish of nothing new, which carries the stored records forward).
 * Does nothing, and writes nothing, when the schema is current. Returns whether it changed anything.
 * @throws Error naming the database and what it lacks when the change fails (a user without the
 * right to alter tables, for one).
 */
export async function upgradeClickHouseSchema(store: ClickHouseStore): Promise<boolean> {
  const lacking = await missingSchema(store);
  if (lacking.length === 0) return false;
  const staging = await DuckDbStore.open(':memory:');
  try {
    await publishToClickHouse(staging, store);
  } catch (e) {
    throw new Error(
      `${store.location} lacks ${lacking.join(', ')}, and bringing it up to date failed: ${(e as Error).message}`,
      { cause: e },
    );
  } finally {
    staging.close();
  }
  return true;
}

/** What the database lacks: tables, columns (`table.column`), and the records' filled fields. */
async function missingSchema(store: ClickHouseStore): Promise<string[]> {
  const present = await store.all<{ table: string; name: string }>(
    'SELECT table, name FROM system.columns WHERE database = currentDatabase()',
  );
  const have = new Set(present.map((c) => `${c.table}.${c.name}`));
  const lacking: string[] = [];
  for (const table of [...CLICKHOUSE_TABLES, { name: 'meta', columns: [['key'], ['value']] }]) {
    // In cluster mode the shards' local tables too.
    for (const name of store.cluster ? [table.name, `${table.name}_local`] : [table.name]) {
      const columns = table.columns.map(([c]) => c).filter((c) => !have.has(`${name}.${c}`));
      if (columns.length === table.columns.length) lacking.push(`table ${name}`);
      else lacking.push(...columns.map((c) => `column ${name}.${c}`));
    }
  }
  if (lacking.length > 0) return lacking;
  const done = await store.all('SELECT 1 FROM meta WHERE key = $1', [RECORD_FIELDS_DONE_KEY]);
  return done.length > 0 ? [] : ['the field columns of its reference records'];
}
