import type { Context, Hono } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import {
  cryptoExchangesV1,
  forexExchangesV1,
  optionsExchangesV1,
  stockDividendsV1,
  stockExchangesV1,
  stockSplitsV1,
} from '../../operations/reference.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, sendJson } from '../http.js';
import { pageOffset, withNextUrl } from '../listing/offset-page.js';
import { listDividendsV1, listSplitsV1 } from '../market/records.js';
import { EXCHANGES } from '../reference-data/exchanges.js';
import { parseRequest, routePattern } from '../validate.js';

const withoutLocale = ({ locale: _l, ...rest }: Record<string, unknown>) => rest;

const envelope = (c: Context<AppEnv>, results: readonly unknown[]) => ({
  request_id: c.get('requestId'),
  results,
  status: 'OK',
});

/**
 * The newer reference endpoints: stocks dividends, splits and exchanges (`/stocks/v1/...`) and the
 * exchanges of the other markets (`/crypto/v1/exchanges`, `/forex/v1/exchanges`, `/options/v1/exchanges`).
 */
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

  // The venues of `/v3/reference/exchanges` by asset class; the newer endpoints write ids as text, and
  // those of crypto and forex name no locale.
  const exchangesV1: [OperationSpec, string][] = [
    [stockExchangesV1, 'stocks'],
    [cryptoExchangesV1, 'crypto'],
    [forexExchangesV1, 'fx'],
    [optionsExchangesV1, 'options'],
  ];
  for (const [op, assetClass] of exchangesV1) {
    app.get(routePattern(op), (c) => {
      const req = parseRequest(op, c, { limit: 100 });
      const limit = req.values.get('limit') as number;
      const results = EXCHANGES.filter((x) => x.asset_class === assetClass)
        .slice(0, limit)
        .map(({ asset_class: _a, id, ...rest }) => ({
          ...(assetClass === 'crypto' || assetClass === 'fx' ? withoutLocale(rest) : rest),
          id: String(id),
        }));
      return sendJson(c, envelope(c, results));
    });
  }
}
