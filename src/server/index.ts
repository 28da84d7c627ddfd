/**
 * The local market-data server (`mdq/server`): answers the service's REST paths from a DuckDB store.
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { isLoopback } from '../core/loopback.js';
import { NEW_YORK, zonedToUtc } from '../dates/time-zone.js';
import { createApp } from './app.js';
import type { ServerContext } from './context.js';
import { createHttpServer } from './http-server.js';
import { cachingStore } from './market/cache.js';
import { type AssetClass, latestDataTimes } from './market/now.js';
import { ResponseCache } from './response-cache.js';
import { defaultDbPath } from './store/default-db-path.js';
import { DuckDbStore } from './store/duckdb-store.js';
import type { Store } from './store/store.js';
import { streamServer } from './stream/stream-server.js';
import { ReadThrough, type ReadThroughStats } from './upstream/read-through.js';
import { DEFAULT_UPSTREAM_URL, type UpstreamOptions } from './upstream/upstream-options.js';
import { loadWebPage } from './web-page.js';

export { type AppOptions, createApp } from './app.js';
export type { ServerContext } from './context.js';
export { DuckDbStore, type StoreOpenOptions } from './store/duckdb-store.js';
export type { Columns, SqlDialect, SqlValue, Store } from './store/store.js';
export {
  type ServerThread,
  type ServerThreadOptions,
  startServerThread,
  YOUNG_GENERATION_MB,
} from './thread.js';
export { ReadThrough, type ReadThroughStats } from './upstream/read-through.js';
export {
  DEFAULT_UPSTREAM_URL,
  parseRate,
  UPSTREAM_MAX_AGE_SECONDS,
  UPSTREAM_TOTAL_TIMEOUT,
  type UpstreamOptions,
} from './upstream/upstream-options.js';

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /**
   * Database file to serve (opened read-only when it exists). Ignored when `store` is given.
   * @default defaultDbPath() — `$MDQ_DB`, else `~/.local/share/mdq/mdq.duckdb`
   */
  db?: string;
  /**
   * The store to serve: an open `Store` (the caller keeps ownership: `close()` leaves it open), or
   * where one is, `duckdb:PATH` or `clickhouse://user:pass@host:8123/db` (opened here, closed by
   * `close()`; a ClickHouse store is served as read-only).
   * @default `duckdb:` + `db`
   */
  store?: Store | string;
  /**
   * With a `clickhouse://` store: the cluster (in the servers' `remote_servers`) whose `Distributed`
   * tables to read (see `ClickHouseStoreOptions.cluster`).
   * @default none
   */
  cluster?: string;
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
   * Byte budget of the query-result cache (results and their keys; see `QueryCache`); 0 keeps none.
   * @default 256 MiB
   */
  queryCacheBytes?: number;
  /**
   * Byte budget of the answer cache (bodies and their URLs; see `ResponseCache`); 0 keeps none.
   * @default 128 MiB
   */
  responseCacheBytes?: number;
  /**
   * The URL clients reach the server by (behind a proxy, say), on which `next_url` links are built.
   * Without it, a link is built on the Host a request was addressed to when that is one of the
   * server's own names (the bound address, and `localhost` or the machine's names and addresses
   * where they reach it) with its port, or, for a server bound to loopback, any loopback address
   * and port (a local proxy); else on the bound address: a Host naming another machine never makes
   * a link.
   * @default none
   */
  publicUrl?: string;
  /**
   * Where log lines go (start-up, unexpected errors). Never given an API key.
   * @default console.error
   */
  log?: (line: string) => void;
  /**
   * Where the WebSocket replay of stored ticks starts: Unix ms, an ISO timestamp, `YYYY-MM-DD`
   * (midnight in New York), or `'first'` (the first tick a connection subscribes to on the latest day:
   * no wait for the data to begin).
   * @default the start of the market's latest day of stored ticks
   */
  replayFrom?: number | string;
  /**
   * Speed of the WebSocket replay: a multiple of real time (1 = real time) or `'max'` (as fast as the
   * client reads).
   * @default 1
   */
  replaySpeed?: number | 'max';
  /**
   * Make the server a read-through cache of the service: what the store cannot answer completely is
   * fetched upstream, stored as data with its coverage, and answered from the store (see
   * {@link UpstreamOptions}). The store is opened writable and the in-memory caches are off.
   * @default none: the store alone answers
   */
  upstream?: UpstreamOptions;
}

/** A running server. */
export interface RunningServer {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly store: Store;
  /** What the read-through layer did (with the `upstream` option). */
  readonly upstream?: ReadThroughStats;
  /**
   * Stops accepting connections, ends idle ones, waits for the requests still running (their queries
   * included), then closes the store when the server opened it.
   */
  close(): Promise<void>;
}

/** Default byte budget of the query-result cache. */
export const QUERY_CACHE_BYTES = 256 * 2 ** 20;
/** Default byte budget of the answer cache. */
export const RESPONSE_CACHE_BYTES = 128 * 2 ** 20;

/** How long the server keeps an idle keep-alive connection open. */
export const KEEP_ALIVE_MS = 65_000;

/** How long `close()` lets open connections finish before cutting them. */
const CLOSE_GRACE_MS = 2000;

/** True for a loopback host name or address. */
export { isLoopback };

/**
 * Opens an existing store read-only (several servers and test processes may share it), falling back
 * to read-write when it needs creating or migrating.
 */
async function openStore(path: string): Promise<{ store: Store; readOnly: boolean }> {
  if (existsSync(path)) {
    try {
      return { store: await DuckDbStore.open(path, { readOnly: true }), readOnly: true };
    } catch {
      // An older schema version: the read-write open below migrates it.
    }
  }
  return { store: await DuckDbStore.open(path), readOnly: false };
}

/** Opens the store a `--store` value names: `duckdb:PATH` (see {@link openStore}) or `clickhouse://…`. */
async function openStoreAt(spec: string, cluster?: string): Promise<{ store: Store; readOnly: boolean }> {
  if (spec.startsWith('clickhouse:')) {
    const { ClickHouseStore } = await import('./store/clickhouse-store.js');
    const { upgradeClickHouseSchema } = await import('./store/clickhouse-upgrade.js');
    const store = await ClickHouseStore.open(spec, {
      readOnly: true,
      ...(cluster !== undefined && { cluster }),
    });
    try {
      // As a DuckDB file is migrated when opened: a database of an earlier mdq gets its new columns.
      await upgradeClickHouseSchema(store);
    } catch (e) {
      await store.close();
      throw e;
    }
    return { store, readOnly: true };
  }
  if (cluster !== undefined)
    throw new Error(`Invalid cluster: ${JSON.stringify(cluster)}; only a clickhouse:// store has clusters`);
  if (!spec.startsWith('duckdb:')) {
    throw new Error(
      `Invalid store: ${JSON.stringify(spec)}; expected duckdb:PATH or clickhouse://user:password@host:8123/database`,
    );
  }
  return openStore(spec.slice('duckdb:'.length));
}

const WILDCARD = /^(0\.0\.0\.0|::|\[::\])$/;

/** A host as it appears in a URL (IPv6 addresses bracketed), lower case. */
function hostPart(host: string): string {
  const h = host.toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

/**
 * The server's origin for a request's Host header: that Host when it names this server (see
 * `StartServerOptions.publicUrl`), else the bound address (for a wildcard bind, the machine's name).
 */
function ownOrigin(host: string, port: number): (requested: string | undefined) => string {
  const names = new Set([hostPart(host)]);
  const wildcard = WILDCARD.test(host);
  if (wildcard || isLoopback(host)) for (const h of ['localhost', '127.0.0.1', '[::1]']) names.add(h);
  if (wildcard) {
    names.add(hostname().toLowerCase());
    for (const list of Object.values(networkInterfaces()))
      for (const a of list ?? []) names.add(hostPart(a.address));
  }
  const own = new Set([...names].map((name) => `${name}:${port}`));
  const fallback = `http://${wildcard ? hostname().toLowerCase() : hostPart(host)}:${port}`;
  // Bound to loopback, only processes of this machine reach the server: a loopback Host with another
  // port is a local proxy in front of it (one that injects faults, or models a slow link), and its
  // links must lead back through it. They still never lead off the machine.
  const local = isLoopback(host);
  return (requested) => {
    const h = requested?.toLowerCase();
    if (h === undefined) return fallback;
    if (own.has(h)) return `http://${h}`;
    const m = local ? /^(.+):(\d{1,5})$/.exec(h) : null;
    return m && isLoopback(m[1] as string) && Number(m[2]) <= 65_535 ? `http://${h}` : fallback;
  };
}

/** Checks the `publicUrl` option: an http(s) URL without query or fragment; gives it without a trailing slash. */
function parsePublicUrl(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new Error(
      `Invalid publicUrl: ${JSON.stringify(raw)}; expected an http(s) URL such as http://example.com:8765`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
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
  const publicUrl = options.publicUrl === undefined ? undefined : parsePublicUrl(options.publicUrl);
  const log = options.log ?? ((line: string) => console.error(line));
  const owned = typeof options.store !== 'object';
  const upstream = options.upstream;
  const spec = typeof options.store === 'string' ? options.store : `duckdb:${options.db ?? defaultDbPath()}`;
  if (upstream && !spec.startsWith('duckdb:'))
    throw new Error(
      `Invalid store: ${JSON.stringify(spec)}; the caching server (upstream) keeps what it fetches in a duckdb:PATH store`,
    );
  const opened =
    typeof options.store === 'object'
      ? undefined
      : upstream
        ? { store: await DuckDbStore.open(spec.slice('duckdb:'.length)), readOnly: false }
        : await openStoreAt(spec, options.cluster);
  const store = typeof options.store === 'object' ? options.store : (opened?.store as Store);
  try {
    // A caching server's clock is the live one (or the fixed `now`), the one its read-through layer
    // decides with: the store's latest data is not the service's present.
    const times = fixedNow === undefined && !upstream ? await latestDataTimes(store) : { byClass: {} };
    const latest = fixedNow ?? times.latest ?? Date.now();
    const clock = fixedNow === undefined ? Date.now : () => fixedNow;
    const now = upstream
      ? async () => clock()
      : async (assetClass?: AssetClass) => (assetClass !== undefined && times.byClass[assetClass]) || latest;
    // Answers change as the read-through layer stores what it fetches: nothing is kept in memory.
    const cache = upstream ? false : (options.cache ?? opened?.readOnly === true);
    if (upstream && !(store instanceof DuckDbStore))
      throw new Error('Invalid store: the caching server (upstream) keeps what it fetches in a DuckDB store');
    // Without an upstream, what a caching server stored as answers and snapshot rows is answered too.
    const readThrough = upstream
      ? new ReadThrough(store as DuckDbStore, upstream, log, clock)
      : store instanceof DuckDbStore && (await ReadThrough.hasRecorded(store))
        ? new ReadThrough(store, { offline: true }, log, clock, 'recorded')
        : undefined;
    const queryBytes = options.queryCacheBytes ?? QUERY_CACHE_BYTES;
    const responseBytes = options.responseCacheBytes ?? RESPONSE_CACHE_BYTES;
    const ctx: ServerContext = {
      store: cache && queryBytes > 0 ? cachingStore(store, { maxBytes: queryBytes }) : store,
      now,
      log,
    };
    let origin: (requested: string | undefined) => string = () => '';
    const app = createApp(ctx, {
      apiKeys: keys,
      origin: (requested) => origin(requested),
      ...(readThrough && { before: readThrough }),
      ...(cache && responseBytes > 0 && { responses: new ResponseCache({ maxBytes: responseBytes }) }),
    });
    // Requests whose client went away still run their queries; close() waits for them before it closes
    // the store, since closing DuckDB under a running query crashes or hangs the process.
    let inFlight = 0;
    let drained: (() => void) | undefined;
    let closing = false;
    const settle = () => {
      if (--inFlight === 0) drained?.();
      // The connection of a request answered while closing would otherwise stay open, idle.
      if (closing) setImmediate(() => server.closeIdleConnections());
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
    const server: Server = createHttpServer(fetch, host);
    server.listen(options.port ?? 8765, host);
    // Idle keep-alive connections are kept well past any client's own idle limit (undici: 4 s, from the
    // server's hint): with Node's 5 s, a client reusing a connection just as the server closes it gets a
    // reset, which a loaded machine makes likely. close() still ends idle connections at once.
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1000;
    stream.attach(server);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${hostPart(host)}:${port}`;
    origin = publicUrl ? () => publicUrl : ownOrigin(host, port);
    log(`mdq server listening on ${url} (store ${store.location}, now ${new Date(latest).toISOString()})`);
    if (upstream)
      log(
        upstream.offline
          ? 'offline: answering from what is stored, fetching nothing upstream'
          : `reading through to ${new URL(upstream.url ?? DEFAULT_UPSTREAM_URL).origin} for what the store lacks`,
      );
    if (keys.length === 0)
      log('no API key configured: any non-empty key is accepted, and none is needed from this machine');
    log(
      loadWebPage()
        ? `web page: ${publicUrl ?? url}/`
        : 'web page not built: `npm run build` writes dist/web/index.html',
    );
    let closed: Promise<void> | undefined;
    return {
      url,
      port,
      store,
      ...(upstream && readThrough && { upstream: readThrough.stats }),
      close() {
        closed ??= stream
          .close()
          .then(
            () =>
              new Promise<void>((resolve) => {
                closing = true;
                server.close(() => resolve());
                server.closeIdleConnections();
                // A client that holds its connection (a request sent slowly, an answer read slowly) would
                // keep the server open for minutes: after a grace period its connection is cut.
                setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
              }),
          )
          .then(() =>
            inFlight === 0
              ? undefined
              : new Promise<void>((resolve) => {
                  drained = resolve;
                }),
          )
          .then(() => readThrough?.close())
          .then(async () => {
            if (owned) await store.close();
          });
        return closed;
      },
    };
  } catch (e) {
    if (owned) await store.close();
    throw e;
  }
}
