/**
 * Benchmark 8: the caching server (`mdq serve --upstream`). A request answered from what the caching
 * server stored against the same request answered by its upstream (the synthetic mdq server, over
 * loopback or a modelled link); and the size of the store per million minute bars fetched through it.
 */
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbStore } from '../src/server/store/duckdb-store.js';
import { type Child, interleave, type Sample, spawnReady, timed } from './measure.js';

const script = (root: string, name: string) => join(root, 'bench', name);

async function getText(url: string): Promise<string> {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 200)}`);
  return text;
}

/** Size of a store file and its write-ahead log, in bytes. */
function fileBytes(path: string): number {
  let n = 0;
  for (const f of [path, `${path}.wal`]) {
    try {
      n += statSync(f).size;
    } catch {
      // No log.
    }
  }
  return n;
}

/** A caching server over a new store file in front of `upstream`, run as its own process. */
async function cachingServer(root: string, db: string, upstream: string): Promise<Child<{ url: string }>> {
  return spawnReady<{ url: string }>(script(root, 'server-process.ts'), ['upstream', db, upstream]);
}

/** What {@link cachedVsUpstream} measured. */
export interface CachedVsUpstream {
  /** The first request through the caching server: fetched upstream (every page), stored, answered. */
  first: Sample;
  samples: Record<string, Sample[]>;
}

/**
 * `path` through a caching server in front of `upstream`: the first answer (fetched and stored), then
 * `rounds` of the cached answer against the upstream's own answer, alternating.
 */
export async function cachedVsUpstream(
  root: string,
  upstream: string,
  path: string,
  rounds: number,
): Promise<CachedVsUpstream> {
  const db = join(tmpdir(), `mdq-bench-cache-${process.pid}-${Date.now()}.duckdb`);
  const cache = await cachingServer(root, db, upstream);
  try {
    const first = await timed(() => getText(`${cache.ready.url}${path}`));
    const samples = await interleave(rounds, {
      cached: () => getText(`${cache.ready.url}${path}`),
      upstream: () => getText(`${upstream}${path}`),
    });
    return { first, samples };
  } finally {
    await cache.stop();
    rmSync(db, { force: true });
    rmSync(`${db}.wal`, { force: true });
  }
}

/**
 * Bytes on disk per million minute bars a caching server stores: `path` (bars of a range) is fetched
 * through a caching server over a new store, which is then measured against an empty store; beside it,
 * the size of the same bars as the service's JSON.
 */
export async function storeBytesPerMillionBars(
  root: string,
  upstream: string,
  path: string,
): Promise<{ bars: number; bytes: number; perMillion: number; jsonPerMillion: number; fetchMs: number }> {
  const db = join(tmpdir(), `mdq-bench-cache-size-${process.pid}.duckdb`);
  const empty = join(tmpdir(), `mdq-bench-cache-empty-${process.pid}.duckdb`);
  try {
    const cache = await cachingServer(root, db, upstream);
    let fetchMs: number;
    let page = '';
    try {
      fetchMs = (
        await timed(async () => {
          page = await getText(`${cache.ready.url}${path}`);
        })
      ).wallMs;
    } finally {
      await cache.stop();
    }
    const store = await DuckDbStore.open(db);
    const rows = await store.all<{ n: bigint }>('SELECT count(*) AS n FROM bars');
    await store.run('CHECKPOINT');
    store.close();
    (await DuckDbStore.open(empty)).close();
    const bars = Number(rows[0]?.n ?? 0);
    const bytes = fileBytes(db) - fileBytes(empty);
    // The service's JSON of the same bars, from the first page's size per bar.
    const pageBars = (JSON.parse(page) as { results?: unknown[] }).results?.length ?? 0;
    const jsonPerMillion = (Buffer.byteLength(page) / pageBars) * 1e6;
    return { bars, bytes, perMillion: (bytes / bars) * 1e6, jsonPerMillion, fetchMs };
  } finally {
    for (const f of [db, empty]) {
      rmSync(f, { force: true });
      rmSync(`${f}.wal`, { force: true });
    }
  }
}
