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
    const results: Record<string, unknown> = { T: ticker };
    put(results, 'c', r.conditions);
    put(results, 'f', r.trf_timestamp);
    results.i = r.id ?? String(r.sequence_number);
    results.p = r.price;
    results.q = r.sequence_number;
    put(results, 'r', r.trf_id);
    results.s = r.size;
    results.ds = decimalString(r.size);
    results.t = r.sip_timestamp;
    put(results, 'x', r.exchange);
    put(results, 'y', r.participant_timestamp);
    put(results, 'z', r.tape);
    put(results, 'e', r.correction);
    return sendJson(c, { request_id: c.get('requestId'), results, status: 'OK' });
  });

  app.get(routePattern(lastQuoteOp), async (c) => {
    const ticker = parseRequest(lastQuoteOp, c).values.get('ticker') as string;
    const r = await lastQuote(ctx.store, ticker, await ctx.now(assetClassOf(ticker)));
    if (!r) throw notFound();
    const results: Record<string, unknown> = { T: ticker };
    put(results, 'P', r.ask_price);
    put(results, 'S', r.ask_size);
    put(results, 'X', r.ask_exchange);
    put(results, 'c', r.conditions);
    put(results, 'i', r.indicators);
    put(results, 'p', r.bid_price);
    results.q = r.sequence_number;
    put(results, 's', r.bid_size);
    results.t = r.sip_timestamp;
    put(results, 'x', r.bid_exchange);
    put(results, 'y', r.participant_timestamp);
    put(results, 'z', r.tape);
    return sendJson(c, { request_id: c.get('requestId'), results, status: 'OK' });
  });
}
