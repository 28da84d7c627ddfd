import type { Hono } from 'hono';
import { lastQuote as lastQuoteOp, lastTrade as lastTradeOp } from '../../operations/last.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, notFound, put, sendJson } from '../http.js';
import { assetClassOf, decimalString, lastQuote, lastTrade } from '../market/index.js';
import { parseRequest, routePattern } from '../validate.js';

/** Last trade (stocks, options) and last NBBO quote (stocks), as of the server's "now". */
export function lastRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  const tradeOp = lastTradeOp();
  app.get(routePattern(tradeOp), async (c) => {
    const ticker = parseRequest(tradeOp, c).values.get('ticker') as string;
    // Rows arrive with plain arrays (lastTrade normalises them).
    const r = await lastTrade(ctx.store, ticker, await ctx.now(assetClassOf(ticker)));
    if (!r) throw notFound();
    // The service's order of keys (its recorded answers), which is not alphabetical.
    const results: Record<string, unknown> = {};
    put(results, 'c', r.conditions);
    results.i = r.id ?? String(r.sequence_number);
    results.p = r.price;
    results.s = r.size;
    results.ds = decimalString(r.size);
    put(results, 'x', r.exchange);
    put(results, 'r', r.trf_id);
    put(results, 'z', r.tape);
    results.T = ticker;
    results.t = r.sip_timestamp;
    put(results, 'y', r.participant_timestamp);
    put(results, 'f', r.trf_timestamp);
    results.q = r.sequence_number;
    put(results, 'e', r.correction);
    return sendJson(c, { results, status: 'OK', request_id: c.get('requestId') });
  });

  app.get(routePattern(lastQuoteOp), async (c) => {
    const ticker = parseRequest(lastQuoteOp, c).values.get('ticker') as string;
    const r = await lastQuote(ctx.store, ticker, await ctx.now(assetClassOf(ticker)));
    if (!r) throw notFound();
    const results: Record<string, unknown> = {};
    put(results, 'p', r.bid_price);
    put(results, 's', r.bid_size);
    put(results, 'x', r.bid_exchange);
    put(results, 'P', r.ask_price);
    put(results, 'S', r.ask_size);
    put(results, 'X', r.ask_exchange);
    put(results, 'c', r.conditions);
    put(results, 'i', r.indicators);
    put(results, 'z', r.tape);
    results.T = ticker;
    results.t = r.sip_timestamp;
    put(results, 'y', r.participant_timestamp);
    results.q = r.sequence_number;
    return sendJson(c, { results, status: 'OK', request_id: c.get('requestId') });
  });
}
