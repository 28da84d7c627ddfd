import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import type { DecodedValue } from '../../core/wire-values.js';
import { dayOf, NEW_YORK } from '../../dates/time-zone.js';
import {
  conditions,
  dividends,
  exchanges,
  ipos,
  iposV1,
  optionContract,
  optionContracts,
  relatedCompanies,
  splits,
  stockFinancials,
  tickerDetails,
  tickerEvents,
  tickerNews,
  tickers,
  tickerTypes,
} from '../../operations/reference.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, notFound, sendJson } from '../http.js';
import { pageOffset, withNextUrl } from '../listing/offset-page.js';
import {
  listDividends,
  listFinancials,
  listIpos,
  listIposV1,
  listNews,
  recordById,
  type StoredRecord,
  tickerChanges,
} from '../market/records.js';
import type { OffsetWindow } from '../market/reference.js';
import {
  contractRow,
  type ListedContractRow,
  listContracts,
  listSplits,
  listTickers,
  type StoredSplit,
  tickerRow,
} from '../market/reference.js';
import { CONDITIONS } from '../reference-data/conditions.js';
import { EXCHANGES } from '../reference-data/exchanges.js';
import { TICKER_TYPES } from '../reference-data/ticker-types.js';
import type { ListedTickerRow } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { type ParsedRequest, parseRequest, routePattern } from '../validate.js';

const str = (v: DecodedValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: DecodedValue | undefined, fallback: number): number => (typeof v === 'number' ? v : fallback);
const direction = (v: DecodedValue | undefined, fallback: 'asc' | 'desc') =>
  v === 'desc' || v === 'asc' ? v : fallback;

/**
 * A `tickers` row in the service's shape, its fields in the service's order; `last_updated_utc` is the
 * stored one, else midnight UTC of now's date.
 */
function tickerBody(r: ListedTickerRow, nowMs: number): Record<string, unknown> {
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
  for (const k of ['cik', 'composite_figi', 'share_class_figi'] as const) {
    if (r[k]) out[k] = r[k];
  }
  out.last_updated_utc = r.last_updated_utc ?? `${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00Z`;
  if (r.delisted_utc) out.delisted_utc = r.delisted_utc;
  return out;
}

/**
 * A contract in the service's shape. `cfi` is the ISO 10962 code the service gives: O, C/P (call/put),
 * A/E (exercise style), S/I (stock or index underlying), P/C (physical or cash delivery), S (standard).
 */
function contractBody(r: ListedContractRow): Record<string, unknown> {
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

/** A split in the service's shape; `id` is a stable digest of the split (the service's are opaque too). */
function splitBody(r: StoredSplit): Record<string, unknown> {
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

/** Pages an in-memory table by the request's offset and limit. */
function pageOf<T>(rows: readonly T[], req: ParsedRequest, limit: number): T[] {
  const offset = pageOffset(req);
  return rows.slice(offset, offset + limit + 1);
}

/** A reference answer: its fields, then status and request id, then the count (the service's order). */
const envelope = (c: Context<AppEnv>, { count, ...extra }: Record<string, unknown>) => ({
  ...extra,
  status: 'OK',
  request_id: c.get('requestId'),
  ...(count !== undefined && { count }),
});

/**
 * Reference endpoints: tickers (list, details, types, events), option contracts (list, one), splits,
 * the static tables of conditions and exchanges, and what `mdq ingest json` loaded (dividends, news,
 * financials, ticker details, related companies, IPOs).
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
    const rows = await listTickers(ctx.store, req.values, { limit, offset: pageOffset(req) });
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
    const row = await tickerRow(ctx.store, ticker);
    // Details loaded from a saved response (mdq ingest json) are answered as they were recorded.
    const stored = await recordById(ctx.store, 'ticker_details', ticker);
    if (stored) return sendJson(c, envelope(c, { results: stored }));
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
    const asOf = dayOf(await ctx.now(), NEW_YORK);
    const rows = await listContracts(ctx.store, req.values, asOf, { limit, offset: pageOffset(req) });
    const results = rows.slice(0, limit).map(contractBody);
    return sendJson(c, withNextUrl(c, req, envelope(c, { results }), rows.length, limit));
  });

  app.get(routePattern(optionContract), async (c) => {
    const { values } = parseRequest(optionContract, c);
    const raw = str(values.get('options_ticker')) ?? '';
    const ticker = raw.startsWith('O:') ? raw : `O:${raw}`;
    const row = await contractRow(ctx.store, ticker);
    if (!row) throw notFound('Data not found.');
    return sendJson(c, envelope(c, { results: contractBody(row) }));
  });

  app.get(routePattern(splits), async (c) => {
    const req = parseRequest(splits, c, { limit: 10, order: 'desc' });
    const limit = num(req.values.get('limit'), 10);
    const rows = await listSplits(ctx.store, req.values, 'desc', { limit, offset: pageOffset(req) });
    const results = rows.slice(0, limit).map(splitBody);
    return sendJson(c, withNextUrl(c, req, envelope(c, { results }), rows.length, limit));
  });

  // Stored records paged by offset, 10 a page; news and financials also state their count.
  const recordList = (
    op: OperationSpec,
    list: (store: Store, v: ParsedRequest['values'], page: OffsetWindow) => Promise<StoredRecord[]>,
    counted: boolean,
  ) =>
    app.get(routePattern(op), async (c) => {
      const req = parseRequest(op, c, { limit: 10 });
      const limit = num(req.values.get('limit'), 10);
      const rows = await list(ctx.store, req.values, { limit, offset: pageOffset(req) });
      const results = rows.slice(0, limit);
      const body = envelope(c, counted ? { results, count: results.length } : { results });
      return sendJson(c, withNextUrl(c, req, body, rows.length, limit));
    });
  recordList(dividends, listDividends, false);
  recordList(tickerNews, listNews, true);
  recordList(stockFinancials, listFinancials, true);

  app.get(routePattern(relatedCompanies), async (c) => {
    const { values } = parseRequest(relatedCompanies, c);
    const ticker = str(values.get('ticker')) ?? '';
    const stored = await recordById(ctx.store, 'related_companies', ticker);
    if (!stored) throw notFound('Ticker not found.');
    return sendJson(c, envelope(c, { results: stored.results ?? [], ticker }));
  });

  for (const [op, list] of [
    [ipos, listIpos],
    [iposV1, listIposV1],
  ] as const) {
    app.get(routePattern(op), async (c) => {
      const req = parseRequest(op, c, { limit: 10 });
      const limit = num(req.values.get('limit'), 10);
      const rows = await list(ctx.store, req.values, { limit, offset: pageOffset(req) });
      return sendJson(
        c,
        withNextUrl(c, req, envelope(c, { results: rows.slice(0, limit) }), rows.length, limit),
      );
    });
  }

  app.get(routePattern(tickerEvents), async (c) => {
    const { values } = parseRequest(tickerEvents, c);
    const id = str(values.get('id')) ?? '';
    const types = values.get('types');
    const wanted = (type: string) => !Array.isArray(types) || types.includes(type);
    const stored = await recordById(ctx.store, 'ticker_events', id);
    if (stored) {
      const events = Array.isArray(stored.events) ? stored.events : [];
      const results = { ...stored, events: events.filter((e) => wanted(String(e?.type))) };
      return sendJson(c, envelope(c, { results }));
    }
    const history = await tickerChanges(ctx.store, id);
    if (!history) throw notFound('Ticker not found.');
    const row = await tickerRow(ctx.store, history.ticker);
    const events = wanted('ticker_change')
      ? history.changes.map((e) => ({
          ticker_change: { ticker: e.ticker },
          type: 'ticker_change',
          date: e.date,
        }))
      : [];
    return sendJson(c, envelope(c, { results: { ...(row?.name && { name: row.name }), events } }));
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
