import { Readable } from 'node:stream';
import { type RecordRow, writeRecordRows } from '../ingest/json.js';
import type { JsonKind } from '../ingest/json-kinds.js';
import { recordFields } from '../ingest/record-fields.js';
import type { ClickHouseStore } from './clickhouse-store.js';
import type { DuckDbStore } from './duckdb-store.js';

/**
 * A ClickHouse database written before reference records had their filtered and sorted fields as
 * columns (`ingest/record-fields.ts`) holds records whose new columns are empty. Its next publish
 * rewrites them: they are carried into the staging store with their fields read from their text, and
 * published with the new rows (one partition swap, so a reader sees all records old or all new).
 * A `meta` row marks the database as done once a publish has completed.
 */

/** The `meta` key marking a database whose reference records hold their fields. */
export const RECORD_FIELDS_DONE_KEY = 'reference_record_fields';

/**
 * Copies into `staging` the target's reference records that `staging` does not replace, with their
 * fields, unless the target is marked done. Returns whether {@link markRecordFieldsFilled} is due after
 * the publish.
 */
export async function carryRecordsForward(staging: DuckDbStore, target: ClickHouseStore): Promise<boolean> {
  const done = await target.all('SELECT 1 FROM meta WHERE key = $1', [RECORD_FIELDS_DONE_KEY]);
  if (done.length > 0) return false;
  const stored = await target.all<Omit<RecordRow, 'fields'>>(
    'SELECT kind, id, ticker, date, body FROM reference_records',
  );
  const replaced = await staging.all<{ kind: string; id: string }>('SELECT kind, id FROM reference_records');
  const keys = new Set(replaced.map((r) => `${r.kind}\n${r.id}`));
  const records = stored
    .filter((r) => !keys.has(`${r.kind}\n${r.id}`))
    .map((r) => ({
      ...r,
      kind: r.kind as JsonKind,
      fields: recordFields(r.kind, JSON.parse(r.body) as Record<string, unknown>),
    }));
  if (records.length > 0) await staging.transaction(() => writeRecordRows(staging, { records, splits: [] }));
  return true;
}

/** Marks `target`'s reference records as holding their fields (after a completed publish). */
export async function markRecordFieldsFilled(target: ClickHouseStore): Promise<void> {
  await target.insert(
    'meta',
    'JSONEachRow',
    Readable.from([`${JSON.stringify({ key: RECORD_FIELDS_DONE_KEY, value: '1' })}\n`]),
  );
}
