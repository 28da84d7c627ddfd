/**
 * The local market-data server (`mdq/server`): answers the service's REST paths from a DuckDB store.
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { isLoopback } from '../core/loopback.js';
import { NEW_YORK, zonedToUtc } from '../dates/time-zone.js';
import { createApp } from './app.js';
import type { ServerContext } from './context.js';
import { cachingStore } from './market/cache.js';
import { type AssetClass, latestDataTimes } from './market/now.js';
import { ResponseCache } from './response-cache.js';
import { defaultDbPath } from './store/default-db-path.js';
import { Store } from './store/store.js';
import { streamServer } from './stream/stream-server.js';

export { type AppOptions, createApp } from './app.js';
export type { ServerContext } from './context.js';
export { Store } from './store/store.js';
export {
  type ServerThread,
  type ServerThreadOptions,
  startServerThread,
  YOUNG_GENERATION_MB,
} from './thread.js';

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /**
   * Database file to serve (opened read-only when it exists). Ignored when `store` is given.
   * @default defaultDbPath() — `$MDQ_DB`, else `~/.local/share/mdq/mdq.duckdb`
   */
  db?: string;
  /** An open store to serve; the caller keeps ownership (`close()` leaves it open). */
  store?: Store;
  /**
   * Interface to bind. Anything but loopback requires `apiKeys`.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * TCP port; 0 picks a free one (read it from the result).
   * @default 8765
   */
  port?: number;
  /**
   * Accepted API keys. Without any (loopback only), every key is accepted, and a request from loopback needs none.
   * @default []
   */
  apiKeys?: readonly string[];
  /**
   * "Now" for last values, previous close and snapshots: Unix ms, an ISO timestamp, or a `YYYY-MM-DD`
   * date (meaning the end of that day in New York).
   * @default per asset class, the time of its latest tick or intraday bar in the store (`latestDataTimes`)
   */
  now?: number | string;
  /**
   * Answer repeated requests and queries from bounded in-memory caches (of whole answers, by URL, and
   * of query results). Only safe when nothing writes to the store while it is served.
   * @default true when the server opened the store itself read-only, else false
   */
  cache?: boolean;
  /**
   * Where log lines go (start-up, unexpected errors). Never given an API key.
   * @default console.error
   */
  log?: (line: string) => void;
  /**
   * Where the WebSocket replay of stored ticks starts: Unix ms, an ISO timestamp, or `YYYY-MM-DD`
   * (midnight in New York).
   * @default the start of the market's latest day of stored ticks
   */
  replayFrom?: number | string;
  /**
   * Speed of the WebSocket replay: a multiple of real time (1 = real time) or `'max'` (as fast as the
   * client reads).
   * @default 1
   */
  replaySpeed?: number | 'max';
}

/** A running server. */
export interface RunningServer {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly store: Store;
  /**
   * Stops accepting connections, ends idle ones, waits for the requests still running (their queries
   * included), then closes the store when the server opened it.
   */
  close(): Promise<void>;
}

/** True for a loopback host name or address. */
export { isLoopback };

/**
 * Opens an existing store read-only (several servers and test processes may share it), falling back
 * to read-write when it needs creating or migrating.
 */
async function openStore(path: string): Promise<{ store: Store; readOnly: boolean }> {
  if (existsSync(path)) {
    try {
      return { store: await Store.open(path, { readOnly: true }), readOnly: true };
    } catch {
      // An older schema version: the read-write open below migrates it.
    }
  }
  return { store: await Store.open(path), readOnly: false };
}

/** Resolves the `now` option into Unix ms. */
export function parseNow(now: number | string): number {
  if (typeof now === 'number' && Number.isFinite(now)) return now;
  if (typeof now === 'string') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(now)) {
      const next = new Date(`${now}T00:00:00Z`);
      if (!Number.isNaN(next.getTime())) {
        next.setUTCDate(next.getUTCDate() + 1);
        return zonedToUtc(NEW_YORK, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()) - 1;
      }
    } else if (/^\d+$/.test(now)) return Number(now);
    else {
      const ms = Date.parse(now);
      if (!Number.isNaN(ms)) return ms;
    }
  }
  throw new Error(`Invalid now: ${String(now)}; expected Unix ms, an ISO timestamp or YYYY-MM-DD`);
}

/**
 * Starts the server.
 *
 * @throws Error when binding a non-loopback host without `apiKeys`, or when the port is taken.
 * @example
 * const server = await startServer({ db: 'market.duckdb', port: 0 });
 * console.log(server.url); // http://127.0.0.1:54321
 * await server.close();
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const keys = (options.apiKeys ?? []).filter((k) => k !== '');
  if (!isLoopback(host) && keys.length === 0) {
    throw new Error(`Binding ${host} (not loopback) requires at least one API key`);
  }
  const fixedNow = options.now === undefined ? undefined : parseNow(options.now);
  const log = options.log ?? ((line: string) => console.error(line));
  const owned = options.store === undefined;
  const opened = options.store ? undefined : await openStore(options.db ?? defaultDbPath());
  const store = options.store ?? (opened?.store as Store);
  try {
    const times = fixedNow === undefined ? await latestDataTimes(store) : { byClass: {} };
    const latest = fixedNow ?? times.latest ?? Date.now();
    const now = async (assetClass?: AssetClass) =>
      (assetClass !== undefined && times.byClass[assetClass]) || latest;
    const cache = options.cache ?? opened?.readOnly === true;
    const ctx: ServerContext = { store: cache ? cachingStore(store) : store, now, log };
    const app = createApp(ctx, { apiKeys: keys, ...(cache && { responses: new ResponseCache() }) });
    // Requests whose client went away still run their queries; close() waits for them before it closes
    // the store, since closing DuckDB under a running query crashes or hangs the process.
    let inFlight = 0;
    let drained: (() => void) | undefined;
    const settle = () => {
      if (--inFlight === 0) drained?.();
    };
    const fetch: typeof app.fetch = (request, env, executionCtx) => {
      inFlight++;
      let response: ReturnType<typeof app.fetch>;
      try {
        response = app.fetch(request, env, executionCtx);
      } catch (e) {
        settle();
        throw e;
      }
      if (response instanceof Promise) return response.finally(settle);
      settle();
      return response;
    };
    const { replayFrom, replaySpeed } = options;
    const stream = streamServer({ store, apiKeys: keys, replayFrom, replaySpeed, log });
    const server = serve({ fetch, hostname: host, port: options.port ?? 8765 });
    stream.attach(server as Server);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
    log(`mdq server listening on ${url} (store ${store.path}, now ${new Date(latest).toISOString()})`);
    if (keys.length === 0)
      log('no API key configured: any non-empty key is accepted, and none is needed from this machine');
    let closed: Promise<void> | undefined;
    return {
      url,
      port,
      store,
      close() {
        closed ??= stream
          .close()
          .then(
            () =>
              new Promise<void>((resolve) => {
                server.close(() => resolve());
                if ('closeIdleConnections' in server) server.closeIdleConnections();
              }),
          )
          .then(() =>
            inFlight === 0
              ? undefined
              : new Promise<void>((resolve) => {
                  drained = resolve;
                }),
          )
          .then(() => {
            if (owned) store.close();
          });
        return closed;
      },
    };
  } catch (e) {
    if (owned) store.close();
    throw e;
  }
}
