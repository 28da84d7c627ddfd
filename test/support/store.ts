import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';

/**
 * The store built from `../shared/marketdata` by `scripts/prepare-test-store.ts`, which the test runner
 * runs before the test files. Open it read-only: several test files share it.
 */
export const testStorePath = fileURLToPath(new URL('../../.tmp/test-store.duckdb', import.meta.url));

/**
 * Opens the prepared test store read-only, or skips the test with a printed reason when it was not
 * built (no `../shared/marketdata`); under CI its absence fails the test.
 */
export async function openTestStore(t: TestContext): Promise<DuckDbStore | undefined> {
  if (!existsSync(testStorePath)) {
    const reason = `${testStorePath} is absent (built by scripts/prepare-test-store.ts from ../shared/marketdata)`;
    if (process.env.CI === 'true') throw new Error(reason);
    console.log(`# skipped: ${reason}`);
    t.skip(reason);
    return undefined;
  }
  return DuckDbStore.open(testStorePath, { readOnly: true });
}

/** Runs `fn` with the path of a store file (not yet created) in a fresh folder, removed afterwards. */
export async function withStoreFile<T>(fn: (path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-store-'));
  try {
    return await fn(join(dir, 'db.duckdb'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
