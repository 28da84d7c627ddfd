import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { parseJson } from '../../src/core/json.js';
import { createApp } from '../../src/server/app.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { ReadThrough } from '../../src/server/upstream/read-through.js';
import type { UpstreamOptions } from '../../src/server/upstream/upstream-options.js';
import { type ScriptedProxy, startScriptedProxy } from './scripted-proxy.js';
import { openTestStore, withStoreFile } from './store.js';

/**
 * The rigs of the caching server's tests. The upstream is a server over the Lean test store behind a
 * scripted proxy (which counts its calls and injects faults); the caching server runs in front of it on
 * an empty store, either as a whole server over loopback HTTP or as the app in process with a clock the
 * test moves. The passes most tests make (through the upstream, again from the store alone, then
 * offline over the store's file) are `firstPass`, `secondPass` and `offlinePass`.
 */

/** A Lean upstream behind its proxy. */
export interface Upstream {
  /** The Lean test store (read-only), for what a test compares with. */
  lean: DuckDbStore;
  /** The server over it, reached directly: the truth answers are compared with. */
  server: RunningServer;
  /** The proxy a caching server is pointed at. */
  proxy: ScriptedProxy;
}

/**
 * Runs `fn` with a Lean upstream behind a proxy, torn down afterwards. Skips the test (with a printed
 * reason, failing under CI) when the Lean test store was not built.
 * @param now - The upstream's clock (ms), for routes that depend on today.
 */
export async function withUpstream(
  t: TestContext,
  fn: (upstream: Upstream) => Promise<void>,
  now?: number,
): Promise<void> {
  const lean = await openTestStore(t);
  if (!lean) return;
  const server = await startServer({
    store: lean,
    port: 0,
    log: () => {},
    ...(now !== undefined && { now }),
  });
  const proxy = await startScriptedProxy(server.url);
  try {
    await fn({ lean, server, proxy });
  } finally {
    await proxy.close();
    await server.close();
    lean.close();
  }
}

/**
 * Runs `fn` with a server over the store file `db` that never calls upstream (`--offline`), closed
 * afterwards.
 * @param now - Its clock (ms), for routes that depend on today.
 */
export async function withOfflineServer(
  db: string,
  now: number | undefined,
  fn: (offline: RunningServer) => Promise<void>,
): Promise<void> {
  const offline = await startServer({
    db,
    port: 0,
    upstream: { offline: true },
    log: () => {},
    ...(now !== undefined && { now }),
  });
  try {
    await fn(offline);
  } finally {
    await offline.close();
  }
}

/** A caching server over loopback HTTP on an empty store file. */
export interface CachingServer extends Upstream {
  cache: RunningServer;
  /** The caching server's log lines. */
  logged: string[];
  /** The store file, for a second server over it (offline). */
  db: string;
}

/**
 * Runs `fn` with a caching server pointed at a Lean upstream's proxy, over a fresh store file.
 * @param options - Upstream options besides the URL.
 * @param now - The clock (ms) of both servers.
 */
export async function withCachingServer(
  t: TestContext,
  options: Omit<UpstreamOptions, 'url'>,
  fn: (rig: CachingServer) => Promise<void>,
  now?: number,
): Promise<void> {
  await withUpstream(
    t,
    (upstream) =>
      withStoreFile(async (db) => {
        const logged: string[] = [];
        const cache = await startServer({
          db,
          port: 0,
          upstream: { ...options, url: upstream.proxy.url },
          log: (line) => logged.push(line),
          ...(now !== undefined && { now }),
        });
        try {
          await fn({ ...upstream, cache, logged, db });
        } finally {
          await cache.close();
        }
      }),
    now,
  );
}

/** The caching layer and app in process, over a fresh store, on a clock the test moves. */
export interface CachingApp extends Upstream {
  store: DuckDbStore;
  layer: ReadThrough;
  app: ReturnType<typeof createApp>;
  /** The layer's and the app's clock (ms); a test moves it by assigning `now`. */
  clock: { now: number };
}

/**
 * Runs `fn` with the caching layer and app in process, pointed at a Lean upstream's proxy.
 * @param options.now - The clock's start (ms).
 * @param options.upstream - Upstream options besides the URL.
 * @param options.seed - Writes rows into the empty store before the layer opens (as if ingested).
 */
export async function withCachingApp(
  t: TestContext,
  options: {
    now: number;
    upstream?: Omit<UpstreamOptions, 'url'>;
    seed?: (store: DuckDbStore) => Promise<void>;
    /** The upstream's clock too (default: its own). */
    upstreamNow?: number;
  },
  fn: (rig: CachingApp) => Promise<void>,
): Promise<void> {
  await withUpstream(
    t,
    (upstream) =>
      withStoreFile(async (db) => {
        const store = await DuckDbStore.open(db);
        let layer: ReadThrough | undefined;
        try {
          await options.seed?.(store);
          const clock = { now: options.now };
          layer = new ReadThrough(
            store,
            { ...options.upstream, url: upstream.proxy.url },
            () => {},
            () => clock.now,
          );
          const app = createApp({ store, now: async () => clock.now, log: () => {} }, { before: layer });
          await fn({ ...upstream, store, layer, app, clock });
        } finally {
          await layer?.close();
          store.close();
        }
      }),
    options.upstreamNow,
  );
}

/** An answer read whole. */
export interface Answer {
  status: number;
  text: string;
  body: any;
  headers: Headers;
}

/** GETs `path` of `base` (an origin) and reads the answer. */
export async function get(base: string, path: string, init?: RequestInit): Promise<Answer> {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { status: res.status, text, body: parseJson(text), headers: res.headers };
}

/** The number of rows `sql` selects. */
export const countRows = async (store: DuckDbStore, sql: string): Promise<number> =>
  Number((await store.all<{ n: bigint }>(`SELECT count(*) AS n FROM (${sql})`))[0]?.n);

/** An answer's text without its request id, which differs between servers. */
export const withoutRequestId = (text: string): string =>
  text.replace(/"request_id":"[^"]*"/g, '"request_id":""');

/**
 * The pages of a listing from `path` on, following `next_url` (which must point at `base`), at most
 * `max` of them.
 */
export async function allPages(
  base: string,
  path: string,
  max = Number.POSITIVE_INFINITY,
): Promise<Answer[]> {
  const pages: Answer[] = [];
  let next: string | undefined = path;
  while (next !== undefined && pages.length < max) {
    const page = await get(base, next);
    pages.push(page);
    const url = page.body?.next_url as string | undefined;
    if (url !== undefined) assert.ok(url.startsWith(`${base}/`), `next_url ${url} points at ${base}`);
    next = url?.slice(base.length);
  }
  return pages;
}

/** An answer's text without its request id and with its server's origin `base` as `ORIGIN`. */
export const withoutOrigin = (text: string, base: string): string =>
  withoutRequestId(text).replaceAll(base, 'ORIGIN');

/** Requests a test reads through the caching server first, then again from what it stored. */
export interface Recorded {
  /** Paths and queries, each read page by page (following `next_url`). */
  paths: readonly string[];
  /** An answer's text without what differs between servers (request ids, the server's origin `base`). */
  normal: (text: string, base: string) => string;
  /** Pages read of each path at most (default: every page). */
  maxPages?: number;
}

/**
 * The first pass: each recorded path read through the caching server at `cache` and from `truth` gives
 * as many pages, every one a 200 equal to truth's once normalised. With `proxy`, each page read makes
 * one upstream call; `check` asserts more of each path's pages.
 * @returns Each path's pages, normalised, for the later passes.
 */
export async function firstPass(
  cache: string,
  truth: string,
  recorded: Recorded,
  options: { proxy?: ScriptedProxy; check?: (path: string, got: Answer[]) => void } = {},
): Promise<Map<string, string[]>> {
  const { normal, maxPages } = recorded;
  const first = new Map<string, string[]>();
  for (const path of recorded.paths) {
    const calls = options.proxy?.seen.length;
    const got = await allPages(cache, path, maxPages);
    const want = await allPages(truth, path, maxPages);
    assert.equal(got.length, want.length, `${path}: pages`);
    got.forEach((page, i) => {
      assert.equal(page.status, 200, `${path}: ${page.text.slice(0, 300)}`);
      assert.equal(normal(page.text, cache), normal((want[i] as Answer).text, truth), path);
    });
    if (calls !== undefined)
      assert.equal(options.proxy?.seen.length, calls + got.length, `${path}: one upstream call a page`);
    options.check?.(path, got);
    first.set(
      path,
      got.map((p) => normal(p.text, cache)),
    );
  }
  return first;
}

/**
 * Each recorded path read again from `base` gives the pages of the first pass, with no call reaching
 * `proxy` meanwhile.
 * @param what - Names the pass in messages.
 */
export async function answeredAgain(
  base: string,
  first: ReadonlyMap<string, string[]>,
  recorded: Recorded,
  proxy: ScriptedProxy,
  what: string,
): Promise<void> {
  const calls = proxy.seen.length;
  for (const path of recorded.paths) {
    const again = (await allPages(base, path, recorded.maxPages)).map((p) => recorded.normal(p.text, base));
    assert.deepEqual(again, first.get(path), `${what} ${path}`);
  }
  assert.equal(proxy.seen.length, calls, `${what}: no upstream call`);
}

/**
 * The second pass: the upstream goes away (its proxy stays to count any call) and the caching server
 * answers every recorded path as the first pass did, from the store alone.
 */
export async function secondPass(
  rig: CachingServer,
  first: ReadonlyMap<string, string[]>,
  recorded: Recorded,
): Promise<void> {
  await rig.server.close();
  await answeredAgain(rig.cache.url, first, recorded, rig.proxy, 'again');
}

/**
 * The offline pass: the caching server closes, and a server over its store file that never calls
 * upstream (see {@link withOfflineServer}) answers every recorded path as the first pass did; `more`
 * asserts more of it. No call reaches the upstream's proxy meanwhile.
 * @param now - The offline server's clock (ms).
 */
export async function offlinePass(
  rig: CachingServer,
  now: number | undefined,
  first: ReadonlyMap<string, string[]>,
  recorded: Recorded,
  more?: (offline: RunningServer) => Promise<void>,
): Promise<void> {
  await rig.cache.close();
  const calls = rig.proxy.seen.length;
  await withOfflineServer(rig.db, now, async (offline) => {
    await answeredAgain(offline.url, first, recorded, rig.proxy, 'offline');
    await more?.(offline);
  });
  assert.equal(rig.proxy.seen.length, calls, 'offline: no upstream call');
}
