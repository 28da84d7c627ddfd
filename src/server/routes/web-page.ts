import type { Hono } from 'hono';
import type { ServerContext } from '../context.js';
import { type AppEnv, notFound } from '../http.js';
import { loadWebPage } from '../web-page.js';

/**
 * The web page at `/`: one HTML document with its script and style inlined, under the same key check
 * as every route (a loopback peer needs none; elsewhere `/?apiKey=…`, which the page then sends with
 * its own requests). It calls the server's REST routes and WebSocket streams; it has no data of its own.
 */
export function webPageRoutes(app: Hono<AppEnv>, _ctx: ServerContext): void {
  app.get('/', (c) => {
    const page = loadWebPage();
    if (!page) throw notFound('The web page is not built: `npm run build` writes dist/web/index.html.');
    c.header('Content-Security-Policy', page.contentSecurityPolicy);
    c.header('X-Content-Type-Options', 'nosniff');
    // The address may carry the key (`/?apiKey=…`): never send it on as a referrer.
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-cache');
    c.header('X-Request-ID', c.get('requestId'));
    return c.html(page.html);
  });
}
