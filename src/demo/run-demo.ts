import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { InvalidParameterError } from '../core/errors.js';
import { DuckDbStore } from '../server/store/duckdb-store.js';
import { type ServerThread, startServerThread } from '../server/thread.js';
import type { DemoConsole } from './console.js';
import { demoDbPath, openDemoStore } from './demo-store.js';
import { type DemoPlan, planDemo } from './plan.js';
import { SIM_SEED, SIM_VERSION } from './universe.js';
import { runWalkthrough } from './walkthrough.js';

async function simulatedStore(ctx: DemoConsole, db: string | undefined): Promise<DuckDbStore> {
  const path = db ?? demoDbPath(ctx.streams.env);
  if (!existsSync(path)) ctx.note(`generating the simulated market (first run; cached in ${path}) …`);
  const { store, generated } = await openDemoStore(path);
  if (generated) {
    const rows = Object.entries(generated.rows)
      .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
      .join(', ');
    ctx.note(`generated in ${(generated.elapsedMs / 1000).toFixed(1)}s: ${rows}`);
  }
  return store;
}

/**
 * Ingests Lean folders (one or several roots, e.g. the market data and the futures beside it) into a
 * store of their own, cached per set of folders (ingest skips files it already holds).
 */
async function leanStore(
  ctx: DemoConsole,
  dirs: readonly string[],
  db: string | undefined,
): Promise<DuckDbStore> {
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new InvalidParameterError('--data', dir, 'it is not a folder; give a Lean data folder');
    }
  }
  const roots = [...new Set(dirs.map((d) => resolve(d)))].sort();
  const id = createHash('sha256').update(roots.join('\n')).digest('hex').slice(0, 12);
  const path = db ?? join(dirname(demoDbPath(ctx.streams.env)), `demo-lean-${id}.duckdb`);
  // Loaded only here: the simulated demo does not need the ingest code.
  const { ingestLean } = await import('../server/ingest/index.js');
  const store = await DuckDbStore.open(path);
  try {
    for (const dir of roots) {
      const progress = ctx.progress('ingest');
      try {
        const summary = await ingestLean(store, dir, { onProgress: (p) => progress.ingest(p) });
        progress.done();
        const rows = Object.values(summary.rows).reduce((a, b) => a + b, 0);
        ctx.note(
          `ingested ${summary.filesIngested} files of ${dir} (${summary.filesSkipped} already in the store), ${rows.toLocaleString('en-US')} rows into ${path}`,
        );
      } finally {
        progress.done();
      }
    }
    return store;
  } catch (e) {
    store.close();
    throw e;
  }
}

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /**
   * Lean data folders to ingest and use instead of the simulated market: one, or several roots (the
   * market data and the futures beside it) into one store.
   */
  readonly data?: string | readonly string[] | undefined;
  /** The demo's store file. */
  readonly db?: string | undefined;
  /** Folder for the chart pictures. @default <tmp>/mdq-demo */
  readonly outDir?: string | undefined;
}

/**
 * The web page's address, opened on the demo's stock and window, and whether the server answers it (the
 * page is built by `npm run build`; a run from the sources may lack it).
 */
async function webPageLine(baseUrl: string, plan: DemoPlan): Promise<string> {
  const query = new URLSearchParams({
    ticker: plan.stock,
    from: plan.windowFrom,
    to: plan.lastDay,
    timespan: 'minute',
    view: 'chart',
  });
  const url = `${baseUrl}/?${query}`;
  const res = await fetch(url).catch(() => undefined);
  await res?.body?.cancel();
  const note = res?.ok
    ? 'while the demo runs; `mdq serve` keeps one up'
    : 'not built here: `npm run build` builds it';
  return `web page: ${url} (${note})`;
}

/**
 * `mdq demo`: opens (or generates) the simulated market, or ingests `data`; starts the local server on
 * a thread of this process; and walks through mdq with real client calls.
 */
export async function runDemo(ctx: DemoConsole, options: DemoOptions): Promise<void> {
  const { db } = options;
  const dirs =
    options.data === undefined ? [] : typeof options.data === 'string' ? [options.data] : options.data;
  const data = dirs.length > 0 ? dirs.join(', ') : undefined;
  const label = data ? `Lean data: ${data}` : 'SIMULATED market data';
  const banner = data
    ? `mdq demo — real data ingested from the Lean ${dirs.length > 1 ? 'folders' : 'folder'} ${data}`
    : `mdq demo — SIMULATED MARKET (generator v${SIM_VERSION}, seed ${SIM_SEED}): every price, trade and quote below is made up`;
  ctx.out(`${banner}\n`);
  const store = data ? await leanStore(ctx, dirs, db) : await simulatedStore(ctx, db);
  const path = store.path;
  let plan: Awaited<ReturnType<typeof planDemo>>;
  try {
    plan = await planDemo(store);
  } finally {
    // The server thread opens the file itself (read-only).
    store.close();
  }
  if (!plan) {
    if (data)
      throw new InvalidParameterError('--data', data, 'the folder holds no stock minute bars to show');
    throw new Error(`The store ${path} has no stock minute bars to show`);
  }
  let server: ServerThread | undefined;
  try {
    // Without a replay start the simulated market streams live; a Lean store replays its latest day of
    // ticks, as fast as the demo reads (real time from midnight would show nothing for hours).
    server = await startServerThread({
      db: path,
      host: '127.0.0.1',
      port: 0,
      log: () => {},
      ...(data !== undefined && { replaySpeed: 'max' as const }),
    });
    ctx.out(`local server on ${server.url} (a thread of this process), store ${path}\n`);
    ctx.out(`${await webPageLine(server.url, plan)}\n`);
    await runWalkthrough(ctx, {
      baseUrl: server.url,
      label,
      outDir: options.outDir ?? join(tmpdir(), 'mdq-demo'),
      plan,
      strict: data === undefined,
      live: data === undefined,
    });
    ctx.out(`\n${banner}\ndone: every call above went through the mdq clients to the local server.\n`);
  } finally {
    await server?.close();
  }
}
