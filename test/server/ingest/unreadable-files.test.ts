/**
 * A Lean file that cannot be read (an I/O error; here a link to /proc/self/mem, whose first bytes no
 * process may read, so the fault holds for root too) is an error naming the file; with
 * `continueOnError` it is listed and the other files are ingested, as for a malformed file. Once the
 * file is readable, a new run ingests it.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isIngestError } from '../../../src/server/ingest/ingest-error.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { n, storeAndLeanRootEachTest } from './helpers.js';

describe('a Lean file that cannot be read', () => {
  let store: DuckDbStore;
  let root: string;
  storeAndLeanRootEachTest('mdq-unreadable-', (s, r) => {
    store = s;
    root = r;
  });

  const bars = async (ticker: string) =>
    n((await store.all<{ n: bigint }>('SELECT count(*) AS n FROM bars WHERE ticker = $1', [ticker]))[0]?.n);

  it('is named in the error; continueOnError lists it and goes on; a run after it is mended ingests it', async (t) => {
    if (!hasShared(t, leanDir)) return;
    if (process.platform !== 'linux') {
      t.skip('the unreadable file is /proc/self/mem, which only Linux has');
      return;
    }
    const daily = join(root, 'equity/usa/daily');
    mkdirSync(daily, { recursive: true });
    const bad = join(daily, 'aapl.zip');
    symlinkSync('/proc/self/mem', bad);
    copyFileSync(join(leanDir, 'equity/usa/daily/ibm.zip'), join(daily, 'ibm.zip'));

    await assert.rejects(
      ingestLean(store, root),
      (e: unknown) => isIngestError(e) && e.file === bad && /cannot read the file \(EIO/.test(e.message),
    );
    const summary = await ingestLean(store, root, { continueOnError: true });
    assert.equal(summary.filesIngested, 1);
    assert.equal(summary.filesFailed, 1);
    assert.deepEqual(
      summary.errors.map((e) => e.file),
      [bad],
    );
    assert.match(summary.errors[0]?.message ?? '', /cannot read the file \(EIO/);
    assert.ok((await bars('IBM')) > 5000);

    rmSync(bad);
    copyFileSync(join(leanDir, 'equity/usa/daily/aapl.zip'), bad);
    const mended = await ingestLean(store, root);
    assert.equal(mended.filesIngested, 1);
    assert.equal(mended.filesSkipped, 1);
    assert.ok((await bars('AAPL')) > 5000);
  });
});
