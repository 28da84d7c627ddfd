import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { isLoopback } from '../core/loopback.js';
import { type AppEnv, HttpProblem } from './http.js';

const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest();

/** The key a request carries: `Authorization: Bearer <key>` first, else the `apiKey` query parameter. */
export function requestKey(authorization: string | undefined, url: string): string | undefined {
  if (authorization !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (m?.[1]) return m[1];
  }
  const q = url.indexOf('?');
  if (q < 0 || !url.includes('apiKey=', q)) return undefined;
  return new URLSearchParams(url.slice(q + 1)).get('apiKey') || undefined;
}

/**
 * Checks the API key of every request. With `keys`, a key must equal one of them (compared in constant
 * time over equal-length digests, every key checked); without, any key is accepted, and a request from
 * a loopback address needs none (a local server asks no key of its own machine). A missing or unknown key
 * throws HttpProblem 401, answered in the service's shape. The key is never logged.
 */
export function apiKeyAuth(keys: readonly string[] | undefined): (c: Context<AppEnv>) => void {
  const digests = (keys ?? []).map(digest);
  return (c) => {
    // Under the Node adapter the raw request's headers are read directly: c.req.header() would
    // build a fetch Request object for every request.
    const incoming = (
      c.env as {
        incoming?: {
          headers: Record<string, string | string[] | undefined>;
          socket?: { remoteAddress?: string | undefined };
        };
      }
    )?.incoming;
    const header = incoming ? incoming.headers.authorization : c.req.header('authorization');
    const key = requestKey(typeof header === 'string' ? header : undefined, c.req.url);
    if (key === undefined) {
      const peer = incoming?.socket?.remoteAddress;
      if (digests.length === 0 && peer !== undefined && isLoopback(peer)) return;
      throw new HttpProblem(401, 'API Key was not provided');
    }
    if (digests.length > 0) {
      const d = digest(key);
      let ok = false;
      for (const k of digests) ok = timingSafeEqual(d, k) || ok;
      if (!ok) throw new HttpProblem(401, 'Unknown API Key');
    }
  };
}
