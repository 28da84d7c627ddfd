import type { Hono } from 'hono';
import type { DecodedValue } from '../../core/wire-values.js';
import { dayOf, NEW_YORK } from '../../dates/time-zone.js';
import { optionContractSnapshot, optionsChainSnapshot } from '../../operations/snapshots.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, notFound, sendJson } from '../http.js';
import { sortKeysDeep, withKeyOrder } from '../key-order.js';
import { pageOffset, withNextUrl } from '../listing/offset-page.js';
import { chainContract, chainContracts } from '../market/option-chain.js';
import { optionSnapshots } from '../snapshots/option-snapshot.js';
import { parseRequest, routePattern } from '../validate.js';

/** The underlying as the contracts name it: an index option's underlying is stored without `I:`. */
const underlyingName = (v: DecodedValue | undefined) => String(v ?? '').replace(/^I:/, '');

/** An option snapshot as the service writes it: keys sorted at every depth, but its last trade's in their order. */
function optionKeys(item: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!item) return item;
  const out = sortKeysDeep(item);
  if (out.last_trade && typeof out.last_trade === 'object') {
    const order = ['price', 'sip_timestamp', 'size', 'conditions', 'exchange', 'timeframe'];
    out.last_trade = withKeyOrder(out.last_trade as Record<string, unknown>, order);
  }
  return out;
}

/** Option contract snapshot and option chain snapshot (v3), with greeks and implied volatility. */
export function optionsSnapshotRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.get(routePattern(optionContractSnapshot), async (c) => {
    const { values } = parseRequest(optionContractSnapshot, c);
    const underlying = underlyingName(values.get('underlyingAsset'));
    const raw = String(values.get('optionContract'));
    const contract = raw.startsWith('O:') ? raw : `O:${raw}`;
    const row = await chainContract(ctx.store, underlying, contract);
    if (!row) throw notFound('Ticker not found.');
    const [results] = await optionSnapshots(ctx.store, [row], await ctx.now('options'));
    return sendJson(c, { request_id: c.get('requestId'), results: optionKeys(results), status: 'OK' });
  });

  app.get(routePattern(optionsChainSnapshot), async (c) => {
    const req = parseRequest(optionsChainSnapshot, c, { limit: 10 });
    const v = req.values;
    const limit = typeof v.get('limit') === 'number' ? (v.get('limit') as number) : 10;
    const nowMs = await ctx.now('options');
    // The chain lists the contracts still trading on now's date, as the service's live chain does.
    const rows = await chainContracts(ctx.store, underlyingName(v.get('underlyingAsset')), v, {
      from: dayOf(nowMs, NEW_YORK),
      limit,
      offset: pageOffset(req),
    });
    const results = await optionSnapshots(ctx.store, rows.slice(0, limit), nowMs);
    const body = { request_id: c.get('requestId'), results: results.map(optionKeys), status: 'OK' };
    return sendJson(c, withNextUrl(c, req, body, rows.length, limit));
  });
}
