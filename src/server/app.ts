import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { isInvalidParameterError } from '../core/errors.js';
import { apiKeyAuth } from './auth.js';
import type { ServerContext } from './context.js';
import { type AppEnv, errorBody, HttpProblem, jsonResponse, sendJson } from './http.js';
import { type ResponseCache, responseKey } from './response-cache.js';
import { routeModules } from './routes/index.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /**
   * Accepted API keys. Empty or absent: any key is accepted, and a request from a loopback peer needs none.
   * @default []
   */
  apiKeys?: readonly string[];
  /**
   * Keep the bodies of successful answers and answer repeated requests from them. Only for a server
   * whose answers cannot change: nothing writes to the store and "now" is fixed.
   * @default none
   */
  responses?: ResponseCache;
  /**
   * The server's own origin for a request's Host header (`next_url` links are built on it); see
   * `originOf`.
   * @default the request URL's origin
   */
  origin?: (host: string | undefined) => string;
  /**
   * A layer whose handlers run before the local routes' (the caching server's read-through: it stores
   * what a request needs, then lets the local route answer).
   * @default none
   */
  before?: { mount(app: Hono<AppEnv>): void };
}

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = POOL_BYTES;

/** A request id as the service writes them: 32 random hex characters (drawn from a pooled buffer). */
export function newRequestId(): string {
  if (offset + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  offset += 16;
  return pool.toString('hex', offset - 16, offset);
}

/**
 * The server's Hono app: request ids (`request_id` in bodies, `X-Request-ID` header), API-key checks,
 * kept answers (`responses`), every route module, and errors answered in the service's JSON shape (400
 * for malformed parameters, 401/403/404/429 for refusals, 500 for anything unexpected, without
 * internals).
 */
export function createApp(ctx: ServerContext, options: AppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const authorize = apiKeyAuth(options.apiKeys);
  const responses = options.responses;
  const origin = options.origin;
  // Requests being answered by their kept-answer key: the same request arriving meanwhile waits for
  // that answer instead of computing it again (hundreds of identical requests cost one).
  const answering = new Map<string, Promise<void>>();
  // One middleware: each layer costs per request.
  app.use('*', async (c, next) => {
    const id = newRequestId();
    c.set('requestId', id);
    if (origin) c.set('origin', origin);
    // X-Request-ID is written by sendJson with the body.
    authorize(c);
    if (responses && c.req.method === 'GET') {
      const key = responseKey(c.req.url);
      let body = responses.get(key, id);
      const earlier = body === undefined ? answering.get(key) : undefined;
      if (earlier) {
        await earlier;
        body = responses.get(key, id);
      }
      if (body !== undefined) return jsonResponse(body, 200, id);
      c.set('remember', (text) => responses.set(key, text, id));
      if (earlier) return next(); // not kept (an error, or too large): answered on its own
      const answered = next();
      const settled = answered.then(
        () => undefined,
        () => undefined,
      );
      answering.set(key, settled);
      try {
        return await answered;
      } finally {
        answering.delete(key);
      }
    }
    await next();
  });
  options.before?.mount(app);
  for (const mount of routeModules) mount(app, ctx);
  app.notFound((c) => {
    const id = c.get('requestId') ?? newRequestId();
    // Every route answers GET (and HEAD): another method on a path that exists is not a missing endpoint.
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && hasGetRoute(app, c.req.path)) {
      const body = errorBody(405, id, `Method ${method} is not allowed: the API answers GET and HEAD`);
      const res = jsonResponse(JSON.stringify(body), 405, id);
      res.headers.set('allow', 'GET, HEAD');
      return res;
    }
    return sendJson(c, errorBody(404, id, 'Not found: no such endpoint.'), 404);
  });
  app.onError((err, c) => {
    const id = c.get('requestId') ?? newRequestId();
    if (c.get('requestId') === undefined) c.set('requestId', id);
    if (err instanceof HttpProblem)
      return sendJson(c, errorBody(err.httpStatus, id, err.message), err.httpStatus);
    if (isInvalidParameterError(err)) return sendJson(c, errorBody(400, id, err.message), 400);
    ctx.log(`error ${c.req.method} ${c.req.path}: ${err instanceof Error ? err.message : String(err)}`);
    return sendJson(c, errorBody(500, id, 'Internal server error.'), 500);
  });
  return app;
}

/** True when a route (not a middleware for every method) answers GET at `path`. */
function hasGetRoute(app: Hono<AppEnv>, path: string): boolean {
  const [matches] = app.router.match('GET', path);
  return matches.some(([[, route]]) => route.method === 'GET');
}
