/**
 * A store ingested from a few real Lean files of `../shared/marketdata`, built once per file set and
 * shared by the server's route tests (read-only), plus readers of the raw files so that tests compute
 * their expectations independently of the server.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { hasShared, leanDir } from '../support/shared.js';
import { testStorePath } from '../support/store.js';

/** The Lean files (relative to the Lean root) the fixture store holds. */
export const FIXTURE_FILES = [
  'equity/usa/tick/spy/20131007_trade.zip',
  'equity/usa/minute/spy/20131004_trade.zip',
  'equity/usa/minute/spy/20131007_trade.zip',
  'equity/usa/daily/spy.zip',
  'equity/usa/daily/aapl.zip',
  'equity/usa/factor_files/aapl.csv',
  'equity/usa/map_files/aapl.csv',
  'equity/usa/tick/ibm/20131007_trade.zip',
  'equity/usa/tick/ibm/20131007_quote.zip',
  'forex/oanda/tick/eurusd/20140501_quote.zip',
  'forex/oanda/minute/eurusd/20140501_quote.zip',
  'forex/oanda/daily/eurusd.zip',
  'crypto/coinbase/minute/btcusd/20180404_trade.zip',
  'crypto/coinbase/daily/btcusd_trade.zip',
  'option/usa/minute/spy/20230803_trade_american.zip',
  'index/usa/daily/spx.zip',
] as const;

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const storePath = join(repoRoot, '.tmp', `server-fixture-v2-${FIXTURE_FILES.length}.duckdb`);

/**
 * The store the route tests serve: the prepared test store of the whole market-data folder when the
 * test runner built it, else a small store of {@link FIXTURE_FILES}, ingested here when absent. Concurrent test processes each build into
 * their own file and rename it into place, so nobody reads a half-written store.
 */
export async function fixtureStorePath(): Promise<string> {
  // The whole market-data folder, ingested by scripts/prepare-test-store.ts before the test run.
  if (existsSync(testStorePath)) return testStorePath;
  if (existsSync(storePath)) return storePath;
  const work = join(tmpdir(), `mdq-fixture-${process.pid}-${Date.now()}`);
  const lean = join(work, 'lean');
  for (const f of FIXTURE_FILES) {
    mkdirSync(dirname(join(lean, f)), { recursive: true });
    symlinkSync(join(leanDir, f), join(lean, f));
  }
  const db = join(work, 'store.duckdb');
  const store = await DuckDbStore.open(db);
  try {
    // Loaded only when the store must be built: a warm run does not depend on the ingest code.
    const { ingestLean } = await import('../../src/server/ingest/lean.js');
    await ingestLean(store, lean);
  } finally {
    store.close();
  }
  mkdirSync(dirname(storePath), { recursive: true });
  renameSync(db, storePath);
  rmSync(work, { recursive: true, force: true });
  return storePath;
}

/** Starts a server on a free loopback port over the fixture store; `undefined` when data is absent. */
export async function fixtureServer(
  t: TestContext,
  options: { now?: number | string; apiKeys?: string[] } = {},
): Promise<RunningServer | undefined> {
  if (!hasShared(t, leanDir)) return undefined;
  const db = await fixtureStorePath();
  const server = await startServer({ db, port: 0, log: () => {}, ...options });
  t.after(() => server.close());
  return server;
}

/** GETs `path` on the server with an API key and returns status and parsed body. */
export async function getJson(server: RunningServer, path: string): Promise<{ status: number; body: any }> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await fetch(`${server.url}${path}${sep}apiKey=test-key`);
  return { status: res.status, body: await res.json() };
}

/**
 * The CSV rows (fields) of a Lean zip's entry (the first unless `entry` names one), or of a plain Lean
 * CSV file.
 */
export function leanRows(relative: string, entry?: string): string[][] {
  const bytes = readFileSync(join(leanDir, relative));
  let text: string;
  if (relative.endsWith('.zip')) {
    const entries = unzipSync(bytes);
    const chosen = entry === undefined ? Object.values(entries)[0] : entries[entry];
    if (!chosen) throw new Error(`${relative} has no entry ${entry ?? ''}`);
    text = new TextDecoder().decode(chosen);
  } else text = new TextDecoder().decode(bytes);
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(','));
}
