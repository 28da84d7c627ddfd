import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { DecodedValue } from '../../core/wire-values.js';
import { dayOf, NEW_YORK } from '../../dates/time-zone.js';
import {
  conditions,
  dividends,
  exchanges,
  optionContract,
  optionContracts,
  splits,
  tickerDetails,
  tickerNews,
  tickers,
  tickerTypes,
} from '../../operations/reference.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, notFound, sendJson } from '../http.js';
import { pageOffset, withNextUrl } from '../listing/offset-page.js';
import { Where } from '../listing/where.js';
import { CONDITIONS } from '../reference-data/conditions.js';
import { EXCHANGES } from '../reference-data/exchanges.js';
import { TICKER_TYPES } from '../reference-data/ticker-types.js';
import type { OptionContractRow, TickerRow } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { type ParsedRequest, parseRequest, routePattern } from '../validate.js';

const str = (v: DecodedValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: DecodedValue | undefined, fallback: number): number => (typeof v === 'number' ? v : fallback);
const dateOf = (v: DecodedValue | undefined): string | undefined =>
  v && typeof v === 'object' && 'date' in v ? v.date : undefined;
const direction = (v: DecodedValue | undefined, fallback: 'asc' | 'desc') =>
  v === 'desc' || v === 'asc' ? v : fallback;

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
]);

/**
 * The sort keys the tickers operation declares that are stored columns; the others (identifiers the
 * store lacks) sort by ticker.
 */
const TICKER_SORT_COLUMNS: ReadonlySet<string> = new Set<string>(
  tickers.params.flatMap((p) =>
    p.wire === 'sort' && p.type.kind === 'enum'
      ? p.type.values.filter((v) => STORED_TICKER_COLUMNS.has(v))
      : [],
  ),
);

const TICKER_COLUMNS = `ticker, name, market, locale, type, active, primary_exchange, currency_name, currency_symbol,
  base_currency_symbol, base_currency_name, strftime(list_date, '%Y-%m-%d') AS list_date,
  strftime(delisted_utc, '%Y-%m-%dT%H:%M:%SZ') AS delisted_utc`;

/** A `tickers` row in the service's shape; `last_updated_utc` is midnight UTC of now's date. */
function tickerBody(r: TickerRow, nowMs: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ticker: r.ticker,
    name: r.name ?? r.ticker,
    market: r.market,
    locale: r.locale,
  };
  if (r.primary_exchange) out.primary_exchange = r.primary_exchange;
  if (r.type) out.type = r.type;
  out.active = r.active;
  for (const k of [
    'currency_name',
    'currency_symbol',
    'base_currency_symbol',
    'base_currency_name',
  ] as const) {
    if (r[k]) out[k] = r[k];
  }
  out.last_updated_utc = `${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00Z`;
  if (r.delisted_utc) out.delisted_utc = r.delisted_utc;
  return out;
}

/** `/v3/reference/tickers` rows: every ticker but option contracts (the service lists those elsewhere). */
async function listTickers(
  store: Store,
  req: ParsedRequest,
  limit: number,
  offset: number,
): Promise<TickerRow[]> {
  const v = req.values;
  const where = new Where().raw("market <> 'options'").field(v, 'ticker', 'ticker');
  const type = str(v.get('type'));
  if (type) where.add('type = ?', type);
  const market = str(v.get('market'));
  if (market) where.add('market = ?', market);
  const exchange = str(v.get('exchange'));
  if (exchange) where.add('primary_exchange = ?', exchange);
  // The store holds no CUSIPs or CIKs: a filter on either matches nothing.
  if (v.has('cusip') || v.has('cik')) where.raw('FALSE');
  const search = str(v.get('search'));
  if (search) where.add("strpos(lower(ticker || ' ' || coalesce(name, '')), ?) > 0", search.toLowerCase());
  const active = v.get('active');
  if (typeof active === 'boolean') where.add('active = ?', active);
  const date = dateOf(v.get('date'));
  if (date) where.add('(list_date IS NULL OR list_date <= ?::DATE)', date);
  const sortKey = str(v.get('sort')) ?? 'ticker';
  const column = TICKER_SORT_COLUMNS.has(sortKey) ? sortKey : 'ticker';
  const order = direction(v.get('order'), 'asc');
  return store.all<TickerRow>(
    `SELECT ${TICKER_COLUMNS} FROM tickers${where} ORDER BY ${column} ${order} NULLS LAST, ticker ${order}
      LIMIT ${limit + 1} OFFSET ${offset}`,
    where.params,
  );
}

/** An `option_contracts` row with whether its underlying is an index. */
type ContractRow = OptionContractRow & { is_index: boolean };

const CONTRACT_SORT_COLUMNS = new Set(['ticker', 'underlying_ticker', 'expiration_date', 'strike_price']);
const CONTRACT_SELECT = `SELECT c.ticker, c.underlying_ticker, c.contract_type, c.exercise_style,
    strftime(c.expiration_date, '%Y-%m-%d') AS expiration_date, c.strike_price, c.shares_per_contract,
    c.primary_exchange, EXISTS (SELECT 1 FROM tickers i WHERE i.ticker = 'I:' || c.underlying_ticker) AS is_index
  FROM option_contracts c`;

/**
 * A contract in the service's shape. `cfi` is the ISO 10962 code the service gives: O, C/P (call/put),
 * A/E (exercise style), S/I (stock or index underlying), P/C (physical or cash delivery), S (standard).
 */
function contractBody(r: ContractRow): Record<string, unknown> {
  const cfi = `O${r.contract_type === 'put' ? 'P' : 'C'}${r.exercise_style === 'european' ? 'E' : 'A'}${
    r.is_index ? 'IC' : 'SP'
  }S`;
  const out: Record<string, unknown> = {
    cfi,
    contract_type: r.contract_type,
    exercise_style: r.exercise_style,
    expiration_date: r.expiration_date,
  };
  if (r.primary_exchange) out.primary_exchange = r.primary_exchange;
  Object.assign(out, {
    shares_per_contract: r.shares_per_contract,
    strike_price: r.strike_price,
    ticker: r.ticker,
    underlying_ticker: r.underlying_ticker,
  });
  return out;
}

/**
 * `/v3/reference/options/contracts` rows. `as_of` defaults to now's New York date; without
 * `expired=true` only contracts expiring on or after it are listed, with it only those expired before.
 */
async function listContracts(
  store: Store,
  req: ParsedRequest,
  nowMs: number,
  limit: number,
  offset: number,
): Promise<ContractRow[]> {
  const v = req.values;
  const where = new Where().field(v, 'underlying_ticker', 'c.underlying_ticker');
  const ticker = str(v.get('ticker'));
  if (ticker) where.add('c.ticker = ?', ticker.startsWith('O:') ? ticker : `O:${ticker}`);
  const type = str(v.get('contract_type'));
  if (type) where.add('c.contract_type = ?', type);
  where
    .field(v, 'expiration_date', 'c.expiration_date', '?::DATE')
    .field(v, 'strike_price', 'c.strike_price');
  const asOf = dateOf(v.get('as_of')) ?? dayOf(nowMs, NEW_YORK);
  if (v.get('expired') === true) where.add('c.expiration_date < ?::DATE', asOf);
  else where.add('c.expiration_date >= ?::DATE', asOf);
  const sortKey = str(v.get('sort')) ?? 'ticker';
  const column = CONTRACT_SORT_COLUMNS.has(sortKey) ? `c.${sortKey}` : 'c.ticker';
  const order = direction(v.get('order'), 'asc');
  return store.all<ContractRow>(
    `${CONTRACT_SELECT}${where} ORDER BY ${column} ${order}, c.ticker ${order} LIMIT ${limit + 1} OFFSET ${offset}`,
    where.params,
  );
}

interface SplitRow {
  ticker: string;
  execution_date: string;
  split_from: number;
  split_to: number;
}

/** A split in the service's shape; `id` is a stable digest of the split (the service's are opaque too). */
function splitBody(r: SplitRow): Record<string, unknown> {
  const id = createHash('sha256')
    .update(`${r.ticker}|${r.execution_date}|${r.split_from}|${r.split_to}`)
    .digest('hex');
  return {
    execution_date: r.execution_date,
    id: `E${id}`,
    split_from: r.split_from,
    split_to: r.split_to,
    ticker: r.ticker,
  };
}

async function listSplits(
  store: Store,
  req: ParsedRequest,
  limit: number,
  offset: number,
): Promise<SplitRow[]> {
  const v = req.values;
  const where = new Where()
    .field(v, 'ticker', 'ticker')
    .field(v, 'execution_date', 'execution_date', '?::DATE');
  const reverse = v.get('reverse_split');
  if (reverse === true) where.raw('split_from > split_to');
  if (reverse === false) where.raw('split_from <= split_to');
  const column = str(v.get('sort')) === 'ticker' ? 'ticker' : 'execution_date';
  const order = direction(v.get('order'), 'desc');
  return store.all<SplitRow>(
    `SELECT ticker, strftime(execution_date, '%Y-%m-%d') AS execution_date, split_from, split_to FROM splits${where}
      ORDER BY ${column} ${order}, ticker ${order}, execution_date ${order} LIMIT ${limit + 1} OFFSET ${offset}`,
    where.params,
  );
}

/** Pages an in-memory table by the request's offset and limit. */
function pageOf<T>(rows: readonly T[], req: ParsedRequest, limit: number): T[] {
  const offset = pageOffset(req);
  return rows.slice(offset, offset + limit + 1);
}

const envelope = (c: Context<AppEnv>, extra: Record<string, unknown>) => ({
  ...extra,
  status: 'OK',
  request_id: c.get('requestId'),
});

/**
 * Reference endpoints: tickers (list, details, types), option contracts (list, one), splits, and the
 * static tables of conditions and exchanges. Dividends and news have no source in the store: they answer
 * an OK envelope with no results.
 */
export function referenceRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.get(routePattern(tickerTypes), (c) => {
    const { values } = parseRequest(tickerTypes, c);
    const asset = str(values.get('asset_class'));
    const locale = str(values.get('locale'));
    const results = TICKER_TYPES.filter(
      (t) => (!asset || t.asset_class === asset) && (!locale || t.locale === locale),
    );
    return sendJson(c, envelope(c, { results, count: results.length }));
  });

  app.get(routePattern(tickers), async (c) => {
    const req = parseRequest(tickers, c, { limit: 100 });
    const limit = num(req.values.get('limit'), 100);
    const rows = await listTickers(ctx.store, req, limit, pageOffset(req));
    const now = await ctx.now();
    const results = rows.slice(0, limit).map((r) => tickerBody(r, now));
    return sendJson(
      c,
      withNextUrl(c, req, envelope(c, { results, count: results.length }), rows.length, limit),
    );
  });

  app.get(routePattern(tickerDetails), async (c) => {
    const { values } = parseRequest(tickerDetails, c);
    const ticker = str(values.get('ticker')) ?? '';
    const rows = await ctx.store.all<TickerRow>(
      `SELECT ${TICKER_COLUMNS} FROM tickers WHERE ticker = $1 AND market <> 'options'`,
      [ticker],
    );
    const row = rows[0];
    if (!row) throw notFound('Ticker not found.');
    const body = tickerBody(row, await ctx.now());
    if (row.list_date) body.list_date = row.list_date;
    if (row.market === 'stocks') {
      const [root, suffix] = row.ticker.split('.');
      body.ticker_root = root;
      if (suffix) body.ticker_suffix = suffix;
      body.round_lot = 100;
    }
    return sendJson(c, envelope(c, { results: body }));
  });

  app.get(routePattern(optionContracts), async (c) => {
    const req = parseRequest(optionContracts, c, { limit: 10, sort: 'ticker', order: 'asc' });
    const limit = num(req.values.get('limit'), 10);
    const rows = await listContracts(ctx.store, req, await ctx.now(), limit, pageOffset(req));
    const results = rows.slice(0, limit).map(contractBody);
    return sendJson(c, withNextUrl(c, req, envelope(c, { results }), rows.length, limit));
  });

  app.get(routePattern(optionContract), async (c) => {
    const { values } = parseRequest(optionContract, c);
    const raw = str(values.get('options_ticker')) ?? '';
    const ticker = raw.startsWith('O:') ? raw : `O:${raw}`;
    const rows = await ctx.store.all<ContractRow>(`${CONTRACT_SELECT} WHERE c.ticker = $1`, [ticker]);
    const row = rows[0];
    if (!row) throw notFound('Data not found.');
    return sendJson(c, envelope(c, { results: contractBody(row) }));
  });

  app.get(routePattern(splits), async (c) => {
    const req = parseRequest(splits, c, { limit: 10, order: 'desc' });
    const limit = num(req.values.get('limit'), 10);
    const rows = await listSplits(ctx.store, req, limit, pageOffset(req));
    const results = rows.slice(0, limit).map(splitBody);
    return sendJson(c, withNextUrl(c, req, envelope(c, { results }), rows.length, limit));
  });

  app.get(routePattern(dividends), (c) => {
    parseRequest(dividends, c, { limit: 10 });
    return sendJson(c, envelope(c, { results: [] }));
  });

  app.get(routePattern(tickerNews), (c) => {
    parseRequest(tickerNews, c, { limit: 10 });
    return sendJson(c, envelope(c, { results: [], count: 0 }));
  });

  app.get(routePattern(conditions), (c) => {
    const req = parseRequest(conditions, c, { limit: 10, sort: 'asset_class' });
    const v = req.values;
    const limit = num(v.get('limit'), 10);
    const asset = str(v.get('asset_class'));
    const dataType = str(v.get('data_type'));
    const id = v.get('id');
    const sip = str(v.get('sip'));
    const sortKey = str(v.get('sort')) ?? 'asset_class';
    const sign = direction(v.get('order'), 'asc') === 'asc' ? 1 : -1;
    const key = (x: (typeof CONDITIONS)[number]): string | number =>
      sortKey === 'id'
        ? x.id
        : sortKey === 'data_types'
          ? x.data_types.join(',')
          : sortKey === 'legacy'
            ? String(x.legacy === true)
            : (x[sortKey as 'asset_class' | 'type' | 'name'] ?? '');
    const rows = CONDITIONS.filter(
      (x) =>
        (!asset || x.asset_class === asset) &&
        (!dataType || x.data_types.includes(dataType)) &&
        (typeof id !== 'number' || x.id === id) &&
        (!sip || Object.hasOwn(x.sip_mapping, sip)),
    ).sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id) * sign;
    });
    const page = pageOf(rows, req, limit);
    const results = page.slice(0, limit);
    return sendJson(
      c,
      withNextUrl(c, req, envelope(c, { results, count: results.length }), page.length, limit),
    );
  });

  app.get(routePattern(exchanges), (c) => {
    const { values } = parseRequest(exchanges, c);
    const asset = str(values.get('asset_class'));
    const locale = str(values.get('locale'));
    const results = EXCHANGES.filter(
      (x) => (!asset || x.asset_class === asset) && (!locale || x.locale === locale),
    );
    return sendJson(c, envelope(c, { results, count: results.length }));
  });
}
