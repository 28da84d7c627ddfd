import type { DecodedValue } from '../../core/wire-values.js';
import { Where } from '../listing/where.js';
import { type ContractRow, contractColumns } from '../snapshots/option-snapshot.js';
import type { AssetType, SnapshotSubject } from '../snapshots/unified-snapshot.js';
import type { Store } from '../store/store.js';

/** Every ticker the store can snapshot, with its asset type and name: the listed tickers and the option contracts. */
const SUBJECTS = `(SELECT ticker, market AS type, name FROM tickers
    WHERE market <> 'options'
  UNION ALL SELECT ticker, 'options' AS type, NULL AS name FROM option_contracts)`;

interface SubjectRow {
  ticker: string;
  type: AssetType;
  name: string | null;
}

/** Adds the contract of each option among `rows`. */
async function withContracts(store: Store, rows: readonly SubjectRow[]): Promise<SnapshotSubject[]> {
  const options = rows.filter((r) => r.type === 'options').map((r) => r.ticker);
  const contracts = new Map<string, ContractRow>();
  if (options.length > 0) {
    const where = new Where().anyOf(store.dialect, 'ticker', options);
    const found = await store.all<ContractRow>(
      `SELECT ${contractColumns(store.dialect)} FROM option_contracts${where}`,
      where.params,
    );
    for (const c of found) contracts.set(c.ticker, c);
  }
  return rows.map((r) => {
    const contract = contracts.get(r.ticker);
    return { ticker: r.ticker, name: r.name, ...(contract && { contract }) };
  });
}

/** The subjects of the listed tickers that the store knows, by ticker. */
export async function snapshotSubjects(
  store: Store,
  tickers: readonly string[],
): Promise<Map<string, SnapshotSubject>> {
  const where = new Where().anyOf(store.dialect, 'ticker', tickers);
  const rows = await store.all<SubjectRow>(`SELECT * FROM ${SUBJECTS}${where}`, where.params);
  return new Map((await withContracts(store, rows)).map((s) => [s.ticker, s]));
}

/**
 * One page of every snapshot subject, by ticker in `order`, filtered by `type` and `ticker`
 * (`.gt/.gte/.lt/.lte`), resuming after the ticker `after`; `limit + 1` are read so a further one
 * shows another page.
 */
export async function listSnapshotSubjects(
  store: Store,
  v: ReadonlyMap<string, DecodedValue>,
  page: { limit: number; desc: boolean; after?: string },
): Promise<SnapshotSubject[]> {
  const where = new Where().field(v, 'ticker', 'ticker');
  const type = v.get('type');
  if (typeof type === 'string') where.add('type = ?', type);
  if (page.after !== undefined) where.after(['ticker'], [page.after], page.desc);
  const limit = where.param(page.limit + 1);
  const rows = await store.all<SubjectRow>(
    `SELECT * FROM ${SUBJECTS}${where} ORDER BY ticker ${page.desc ? 'DESC' : 'ASC'} LIMIT ${limit}`,
    where.params,
  );
  return withContracts(store, rows);
}
