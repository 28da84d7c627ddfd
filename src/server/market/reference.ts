import type { DecodedValue } from '../../core/wire-values.js';
import { tickers } from '../../operations/reference.js';
import { Where } from '../listing/where.js';
import type { ListedTickerRow, OptionContractRow } from '../store/rows.js';
import type { SqlDialect, Store } from '../store/store.js';

/** Decoded request values by wire name, as routes hand them over. */
export type Values = ReadonlyMap<string, DecodedValue>;

/** A page of a listing: `limit + 1` rows are read, so that a further row shows another page. */
export interface OffsetWindow {
  readonly limit: number;
  readonly offset: number;
}

const str = (v: DecodedValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const dateOf = (v: DecodedValue | undefined): string | undefined =>
  v && typeof v === 'object' && 'date' in v ? v.date : undefined;
const direction = (v: DecodedValue | undefined, fallback: 'asc' | 'desc') =>
  v === 'desc' || v === 'asc' ? v : fallback;
const window = (w: OffsetWindow) => `LIMIT ${w.limit + 1} OFFSET ${w.offset}`;

/** Columns of the stored `tickers` table. */
const STORED_TICKER_COLUMNS = new Set([
  'ticker',
  'name',
  'market',
  'locale',
  'type',
  'active',
  'primary_exchange',
  'currency_name',
  'currency_symbol',
  'base_currency_symbol',
  'base_currency_name',
  'list_date',
  'delisted_utc',
  'cik',
  'composite_figi',
  'share_class_figi',
  'last_updated_utc',
]);

/**
 * The sort keys the tickers operation declares that are stored columns; the others (identifiers the
 * store lacks) sort by ticker.
 */
export const TICKER_SORT_COLUMNS: ReadonlySet<string> = new Set<string>(
  tickers.params.flatMap((p) =>
    p.wire === 'sort' && p.type.kind === 'enum'
      ? p.type.values.filter((v) => STORED_TICKER_COLUMNS.has(v))
      : [],
  ),
);

const tickerColumns = (
  d: SqlDialect,
) => `ticker, name, market, locale, type, active, primary_exchange, currency_name,
  currency_symbol, base_currency_symbol, base_currency_name, ${d.dateText('list_date')} AS list_date,
  ${d.timestampText('delisted_utc')} AS delisted_utc, cik, composite_figi, share_class_figi,
  ${d.timestampText('last_updated_utc')} AS last_updated_utc`;

/** `/v3/reference/tickers` rows: every ticker but option contracts (the service lists those elsewhere). */
export function listTickers(store: Store, v: Values, page: OffsetWindow): Promise<ListedTickerRow[]> {
  const where = new Where().raw("market <> 'options'").field(v, 'ticker', 'ticker');
  const type = str(v.get('type'));
  if (type) where.add('type = ?', type);
  const market = str(v.get('market'));
  if (market) where.add('market = ?', market);
  const exchange = str(v.get('exchange'));
  if (exchange) where.add('primary_exchange = ?', exchange);
  const cik = str(v.get('cik'));
  if (cik) where.add('cik = ?', cik);
  // The store holds no CUSIPs: a filter on one matches nothing (`1 = 0`: ClickHouse 18.16 has no FALSE).
  if (v.has('cusip')) where.raw('1 = 0');
  const search = str(v.get('search'));
  if (search) {
    where.add(
      `${store.dialect.position(store.dialect.lowerText("concat(ticker, ' ', coalesce(name, ''))"), '?')} > 0`,
      search.toLowerCase(),
    );
  }
  const active = v.get('active');
  if (typeof active === 'boolean') where.add('active = ?', active);
  const date = dateOf(v.get('date'));
  if (date) where.add(`(list_date IS NULL OR list_date <= ${store.dialect.date('?')})`, date);
  const sortKey = str(v.get('sort')) ?? 'ticker';
  const column = TICKER_SORT_COLUMNS.has(sortKey) ? sortKey : 'ticker';
  const order = direction(v.get('order'), 'asc');
  return store.all<ListedTickerRow>(
    `SELECT ${tickerColumns(store.dialect)} FROM tickers${where} ORDER BY ${column} ${order} NULLS LAST, ticker ${order}
      ${window(page)}`,
    where.params,
  );
}

/** One ticker's row (not an option contract's), or undefined. */
export async function tickerRow(store: Store, ticker: string): Promise<ListedTickerRow | undefined> {
  const where = new Where().add('ticker = ?', ticker).raw("market <> 'options'");
  const rows = await store.all<ListedTickerRow>(
    `SELECT ${tickerColumns(store.dialect)} FROM tickers${where}`,
    where.params,
  );
  return rows[0];
}

/**
 * The tickers of a market (`stocks`, `fx`, `crypto`, `indices`) the store knows, in ticker order:
 * the active ones, or only `wanted` ones (in their order, each once) when given.
 */
export async function marketTickers(
  store: Store,
  market: string,
  wanted?: readonly string[],
): Promise<string[]> {
  if (wanted) {
    const where = new Where().add('market = ?', market).anyOf(store.dialect, 'ticker', wanted);
    const rows = await store.all<{ ticker: string }>(`SELECT ticker FROM tickers${where}`, where.params);
    const known = new Set(rows.map((r) => r.ticker));
    return [...new Set(wanted)].filter((t) => known.has(t));
  }
  const where = new Where().add('market = ?', market).raw('active');
  const rows = await store.all<{ ticker: string }>(
    `SELECT ticker FROM tickers${where} ORDER BY ticker`,
    where.params,
  );
  return rows.map((r) => r.ticker);
}

/** A ticker with its name. */
export interface NamedTicker {
  ticker: string;
  name: string | null;
}

/** Names of the tickers of a market, by ticker. */
export async function tickerNames(store: Store, market: string): Promise<Map<string, string | null>> {
  const where = new Where().add('market = ?', market);
  const rows = await store.all<NamedTicker>(`SELECT ticker, name FROM tickers${where}`, where.params);
  return new Map(rows.map((r) => [r.ticker, r.name]));
}

/**
 * A page of a market's tickers with their names, filtered by `ticker` and `ticker.gt/gte/lt/lte`,
 * in ticker order.
 */
export function listMarketTickers(
  store: Store,
  market: string,
  v: Values,
  order: 'asc' | 'desc',
  page: OffsetWindow,
): Promise<NamedTicker[]> {
  const where = new Where().add('market = ?', market).field(v, 'ticker', 'ticker');
  return store.all<NamedTicker>(
    `SELECT ticker, name FROM tickers${where} ORDER BY ticker ${order} ${window(page)}`,
    where.params,
  );
}

/** An `option_contracts` row with whether its underlying is an index. */
export type ListedContractRow = OptionContractRow & { is_index: boolean };

const CONTRACT_SORT_COLUMNS = new Set(['ticker', 'underlying_ticker', 'expiration_date', 'strike_price']);
const contractSelect = (
  d: SqlDialect,
) => `SELECT c.ticker, c.underlying_ticker, c.contract_type, c.exercise_style,
    ${d.dateText('c.expiration_date')} AS expiration_date, c.strike_price, c.shares_per_contract,
    c.primary_exchange, concat('I:', c.underlying_ticker) IN (SELECT ticker FROM tickers) AS is_index
  FROM option_contracts c`;

/**
 * `/v3/reference/options/contracts` rows. `asOf` (a New York date) applies when the request has no
 * `as_of`; without `expired=true` only contracts expiring on or after it are listed, with it only those
 * expired before.
 */
export function listContracts(
  store: Store,
  v: Values,
  asOf: string,
  page: OffsetWindow,
): Promise<ListedContractRow[]> {
  const where = new Where().field(v, 'underlying_ticker', 'c.underlying_ticker');
  const ticker = str(v.get('ticker'));
  if (ticker) where.add('c.ticker = ?', ticker.startsWith('O:') ? ticker : `O:${ticker}`);
  const type = str(v.get('contract_type'));
  if (type) where.add('c.contract_type = ?', type);
  where
    .field(v, 'expiration_date', 'c.expiration_date', store.dialect.date('?'))
    .field(v, 'strike_price', 'c.strike_price');
  const date = dateOf(v.get('as_of')) ?? asOf;
  if (v.get('expired') === true) where.add(`c.expiration_date < ${store.dialect.date('?')}`, date);
  else where.add(`c.expiration_date >= ${store.dialect.date('?')}`, date);
  const sortKey = str(v.get('sort')) ?? 'ticker';
  const column = CONTRACT_SORT_COLUMNS.has(sortKey) ? `c.${sortKey}` : 'c.ticker';
  const order = direction(v.get('order'), 'asc');
  return store.all<ListedContractRow>(
    `${contractSelect(store.dialect)}${where} ORDER BY ${column} ${order}, c.ticker ${order} ${window(page)}`,
    where.params,
  );
}

/** One option contract, or undefined. */
export async function contractRow(store: Store, ticker: string): Promise<ListedContractRow | undefined> {
  const where = new Where().add('c.ticker = ?', ticker);
  return (await store.all<ListedContractRow>(`${contractSelect(store.dialect)}${where}`, where.params))[0];
}

/** A stored split. */
export interface StoredSplit {
  ticker: string;
  execution_date: string;
  split_from: number;
  split_to: number;
}

/** `/v3/reference/splits` rows: by ticker, execution date and direction (`reverse_split`). */
export function listSplits(
  store: Store,
  v: Values,
  defaultOrder: 'asc' | 'desc',
  page: OffsetWindow,
): Promise<StoredSplit[]> {
  const where = new Where()
    .field(v, 'ticker', 'ticker')
    .field(v, 'execution_date', 'execution_date', store.dialect.date('?'));
  const reverse = v.get('reverse_split');
  if (reverse === true) where.raw('split_from > split_to');
  if (reverse === false) where.raw('split_from <= split_to');
  const column = str(v.get('sort')) === 'ticker' ? 'ticker' : 'execution_date';
  const order = direction(v.get('order'), defaultOrder);
  return store.all<StoredSplit>(
    `SELECT ticker, ${store.dialect.dateText('execution_date')} AS execution_date, split_from, split_to FROM splits${where}
      ORDER BY ${column} ${order}, ticker ${order}, execution_date ${order} ${window(page)}`,
    where.params,
  );
}
