/**
 * Builds `.tmp/test-store.duckdb` from `../shared/marketdata` (and `../shared/marketdata-futures`, a
 * second Lean root, when present) for the server's route tests, unless the
 * one there is up to date. "Up to date" is a stamp over `INGEST_VERSION`, the schema and the data
 * files' names, sizes and modification times, so a new ingest version, schema or data rebuilds it.
 *
 * The store is built under a temporary name and renamed into place, so a test opening it never sees
 * half a store; a lock file keeps two concurrent test runs from building it twice.
 *
 * Usage: node --import tsx scripts/prepare-test-store.ts
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestLean } from '../src/server/ingest/lean.js';
import { INGEST_VERSION } from '../src/server/ingest/version.js';
import { DuckDbStore } from '../src/server/store/duckdb-store.js';
import { testStorePath } from '../test/support/store.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const marketData = join(root, '..', 'shared', 'marketdata');
/** The futures Lean root beside it, ingested as a second root when present. */
const futuresData = join(root, '..', 'shared', 'marketdata-futures');
const tmpDir = join(root, '.tmp');
const stampPath = `${testStorePath}.stamp`;
const lockPath = `${testStorePath}.lock`;

function listFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) listFiles(p, out);
    else out.push(p);
  }
  return out;
}

function currentStamp(): string {
  const hash = createHash('sha256');
  hash.update(`ingest ${INGEST_VERSION}\n`);
  hash.update(readFileSync(join(root, 'src', 'server', 'store', 'schema.ts')));
  for (const dir of [marketData, ...(existsSync(futuresData) ? [futuresData] : [])]) {
    for (const file of listFiles(dir)) {
      const s = statSync(file);
      hash.update(`${relative(join(root, '..', 'shared'), file)} ${s.size} ${s.mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

function upToDate(stamp: string): boolean {
  return (
    existsSync(testStorePath) && existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === stamp
  );
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Takes the build lock, waiting for another build to finish; false when the wait timed out. */
async function lock(): Promise<boolean> {
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(readFileSync(lockPath, 'utf8'));
      if (!Number.isInteger(holder) || holder <= 0 || !pidAlive(holder)) {
        rmSync(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function main(): Promise<number> {
  if (!existsSync(marketData)) {
    const line = `prepare-test-store: ${marketData} is absent; route tests that need the store will skip`;
    if (process.env.CI === 'true') {
      console.error(`${line} (CI=true: failing)`);
      return 1;
    }
    console.log(line);
    return 0;
  }
  mkdirSync(tmpDir, { recursive: true });
  const stamp = currentStamp();
  if (upToDate(stamp)) {
    console.log(`prepare-test-store: ${relative(root, testStorePath)} is up to date`);
    return 0;
  }
  if (!(await lock())) {
    console.error(`prepare-test-store: timed out waiting for ${lockPath}`);
    return 1;
  }
  try {
    if (upToDate(stamp)) {
      console.log(`prepare-test-store: ${relative(root, testStorePath)} was built meanwhile`);
      return 0;
    }
    const building = `${testStorePath}.building`;
    rmSync(building, { force: true });
    rmSync(`${building}.wal`, { force: true });
    console.log(`prepare-test-store: ingesting ${marketData} into ${relative(root, testStorePath)} ...`);
    const store = await DuckDbStore.open(building);
    let shown = 0;
    try {
      const summary = await ingestLean(store, marketData, {
        onProgress: (p) => {
          const tenth = Math.floor((p.filesDone * 10) / p.filesTotal);
          if (tenth > shown) {
            shown = tenth;
            console.log(`prepare-test-store: ${p.filesDone}/${p.filesTotal} files, ${p.rows} rows`);
          }
        },
      });
      if (existsSync(futuresData)) {
        const futures = await ingestLean(store, futuresData);
        for (const [table, n] of Object.entries(futures.rows)) {
          summary.rows[table as keyof typeof summary.rows] += n;
        }
        summary.filesIngested += futures.filesIngested;
      }
      const rows = Object.entries(summary.rows)
        .map(([table, n]) => `${table} ${n}`)
        .join(', ');
      console.log(
        `prepare-test-store: ${summary.filesIngested} files in ${(summary.elapsedMs / 1000).toFixed(1)} s (${rows})`,
      );
      await store.run('CHECKPOINT');
    } finally {
      store.close();
    }
    rmSync(stampPath, { force: true });
    renameSync(building, testStorePath);
    rmSync(`${testStorePath}.wal`, { force: true });
    writeFileSync(stampPath, `${stamp}\n`);
    return 0;
  } finally {
    rmSync(lockPath, { force: true });
  }
}

process.exitCode = await main();
