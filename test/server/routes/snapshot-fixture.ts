/**
 * The store behind the snapshot, reference and market-status route tests: a few real Lean files of
 * `../shared/marketdata` (and the VIX history) ingested once into `.tmp/` and opened read-only by every
 * test process, plus helpers to start servers at a fixed "now" and to read raw zip entries, so that
 * expectations come from the files and not from the server.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { unzipSync } from 'fflate';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import { Store } from '../../../src/server/store/store.js';
import { hasShared, leanDir, marketDataDir, referenceDir } from '../../support/shared.js';

/** Lean files (relative to the Lean root) of the store. */
export const SNAPSHOT_FILES = [
  'equity/usa/tick/ibm/20131008_trade.zip',
  'equity/usa/tick/ibm/20131008_quote.zip',
  'equity/usa/minute/ibm/20131007_trade.zip',
  'equity/usa/daily/ibm.zip',
  'equity/usa/minute/bac/20131008_trade.zip',
  'equity/usa/daily/bac.zip',
  'equity/usa/minute/aig/20131008_trade.zip',
  'equity/usa/daily/aig.zip',
  'equity/usa/minute/spy/20131008_trade.zip',
  'equity/usa/minute/spy/20230803_trade.zip',
  'equity/usa/daily/spy.zip',
  'equity/usa/factor_files/aapl.csv',
  'equity/usa/map_files/aapl.csv',
  'equity/usa/daily/aapl.zip',
  'equity/usa/minute/goog/20151223_trade.zip',
  'equity/usa/minute/goog/20151224_trade.zip',
  'equity/usa/daily/goog.zip',
  'option/usa/minute/goog/20151223_trade_american.zip',
  'option/usa/minute/goog/20151224_trade_american.zip',
  'option/usa/minute/goog/20151224_quote_american.zip',
  'option/usa/minute/goog/20151224_openinterest_american.zip',
  'option/usa/minute/spy/20230803_trade_american.zip',
  'option/usa/minute/spy/20230803_quote_american.zip',
  'index/usa/minute/spx/20210104_trade.zip',
  'index/usa/minute/spx/20210114_trade.zip',
  'index/usa/daily/spx.zip',
  'indexoption/usa/minute/spx/20210114_quote_european.zip',
  'indexoption/usa/minute/spx/20210114_trade_european.zip',
  'indexoption/usa/minute/spx/20210114_openinterest_european.zip',
  'crypto/coinbase/minute/btcusd/20180404_trade.zip',
  'crypto/coinbase/minute/btcusd/20180405_trade.zip',
  'crypto/coinbase/minute/btcusd/20180405_quote.zip',
  'crypto/coinbase/daily/btcusd_trade.zip',
  'forex/oanda/minute/eurusd/20140505_quote.zip',
  'forex/oanda/daily/eurusd.zip',
] as const;

const VIX = 'datahub-finance-vix/vix-daily.csv';
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const storePath = join(repoRoot, '.tmp', `snapshot-fixture-v1-${SNAPSHOT_FILES.length}.duckdb`);

/**
 * The store's path, ingesting it first when absent. Concurrent test processes each build their own file
 * and rename it into place, so nobody opens a half-written store.
 */
async function snapshotStorePath(): Promise<string> {
  if (existsSync(storePath)) return storePath;
  const work = join(tmpdir(), `mdq-snapshot-fixture-${process.pid}-${Date.now()}`);
  for (const f of SNAPSHOT_FILES) {
    mkdirSync(dirname(join(work, 'lean', f)), { recursive: true });
    symlinkSync(join(leanDir, f), join(work, 'lean', f));
  }
  mkdirSync(dirname(join(work, VIX)), { recursive: true });
  symlinkSync(join(marketDataDir, VIX), join(work, VIX));
  const db = join(work, 'store.duckdb');
  const store = await Store.open(db);
  try {
    await ingestLean(store, work);
  } finally {
    store.close();
  }
  mkdirSync(dirname(storePath), { recursive: true });
  if (!existsSync(storePath)) renameSync(db, storePath);
  rmSync(work, { recursive: true, force: true });
  return storePath;
}

/**
 * Starts a server over the store (opened read-only) on a free loopback port with "now" fixed;
 * `undefined` (test skipped) when the market data is absent.
 */
export async function snapshotServer(
  t: TestContext,
  now: string | number,
): Promise<RunningServer | undefined> {
  if (!hasShared(t, leanDir)) return undefined;
  const store = await Store.open(await snapshotStorePath(), { readOnly: true });
  const server = await startServer({ store, port: 0, now, log: () => {} });
  t.after(async () => {
    await server.close();
    store.close();
  });
  return server;
}

/** GETs `path` (with an API key) and returns the status and the parsed body. */
export async function get(server: RunningServer, path: string): Promise<{ status: number; body: any }> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await fetch(`${server.url}${path}${sep}apiKey=test-key`);
  return { status: res.status, body: await res.json() };
}

/** GETs an absolute `next_url` as the official JS client does: the URL plus `&apiKey=`. */
export async function follow(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}&apiKey=test-key`);
  return { status: res.status, body: await res.json() };
}

/** The CSV rows of every entry of a Lean zip (or of a plain CSV file), by entry name. */
export function leanEntries(relative: string): Map<string, string[][]> {
  const bytes = readFileSync(join(leanDir, relative));
  const texts: [string, Uint8Array][] = relative.endsWith('.zip')
    ? Object.entries(unzipSync(bytes))
    : [[relative, bytes]];
  const out = new Map<string, string[][]>();
  for (const [name, data] of texts) {
    out.set(
      name,
      new TextDecoder()
        .decode(data)
        .split(/\r?\n/)
        .filter((l) => l.trim() !== '')
        .map((l) => l.split(',')),
    );
  }
  return out;
}

/** The rows of the single entry of a Lean zip. */
export function leanRows(relative: string): string[][] {
  const [rows] = leanEntries(relative).values();
  if (!rows) throw new Error(`${relative} is empty`);
  return rows;
}

let openapi: any;

/**
 * A validator of the 200 response body of `path` (the OpenAPI path template) against the schema of
 * `openapi.json`; it returns the errors, an empty list when the body conforms. `allOfPart` checks one
 * member of a top-level `allOf` only (for schemas whose other members are spec bugs).
 */
export function responseValidator(
  path: string,
  options: { allOfPart?: number } = {},
): (body: unknown) => string[] {
  openapi ??= JSON.parse(readFileSync(join(referenceDir, 'openapi.json'), 'utf8'));
  const whole = openapi.paths[path]?.get?.responses?.['200']?.content?.['application/json']?.schema;
  if (!whole) throw new Error(`openapi.json has no 200 JSON schema for ${path}`);
  const schema = options.allOfPart === undefined ? whole : whole.allOf[options.allOfPart];
  const ajv = new Ajv({ strict: false, allErrors: true });
  (formats as unknown as { default: (a: Ajv) => void }).default(ajv);
  // OpenAPI's numeric formats say nothing JSON Schema can check.
  for (const f of ['double', 'float', 'int32', 'int64']) ajv.addFormat(f, true);
  const validate = ajv.compile(schema);
  return (body) =>
    validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
