import type { Hono } from 'hono';
import type { DecodedValue } from '../../core/wire-values.js';
import { dayOf, NEW_YORK } from '../../dates/time-zone.js';
import { optionContractSnapshot, optionsChainSnapshot } from '../../operations/snapshots.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, notFound, sendJson } from '../http.js';
import { pageOffset, withNextUrl } from '../listing/offset-page.js';
import { Where } from '../listing/where.js';
import { CONTRACT_COLUMNS, type ContractRow, optionSnapshots } from '../snapshots/option-snapshot.js';
import { parseRequest, routePattern } from '../validate.js';

const SORT_COLUMNS = new Set(['ticker', 'expiration_date', 'strike_price']);

/** The underlying as the contracts name it: an index option's underlying is stored without `I:`. */
const underlyingName = (v: DecodedValue | undefined) => String(v ?? '').replace(/^I:/, '');

/** Option contract snapshot and option chain snapshot (v3), with greeks and implied volatility. */
export function optionsSnapshotRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.get(routePattern(optionContractSnapshot), async (c) => {
    const { values } = parseRequest(optionContractSnapshot, c);
    const underlying = underlyingName(values.get('underlyingAsset'));
    const raw = String(values.get('optionContract'));
    const contract = raw.startsWith('O:') ? raw : `O:${raw}`;
    const rows = await ctx.store.all<ContractRow>(
      `SELECT ${CONTRACT_COLUMNS} FROM option_contracts WHERE ticker = $1 AND underlying_ticker = $2`,
      [contract, underlying],
    );
    if (rows.length === 0) throw notFound('Ticker not found.');
    const [results] = await optionSnapshots(ctx.store, rows, await ctx.now('options'));
    return sendJson(c, { request_id: c.get('requestId'), results, status: 'OK' });
  });

  app.get(routePattern(optionsChainSnapshot), async (c) => {
    const req = parseRequest(optionsChainSnapshot, c, { limit: 10 });
    const v = req.values;
    const limit = typeof v.get('limit') === 'number' ? (v.get('limit') as number) : 10;
    const nowMs = await ctx.now('options');
    // The chain lists the contracts still trading on now's date, as the service's live chain does.
    const where = new Where()
      .add('underlying_ticker = ?', underlyingName(v.get('underlyingAsset')))
      .add('expiration_date >= ?::DATE', dayOf(nowMs, NEW_YORK))
      .field(v, 'strike_price', 'strike_price')
      .field(v, 'expiration_date', 'expiration_date', '?::DATE');
    const type = v.get('contract_type');
    if (typeof type === 'string') where.add('contract_type = ?', type);
    const sortKey = String(v.get('sort') ?? 'ticker');
    const column = SORT_COLUMNS.has(sortKey) ? sortKey : 'ticker';
    const order = v.get('order') === 'desc' ? 'DESC' : 'ASC';
    const rows = await ctx.store.all<ContractRow>(
      `SELECT ${CONTRACT_COLUMNS} FROM option_contracts${where}
        ORDER BY ${column} ${order}, ticker ${order} LIMIT ${limit + 1} OFFSET ${pageOffset(req)}`,
      where.params,
    );
    const results = await optionSnapshots(ctx.store, rows.slice(0, limit), nowMs);
    const body = { request_id: c.get('requestId'), results, status: 'OK' };
    return sendJson(c, withNextUrl(c, req, body, rows.length, limit));
  });
}
