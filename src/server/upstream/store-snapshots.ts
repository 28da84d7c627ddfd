import { listValue } from '@duckdb/node-api';
import { stringifyJson } from '../../core/json.js';
import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import type { SqlValue } from '../store/store.js';
import type { Covered, Fetched, Statement, Storage } from './cached-kind.js';
import { ALL_DAYS } from './coverage.js';
import { writeAnswer } from './store-fetched.js';

/**
 * Snapshots stored as data: every ticker's snapshot object of an answer (one ticker's, many tickers', a
 * chain's, a universal one) is a row of the `snapshots` table under its kind and ticker, with when it
 * was fetched, and covered as that ticker's (kind `snapshot:…`, every day at once). A request naming
 * tickers is then answered from their rows; a request the rows cannot answer (a whole market, a
 * filtered chain) is stored as its answer too, under its request (a coverage "ticker" starting with
 * `/`), and its items as rows.
 */

type Json = Record<string, unknown>;

/** The snapshot objects of an answer, by the ticker each describes. */
export type SnapshotItems = (body: Json) => [ticker: string, item: Json][];

/** Whether a coverage "ticker" of a snapshot kind is a request (its whole answer stored), not a ticker. */
export const isRequest = (ticker: string): boolean => ticker.startsWith('/');

const itemsOf = (list: unknown, tickerOf: (item: Json) => unknown): [string, Json][] =>
  (Array.isArray(list) ? (list as unknown[]) : list && typeof list === 'object' ? [list] : [])
    .filter((x): x is Json => !!x && typeof x === 'object' && !('error' in (x as Json)))
    .flatMap((x) => {
      const t = tickerOf(x);
      return typeof t === 'string' && t !== '' ? [[t, x] as [string, Json]] : [];
    });

/** v2 snapshots: `tickers` of many, `ticker` of one. */
export const v2Items: SnapshotItems = (body) => itemsOf(body.tickers ?? body.ticker, (x) => x.ticker);
/** Option snapshots (a chain or one contract): `results`, by the contract's ticker. */
export const optionItems: SnapshotItems = (body) =>
  itemsOf(body.results, (x) => (x.details as Json | undefined)?.ticker);
/** Index and universal snapshots: `results` by `ticker`, items in error left out. */
export const resultItems: SnapshotItems = (body) => itemsOf(body.results, (x) => x.ticker);

/** Writes the snapshot rows of `pages` under `kind`, each covered as its ticker's; run in a transaction. */
async function writeRows(
  store: Store,
  kind: string,
  items: SnapshotItems,
  pages: readonly Json[],
  fetchedAt: number,
): Promise<number> {
  // A ticker listed twice keeps its last object.
  const rows = new Map<string, string>();
  for (const page of pages) for (const [ticker, item] of items(page)) rows.set(ticker, stringifyJson(item));
  if (rows.size === 0) return 0;
  const tickers = listValue([...rows.keys()]);
  const params = [kind, tickers] as SqlValue[];
  await store.run(
    'DELETE FROM snapshots WHERE kind = $1 AND ticker IN (SELECT unnest($2::VARCHAR[]))',
    params,
  );
  await store.run(
    'INSERT INTO snapshots SELECT $1, unnest($2::VARCHAR[]), make_timestamp($3::BIGINT * 1000), unnest($4::VARCHAR[])',
    [kind, tickers, fetchedAt, listValue([...rows.values()])] as SqlValue[],
  );
  await store.run(
    'DELETE FROM coverage WHERE kind = $1 AND ticker IN (SELECT unnest($2::VARCHAR[]))',
    params,
  );
  await store.run(
    `INSERT INTO coverage (ticker, kind, first_day, last_day, fetched_at, final, source)
      SELECT unnest($2::VARCHAR[]), $1, $3::DATE, $4::DATE, make_timestamp($5::BIGINT * 1000), false, 'upstream'`,
    [kind, tickers, ALL_DAYS.first, ALL_DAYS.last, fetchedAt] as SqlValue[],
  );
  return rows.size;
}

/**
 * Stores the snapshot rows of an answer fetched for a request the rows answer (tickers named), in one
 * transaction; its answer itself is not kept.
 * @returns The rows written.
 */
export const storeSnapshotRows = (
  store: Store,
  kind: string,
  items: SnapshotItems,
  pages: readonly Json[],
  fetchedAt: number,
): Promise<number> => store.transaction(() => writeRows(store, kind, items, pages, fetchedAt));

/**
 * The stored snapshot objects (JSON text) of `tickers` under `kind` fetched no earlier than
 * `freshSince` (Unix ms), by ticker.
 */
export async function snapshotRows(
  store: Store,
  kind: string,
  tickers: readonly string[],
  freshSince: number,
): Promise<Map<string, string>> {
  const rows = await store.all<{ ticker: string; body: string }>(
    `SELECT ticker, body FROM snapshots
      WHERE kind = $1 AND ticker IN (SELECT unnest($2::VARCHAR[])) AND fetched_at >= make_timestamp($3::BIGINT * 1000)`,
    [kind, listValue([...tickers]), freshSince] as SqlValue[],
  );
  return new Map(rows.map((r) => [r.ticker, r.body]));
}

/**
 * The storage of a snapshot kind: a fetch of one ticker (a refresh) or of a request stores every
 * snapshot object of its answer as a row; a request's answer is kept as well, under its request.
 */
export function snapshotStorage(kind: string, items: SnapshotItems): Storage {
  const removal = (at: Covered): Statement =>
    isRequest(at.ticker)
      ? { sql: 'DELETE FROM reference_records WHERE kind = $1 AND id = $2', params: [kind, at.ticker] }
      : { sql: 'DELETE FROM snapshots WHERE kind = $1 AND ticker = $2', params: [kind, at.ticker] };
  return {
    remove: (at) => [removal(at)],
    size: (at) => {
      const r = removal(at);
      const table = isRequest(at.ticker) ? 'reference_records' : 'snapshots';
      return {
        sql: r.sql.replace(
          `DELETE FROM ${table}`,
          `SELECT count(*) AS rows, sum(strlen(body)) AS bytes FROM ${table}`,
        ),
        params: r.params,
      };
    },
    write: (store: Store, f: Fetched) =>
      store.transaction(async () => {
        const n = await writeRows(store, kind, items, f.pages, f.fetchedAt);
        if (isRequest(f.ticker)) await writeAnswer(store, kind, f);
        return n;
      }),
  };
}
