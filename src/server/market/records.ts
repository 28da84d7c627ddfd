import type { DecodedValue } from '../../core/wire-values.js';
import { badRequest } from '../http.js';
import { plain, Where } from '../listing/where.js';
import type { Store } from '../store/store.js';
import type { OffsetWindow, Values } from './reference.js';

/**
 * Queries over reference records loaded from saved API responses (`reference_records`, written by
 * `mdq ingest json`) and over the splits and ticker history the Lean files give. Records are filtered
 * and sorted by the columns ingest fills from their fields (`ingest/record-fields.ts`), never by
 * reading their JSON text, so every store answers with the same SQL.
 */

/** A stored record, parsed. */
export type StoredRecord = Record<string, unknown>;

const RANGES = ['gt', 'gte', 'lt', 'lte'] as const;
const OPS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** One sort key: a SQL expression and its direction. */
export interface SortKey {
  readonly sql: string;
  readonly desc: boolean;
}

/**
 * The sort keys of a `sort` value of the newer endpoints: `field.asc|desc` items, comma separated
 * (`ticker.asc,execution_date.desc`); a field alone sorts `bare` (ascending unless the endpoint's order
 * defaults otherwise).
 * @throws HttpProblem 400 naming the value and the fields allowed.
 */
export function parseSortList(
  raw: DecodedValue | undefined,
  columns: Readonly<Record<string, string>>,
  fallback: string,
  bare: 'asc' | 'desc' = 'asc',
): SortKey[] {
  const value = typeof raw === 'string' && raw.trim() !== '' ? raw : fallback;
  return value.split(',').map((item) => {
    const m = /^([a-z_]+)(?:\.(asc|desc))?$/.exec(item.trim());
    const sql = m ? columns[m[1] as string] : undefined;
    if (!m || sql === undefined) {
      throw badRequest(
        `Invalid sort '${value}': expected field.asc or field.desc items, comma separated, with fields ${Object.keys(columns).join(', ')}.`,
      );
    }
    return { sql, desc: (m[2] ?? bare) === 'desc' };
  });
}

const orderBy = (keys: readonly SortKey[], tie: string) =>
  ` ORDER BY ${[...keys.map((k) => `${k.sql} ${k.desc ? 'DESC' : 'ASC'} NULLS LAST`), tie].join(', ')}`;

/** A page of records of `kind` matching `where`, in `sort` order. */
async function listRecords(
  store: Store,
  kind: string,
  where: Where,
  sort: readonly SortKey[],
  page: OffsetWindow,
): Promise<StoredRecord[]> {
  where.add('kind = ?', kind);
  const rows = await store.all<{ body: string }>(
    `SELECT body FROM reference_records${where}${orderBy(sort, 'id')} LIMIT ${page.limit + 1} OFFSET ${page.offset}`,
    where.params,
  );
  return rows.map((r) => JSON.parse(r.body) as StoredRecord);
}

/** Filters on a record column holding a date or an ISO instant: exact day and day ranges. */
function dateFilters(where: Where, v: Values, wire: string, column: string): void {
  const day = `substr(${column}, 1, 10)`;
  const exact = v.get(wire);
  if (exact !== undefined) where.add(`${day} = ?`, plain(exact));
  for (const r of RANGES) {
    const value = v.get(`${wire}.${r}`);
    if (value !== undefined) where.add(`${day} ${OPS[r]} ?`, plain(value));
  }
}

/** Records whose `tickers` list holds the ticker. */
const tickersHold = (store: Store) => store.dialect.listHas('tickers', '?');

const DIVIDEND_SORT: Readonly<Record<string, string>> = {
  ex_dividend_date: 'ex_dividend_date',
  pay_date: 'pay_date',
  declaration_date: 'declaration_date',
  record_date: 'record_date',
  cash_amount: 'cash_amount',
  ticker: 'ticker',
  frequency: 'frequency',
};

/** Dividends (`/v3/reference/dividends`), with `dividend_type` filled in. */
export async function listDividends(store: Store, v: Values, page: OffsetWindow): Promise<StoredRecord[]> {
  const where = new Where().field(v, 'ticker', 'ticker');
  for (const d of ['ex_dividend_date', 'record_date', 'declaration_date', 'pay_date'])
    dateFilters(where, v, d, d);
  where.field(v, 'cash_amount', 'cash_amount');
  const frequency = v.get('frequency');
  if (frequency !== undefined) where.add('frequency = ?', plain(frequency));
  const type = v.get('dividend_type');
  if (type !== undefined) where.add('dividend_type = ?', plain(type));
  const sortKey = typeof v.get('sort') === 'string' ? (v.get('sort') as string) : 'pay_date';
  const sort = [{ sql: DIVIDEND_SORT[sortKey] ?? DIVIDEND_SORT.pay_date, desc: v.get('order') === 'desc' }];
  const rows = await listRecords(store, 'dividends', where, sort as SortKey[], page);
  return rows.map((r) => {
    if (r.dividend_type !== undefined) return r;
    const special = r.distribution_type === 'special' || r.distribution_type === 'supplemental';
    return { ...r, dividend_type: special ? 'SC' : 'CD' };
  });
}

/**
 * Dividends of the newer endpoint (`/stocks/v1/dividends`): `distribution_type` filled in, and the
 * historical adjustment factor and split-adjusted amount from the stored splits when the record has none.
 */
export async function listDividendsV1(store: Store, v: Values, page: OffsetWindow): Promise<StoredRecord[]> {
  const where = new Where().field(v, 'ticker', 'ticker');
  const anyOf = v.get('ticker.any_of');
  if (Array.isArray(anyOf)) where.anyOf(store.dialect, 'ticker', anyOf);
  dateFilters(where, v, 'ex_dividend_date', 'ex_dividend_date');
  where.field(v, 'frequency', 'frequency');
  const type = v.get('distribution_type');
  if (type !== undefined) where.add('distribution_type = ?', plain(type));
  where.add('kind = ?', 'dividends');
  const sort = parseSortList(v.get('sort'), DIVIDEND_SORT, 'ticker.asc');
  const rows = await store.all<{ body: string; distribution_type: string; ticker: string | null }>(
    `SELECT body, distribution_type, ticker
      FROM reference_records${where}${orderBy(sort, 'id')} LIMIT ${page.limit + 1} OFFSET ${page.offset}`,
    where.params,
  );
  const tickers = rows.map((row) => row.ticker).filter((t) => t !== null);
  const splits = await splitsByTicker(store, [...new Set(tickers)]);
  return rows.map((row) => {
    const r = JSON.parse(row.body) as StoredRecord;
    const factor =
      typeof r.historical_adjustment_factor === 'number'
        ? r.historical_adjustment_factor
        : factorAfter(splits.get(row.ticker ?? '') ?? [], r.ex_dividend_date);
    const out: StoredRecord = {
      cash_amount: r.cash_amount,
      currency: r.currency,
      declaration_date: r.declaration_date,
      distribution_type: row.distribution_type,
      ex_dividend_date: r.ex_dividend_date,
      frequency: r.frequency,
      historical_adjustment_factor: round(factor),
      id: r.id,
      pay_date: r.pay_date,
      record_date: r.record_date,
      split_adjusted_cash_amount:
        typeof r.split_adjusted_cash_amount === 'number'
          ? r.split_adjusted_cash_amount
          : typeof r.cash_amount === 'number'
            ? round(r.cash_amount * factor)
            : undefined,
      ticker: r.ticker,
    };
    for (const k of Object.keys(out)) if (out[k] === undefined || out[k] === null) delete out[k];
    return out;
  });
}

/**
 * The product of split_from / split_to of `splits` after `date` (a `YYYY-MM-DD` day, else none): what
 * a price before them is multiplied by to compare with prices after them. Multiplied here (no
 * correlated subqueries on every store).
 */
function factorAfter(
  splits: readonly { execution_date: string; split_from: number; split_to: number }[],
  date: unknown,
): number {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return 1;
  let factor = 1;
  for (const s of splits) if (s.execution_date > date) factor *= s.split_from / s.split_to;
  return factor;
}

/** Ten significant digits: factors are products of ratios, and their float noise is not data. */
const round = (x: number) => Number(x.toPrecision(10));

/** A split of the newer endpoint. */
export interface SplitV1Row {
  ticker: string;
  execution_date: string;
  split_from: number;
  split_to: number;
  adjustment_type: string;
  historical_adjustment_factor: number;
}

const SPLIT_SORT: Readonly<Record<string, string>> = {
  execution_date: 'day',
  ticker: 'ticker',
  adjustment_type: 'adjustment_type',
};

/**
 * Splits of the newer endpoint (`/stocks/v1/splits`) from the stored splits: `adjustment_type` is
 * forward or reverse by the ratio; the historical adjustment factor multiplies this split's ratio with
 * those of the ticker's later splits.
 */
export async function listSplitsV1(store: Store, v: Values, page: OffsetWindow): Promise<SplitV1Row[]> {
  const where = new Where()
    .field(v, 'ticker', 'ticker')
    .field(v, 'execution_date', 'day', store.dialect.date('?'));
  const anyOf = v.get('ticker.any_of');
  if (Array.isArray(anyOf)) where.anyOf(store.dialect, 'ticker', anyOf);
  const type = v.get('adjustment_type');
  if (type !== undefined) where.add('adjustment_type = ?', plain(type));
  const sort = parseSortList(v.get('sort'), SPLIT_SORT, 'execution_date.desc');
  const d = store.dialect;
  const rows = await store.all<Omit<SplitV1Row, 'historical_adjustment_factor'> & { day?: unknown }>(
    `SELECT * FROM (SELECT ticker, ${d.dateText('execution_date')} AS execution_date, execution_date AS day,
        split_from, split_to,
        CASE WHEN split_to >= split_from THEN 'forward_split' ELSE 'reverse_split' END AS adjustment_type
      FROM splits)${where}${orderBy(sort, 'ticker')} LIMIT ${page.limit + 1} OFFSET ${page.offset}`,
    where.params,
  );
  const later = await splitsByTicker(store, [...new Set(rows.map((r) => r.ticker))]);
  return rows.map(({ day: _day, ...rest }) => {
    // This split's ratio times those of the ticker's later splits, multiplied here (no window
    // functions on every store).
    let factor = 1;
    for (const s of later.get(rest.ticker) ?? []) {
      if (s.execution_date >= rest.execution_date) factor *= s.split_from / s.split_to;
    }
    return { ...rest, historical_adjustment_factor: round(factor) };
  });
}

/** Every stored split of `tickers`, by ticker, latest first. */
async function splitsByTicker(
  store: Store,
  tickers: readonly string[],
): Promise<Map<string, { execution_date: string; split_from: number; split_to: number }[]>> {
  const out = new Map<string, { execution_date: string; split_from: number; split_to: number }[]>();
  if (tickers.length === 0) return out;
  const where = new Where().anyOf(store.dialect, 'ticker', tickers);
  const rows = await store.all<{
    ticker: string;
    execution_date: string;
    split_from: number;
    split_to: number;
  }>(
    `SELECT ticker, ${store.dialect.dateText('execution_date')} AS execution_date, split_from, split_to
      FROM splits${where} ORDER BY ticker, execution_date DESC`,
    where.params,
  );
  for (const { ticker, ...split } of rows) out.set(ticker, [...(out.get(ticker) ?? []), split]);
  return out;
}

/** News articles (`/v2/reference/news`), newest first by default. */
export function listNews(store: Store, v: Values, page: OffsetWindow): Promise<StoredRecord[]> {
  const where = new Where();
  const ticker = v.get('ticker');
  if (typeof ticker === 'string') where.add(tickersHold(store), ticker);
  for (const r of RANGES) {
    const value = v.get(`ticker.${r}`);
    if (value !== undefined) where.add(`ticker ${OPS[r]} ?`, plain(value));
  }
  dateFilters(where, v, 'published_utc', 'date');
  return listRecords(store, 'news', where, [{ sql: 'date', desc: v.get('order') !== 'asc' }], page);
}

const SOURCE_KEYS = new Set(['derived_from', 'formula', 'source', 'xpath']);

/** Financials (`/vX/reference/financials`); without `include_sources` the values' sources are left out. */
export async function listFinancials(store: Store, v: Values, page: OffsetWindow): Promise<StoredRecord[]> {
  const where = new Where();
  const ticker = v.get('ticker');
  if (typeof ticker === 'string') where.add(tickersHold(store), ticker);
  for (const name of ['cik', 'company_name', 'sic', 'timeframe']) {
    const value = v.get(name);
    if (value !== undefined) where.add(`${name} = ?`, plain(value));
  }
  const search = v.get('company_name.search');
  if (typeof search === 'string')
    where.add(
      `${store.dialect.position(store.dialect.lowerText('company_name'), '?')} > 0`,
      search.toLowerCase(),
    );
  dateFilters(where, v, 'filing_date', 'filing_date');
  dateFilters(where, v, 'period_of_report_date', 'end_date');
  const column = v.get('sort') === 'period_of_report_date' ? 'end_date' : 'filing_date';
  const rows = await listRecords(
    store,
    'financials',
    where,
    [{ sql: column, desc: v.get('order') === 'desc' }],
    page,
  );
  return v.get('include_sources') === true ? rows : rows.map(withoutSources);
}

function withoutSources(r: StoredRecord): StoredRecord {
  const statements = r.financials as Record<string, Record<string, Record<string, unknown>>> | undefined;
  if (!statements) return r;
  const financials: Record<string, unknown> = {};
  for (const [name, statement] of Object.entries(statements)) {
    const points: Record<string, unknown> = {};
    for (const [key, point] of Object.entries(statement ?? {})) {
      points[key] = Object.fromEntries(Object.entries(point ?? {}).filter(([k]) => !SOURCE_KEYS.has(k)));
    }
    financials[name] = points;
  }
  return { ...r, financials };
}

/** A stored record of `kind` by its id (the ticker for per-ticker kinds), or undefined. */
export async function recordById(store: Store, kind: string, id: string): Promise<StoredRecord | undefined> {
  const where = new Where().add('kind = ?', kind).add('id = ?', id);
  const rows = await store.all<{ body: string }>(`SELECT body FROM reference_records${where}`, where.params);
  return rows[0] ? (JSON.parse(rows[0].body) as StoredRecord) : undefined;
}

/** One ticker change: the symbol in use from `date` on. */
export interface TickerChange {
  date: string;
  ticker: string;
}

/**
 * The symbols a company (by its ticker today, or any symbol it had) has used, newest first, from the
 * ticker history of the map files: each symbol from the day after the previous one's last day (the first
 * from the history's first day). Undefined when the store has no history of it.
 */
export async function tickerChanges(
  store: Store,
  id: string,
): Promise<{ ticker: string; changes: TickerChange[] } | undefined> {
  const owner = new Where();
  const given = owner.param(id);
  owner.raw(`(ticker = ${given} OR upper(symbol) = ${given})`);
  const owners = await store.all<{ ticker: string }>(
    `SELECT DISTINCT ticker FROM ticker_history${owner} ORDER BY ticker`,
    owner.params,
  );
  const ticker = owners.find((o) => o.ticker === id)?.ticker ?? owners[0]?.ticker;
  if (ticker === undefined) return undefined;
  const of = new Where().add('ticker = ?', ticker);
  const rows = await store.all<{ date: string; symbol: string }>(
    `SELECT ${store.dialect.dateText('date')} AS date, upper(symbol) AS symbol FROM ticker_history${of} ORDER BY date`,
    of.params,
  );
  const changes: TickerChange[] = [];
  let previousEnd: string | undefined;
  for (const r of rows) {
    const last = changes[changes.length - 1];
    if (!last || last.ticker !== r.symbol) {
      changes.push({ date: previousEnd === undefined ? r.date : nextDay(previousEnd), ticker: r.symbol });
    }
    previousEnd = r.date;
  }
  return { ticker, changes: changes.reverse() };
}

const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const IPO_SORT: Readonly<Record<string, string>> = {
  listing_date: 'date',
  ticker: 'ticker',
  // Columns of reference_records (ingest/record-fields.ts); the offer figures are DOUBLE, sorted as numbers.
  last_updated: 'last_updated',
  issuer_name: 'issuer_name',
  announced_date: 'announced_date',
  isin: 'isin',
  us_code: 'us_code',
  ipo_status: 'ipo_status',
  security_type: 'security_type',
  currency_code: 'currency_code',
  primary_exchange: 'primary_exchange',
  security_description: 'security_description',
  final_issue_price: 'final_issue_price',
  min_shares_offered: 'min_shares_offered',
  max_shares_offered: 'max_shares_offered',
  lowest_offer_price: 'lowest_offer_price',
  highest_offer_price: 'highest_offer_price',
  total_offer_size: 'total_offer_size',
  shares_outstanding: 'shares_outstanding',
  lot_size: 'lot_size',
};

/** The sort keys of the IPOs listing, all stored columns. */
export const IPO_SORT_KEYS: ReadonlySet<string> = new Set(Object.keys(IPO_SORT));

/** IPOs (`/vX/reference/ipos`), newest listing first by default. */
export function listIpos(store: Store, v: Values, page: OffsetWindow): Promise<StoredRecord[]> {
  const where = new Where().field(v, 'ticker', 'ticker');
  for (const name of ['us_code', 'isin', 'ipo_status']) {
    const value = v.get(name);
    if (value !== undefined) where.add(`${name} = ?`, plain(value));
  }
  dateFilters(where, v, 'listing_date', 'date');
  const sortKey = typeof v.get('sort') === 'string' ? (v.get('sort') as string) : 'listing_date';
  const sort = [{ sql: IPO_SORT[sortKey] ?? 'date', desc: v.get('order') !== 'asc' }];
  return listRecords(store, 'ipos', where, sort, page);
}

/**
 * IPOs of the v1 endpoint (`/v1/reference/ipos`): the same records, filtered by ticker, US code and
 * ISIN (exact, `.any_of`, ranges), listing date and status (exact, `.any_of`), sorted by a list of
 * columns (a column alone descending, as the endpoint's order defaults), newest listing first by default.
 */
export function listIposV1(store: Store, v: Values, page: OffsetWindow): Promise<StoredRecord[]> {
  const where = new Where();
  for (const name of ['ticker', 'us_code', 'isin']) {
    where.field(v, name, name);
    const anyOf = v.get(`${name}.any_of`);
    if (Array.isArray(anyOf)) where.anyOf(store.dialect, name, anyOf);
  }
  dateFilters(where, v, 'listing_date', 'date');
  const status = v.get('ipo_status');
  if (status !== undefined) where.add('ipo_status = ?', plain(status));
  const statuses = v.get('ipo_status.any_of');
  if (Array.isArray(statuses)) where.anyOf(store.dialect, 'ipo_status', statuses);
  const sort = parseSortList(v.get('sort'), IPO_SORT, 'listing_date.desc', 'desc');
  return listRecords(store, 'ipos', where, sort, page);
}
