import type { Context, Hono } from 'hono';
import { stockDividendsV1, stockExchangesV1, stockSplitsV1 } from '../../operations/reference.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, sendJson } from '../http.js';
import { pageOffset, withNextUrl } from '../listing/offset-page.js';
import { listDividendsV1, listSplitsV1 } from '../market/records.js';
import { EXCHANGES } from '../reference-data/exchanges.js';
import { parseRequest, routePattern } from '../validate.js';

const envelope = (c: Context<AppEnv>, results: readonly unknown[]) => ({
  request_id: c.get('requestId'),
  results,
  status: 'OK',
});

/** The newer stocks reference endpoints (`/stocks/v1/...`): dividends, splits and exchanges. */
export function stocksReferenceRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.get(routePattern(stockDividendsV1), async (c) => {
    const req = parseRequest(stockDividendsV1, c, { limit: 100 });
    const limit = req.values.get('limit') as number;
    const rows = await listDividendsV1(ctx.store, req.values, { limit, offset: pageOffset(req) });
    return sendJson(c, withNextUrl(c, req, envelope(c, rows.slice(0, limit)), rows.length, limit));
  });

  app.get(routePattern(stockSplitsV1), async (c) => {
    const req = parseRequest(stockSplitsV1, c, { limit: 100 });
    const limit = req.values.get('limit') as number;
    const rows = await listSplitsV1(ctx.store, req.values, { limit, offset: pageOffset(req) });
    return sendJson(c, withNextUrl(c, req, envelope(c, rows.slice(0, limit)), rows.length, limit));
  });

  app.get(routePattern(stockExchangesV1), (c) => {
    const req = parseRequest(stockExchangesV1, c, { limit: 100 });
    const limit = req.values.get('limit') as number;
    // The newer endpoint writes ids as text.
    const results = EXCHANGES.filter((x) => x.asset_class === 'stocks')
      .slice(0, limit)
      .map(({ asset_class: _a, id, ...rest }) => ({ ...rest, id: String(id) }));
    return sendJson(c, envelope(c, results));
  });
}
