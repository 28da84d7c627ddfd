import { Where } from '../listing/where.js';
import { type ContractRow, contractColumns } from '../snapshots/option-snapshot.js';
import type { Store } from '../store/store.js';
import type { OffsetWindow, Values } from './reference.js';

const SORT_COLUMNS = new Set(['ticker', 'expiration_date', 'strike_price']);

/** One contract of an underlying (stored without `I:`), or undefined. */
export async function chainContract(
  store: Store,
  underlying: string,
  contract: string,
): Promise<ContractRow | undefined> {
  const where = new Where().add('ticker = ?', contract).add('underlying_ticker = ?', underlying);
  return (
    await store.all<ContractRow>(
      `SELECT ${contractColumns(store.dialect)} FROM option_contracts${where}`,
      where.params,
    )
  )[0];
}

/**
 * A page of an underlying's contracts expiring on or after `from` (a date), filtered by the chain
 * request's strike, expiration and contract type, in its sort order.
 */
export function chainContracts(
  store: Store,
  underlying: string,
  v: Values,
  page: OffsetWindow & { from: string },
): Promise<ContractRow[]> {
  const where = new Where()
    .add('underlying_ticker = ?', underlying)
    .add(`expiration_date >= ${store.dialect.date('?')}`, page.from)
    .field(v, 'strike_price', 'strike_price')
    .field(v, 'expiration_date', 'expiration_date', store.dialect.date('?'));
  const type = v.get('contract_type');
  if (typeof type === 'string') where.add('contract_type = ?', type);
  const sortKey = String(v.get('sort') ?? 'ticker');
  const column = SORT_COLUMNS.has(sortKey) ? sortKey : 'ticker';
  const order = v.get('order') === 'desc' ? 'DESC' : 'ASC';
  return store.all<ContractRow>(
    `SELECT ${contractColumns(store.dialect)} FROM option_contracts${where}
      ORDER BY ${column} ${order}, ticker ${order} LIMIT ${page.limit + 1} OFFSET ${page.offset}`,
    where.params,
  );
}
