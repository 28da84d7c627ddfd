import { listValue } from '@duckdb/node-api';
import { isIngestError } from '../ingest/ingest-error.js';
import { recordRows, writeRecordRows } from '../ingest/json.js';
import type { JsonKind } from '../ingest/json-kinds.js';
import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import type { SqlValue } from '../store/store.js';
import type { Covered, Statement, Storage } from './cached-kind.js';
import { recordCoverage } from './coverage.js';

/**
 * A listing of many tickers' rows (the tickers listing) fetched whole for one set of filters, the
 * ticker of its coverage: its rows land in the store's own table, which the local route answers from,
 * and `listed_rows` keeps which rows the listing held, so that a refresh or `mdq cache clear` removes
 * the rows only it held. Rows of the table no listing holds were ingested from files: they are kept.
 */

type Json = Record<string, unknown>;

/** A column of a listing's table and how a fetched record fills it. */
export interface ListedColumn {
  name: string;
  /** A record's value for the column (null when it has none). */
  value(record: Json): SqlValue;
  /** The SQL type its text is cast to, when not the value's own. */
  cast?: string;
}

/** How a listing's records become rows of one of the store's tables. */
export interface ListingRows {
  table: string;
  /** The table's key column (its first column), a record's id in `listed_rows`. */
  key: string;
  columns: readonly ListedColumn[];
  /**
   * Why the local route could not answer the fetched records as the service did, if so: then nothing
   * is stored and the request goes upstream as it is.
   */
  unanswerable?(store: Store, records: readonly Json[]): Promise<string | undefined>;
}

/** A fetch the local route could not answer as the service did: stored not at all, passed upstream. */
export class NotStorable extends Error {
  override readonly name = 'NotStorable';
}

/** Whether `e` is a {@link NotStorable}. */
export const isNotStorable = (e: unknown): e is NotStorable => e instanceof Error && e.name === 'NotStorable';

/**
 * The rows `read` makes of fetched records; records `mdq ingest json` would refuse (without a field
 * their kind needs) are stored not at all: the request goes upstream as it is.
 */
export function storableRows<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (isIngestError(e)) throw new NotStorable(e.message);
    throw e;
  }
}

/** Rows written per statement: a statement's parameters stay few. */
const CHUNK = 200;

/** The storage of a listing kind named `kind` whose records become `rows`. */
export function listingStorage(kind: string, rows: ListingRows): Storage {
  const remove = (at: Covered): Statement[] => [
    {
      sql: `DELETE FROM ${rows.table} WHERE ${rows.key} IN (SELECT id FROM listed_rows WHERE kind = $1 AND filters = $2)
        AND ${rows.key} NOT IN (SELECT id FROM listed_rows WHERE kind = $1 AND filters <> $2)`,
      params: [kind, at.ticker],
    },
    { sql: 'DELETE FROM listed_rows WHERE kind = $1 AND filters = $2', params: [kind, at.ticker] },
  ];

  /** The fetched keys whose rows were ingested from files: stored, and held by no listing. */
  const fromFiles = async (store: Store, keys: string[]): Promise<Set<string>> => {
    if (keys.length === 0) return new Set();
    const held = await store.all<{ id: string }>(
      `SELECT t.${rows.key} AS id FROM ${rows.table} t
        WHERE t.${rows.key} IN (SELECT unnest($2::VARCHAR[]))
          AND NOT EXISTS (SELECT 1 FROM listed_rows l WHERE l.kind = $1 AND l.id = t.${rows.key})`,
      [kind, listValue(keys)],
    );
    return new Set(held.map((r) => r.id));
  };

  return {
    remove,
    size: listedSize(kind),
    async write(store, f) {
      const records = f.pages.flatMap((p) => (Array.isArray(p.results) ? (p.results as Json[]) : []));
      const reason = await rows.unanswerable?.(store, records);
      if (reason !== undefined) throw new NotStorable(reason);
      const keyColumn = rows.columns[0] as ListedColumn;
      const keyed = records.filter(
        (r) => typeof keyColumn.value(r) === 'string' && keyColumn.value(r) !== '',
      );
      const files = await fromFiles(
        store,
        keyed.map((r) => keyColumn.value(r) as string),
      );
      // A record listed twice (on two pages) is written once, as last listed.
      const own = [
        ...new Map(
          keyed.filter((r) => !files.has(keyColumn.value(r) as string)).map((r) => [keyColumn.value(r), r]),
        ).values(),
      ];
      const width = rows.columns.length;
      const tuple = (i: number) =>
        `(${rows.columns.map((c, j) => `$${i * width + j + 1}${c.cast ? `::${c.cast}` : ''}`).join(', ')})`;
      await store.transaction(async () => {
        for (const s of remove(f)) await store.run(s.sql, s.params);
        for (let i = 0; i < own.length; i += CHUNK) {
          const chunk = own.slice(i, i + CHUNK);
          await store.run(
            `INSERT OR REPLACE INTO ${rows.table} (${rows.columns.map((c) => c.name).join(', ')})
              VALUES ${chunk.map((_, j) => tuple(j)).join(', ')}`,
            chunk.flatMap((r) => rows.columns.map((c) => c.value(r))),
          );
          await store.run(
            `INSERT OR IGNORE INTO listed_rows VALUES ${chunk.map((_, j) => `($1, $2, $${j + 3})`).join(', ')}`,
            [kind, f.ticker, ...chunk.map((r) => keyColumn.value(r))],
          );
        }
        await recordCoverage(store, f.ticker, f.kind, f.range, f.fetchedAt, f.today);
      });
      return own.length;
    },
  };
}

/**
 * The storage of a listing of reference records (an IPOs listing) of kind `kind`: its records land in
 * `reference_records` by the path of `mdq ingest json`, keyed by their record id, and `listed_rows`
 * keeps, under the listing's name `listing`, which the listing held. `listings` names every listing
 * storing records of the kind (the vX and v1 IPOs listings): a record stays while any of them holds it.
 * Records of the kind no listing holds were ingested from files: they are kept as they are.
 */
export function recordListingStorage(
  kind: JsonKind,
  listing: string = kind,
  listings: readonly string[] = [listing],
): Storage {
  const remove = (at: Covered): Statement[] => [
    {
      sql: `DELETE FROM reference_records WHERE kind = $1
        AND id IN (SELECT id FROM listed_rows WHERE kind = $2 AND filters = $3)
        AND id NOT IN (SELECT id FROM listed_rows
          WHERE kind IN (SELECT unnest($4::VARCHAR[])) AND NOT (kind = $2 AND filters = $3))`,
      params: [kind, listing, at.ticker, listValue([...listings])],
    },
    { sql: 'DELETE FROM listed_rows WHERE kind = $1 AND filters = $2', params: [listing, at.ticker] },
  ];
  return {
    remove,
    size: listedSize(listing),
    async write(store, f) {
      const file = `upstream ${listing} listing${f.ticker === '' ? '' : ` of ${f.ticker}`}`;
      const found = f.pages.flatMap((p) =>
        Array.isArray(p.results) ? (p.results as Json[]).map((record) => ({ kind, record })) : [],
      );
      const { records } = storableRows(() => recordRows(found, file, kind));
      const ids = [...new Set(records.map((r) => r.id))];
      const held =
        ids.length === 0
          ? []
          : await store.all<{ id: string }>(
              `SELECT r.id FROM reference_records r
                WHERE r.kind = $1 AND r.id IN (SELECT unnest($2::VARCHAR[]))
                  AND NOT EXISTS (SELECT 1 FROM listed_rows l
                    WHERE l.kind IN (SELECT unnest($3::VARCHAR[])) AND l.id = r.id)`,
              [kind, listValue(ids), listValue([...listings])],
            );
      const files = new Set(held.map((r) => r.id));
      // A record listed twice (on two pages) is written once.
      const own = [...new Map(records.filter((r) => !files.has(r.id)).map((r) => [r.id, r])).values()];
      await store.transaction(async () => {
        for (const s of remove(f)) await store.run(s.sql, s.params);
        await writeRecordRows(store, { records: own, splits: [] });
        for (let i = 0; i < own.length; i += CHUNK) {
          const chunk = own.slice(i, i + CHUNK);
          await store.run(
            `INSERT OR IGNORE INTO listed_rows VALUES ${chunk.map((_, j) => `($1, $2, $${j + 3})`).join(', ')}`,
            [listing, f.ticker, ...chunk.map((r) => r.id)],
          );
        }
        await recordCoverage(store, f.ticker, f.kind, f.range, f.fetchedAt, f.today);
      });
      return own.length;
    },
  };
}

/** The size of a stored listing: the rows listed under its filters. */
function listedSize(kind: string): NonNullable<Storage['size']> {
  return (at) => ({
    sql: 'SELECT count(*) AS rows FROM listed_rows WHERE kind = $1 AND filters = $2',
    params: [kind, at.ticker],
  });
}
