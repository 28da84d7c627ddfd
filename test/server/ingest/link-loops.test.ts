/**
 * A Lean folder holding a symbolic link back to a folder above it (`loop -> .`, `up -> ../..`) is walked
 * once: the link is passed over with the folder it leads back to, nothing under it is listed again, and
 * the real files are ingested as without it. Links to folders elsewhere are still followed.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { n, storeAndLeanRootEachTest } from './helpers.js';

const DAILY = 'equity/usa/daily/ibm.zip';

// Without the guard the walk of two such links never ends: the bound fails the test instead of hanging it.
describe('symbolic links that lead back up the Lean folder', { timeout: 120_000 }, () => {
  let store: DuckDbStore;
  let root: string;
  storeAndLeanRootEachTest('mdq-loops-', (s, r) => {
    store = s;
    root = r;
  });

  const copy = (path: string, from: string = leanDir) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    copyFileSync(join(from, path), full);
  };

  it('a link to its own folder and one to a folder above are each passed over once, naming where they lead', async (t) => {
    if (!hasShared(t, leanDir)) return;
    copy(DAILY);
    const daily = join(root, 'equity/usa/daily');
    symlinkSync('.', join(daily, 'loop'));
    symlinkSync('../..', join(daily, 'up'));
    const summary = await ingestLean(store, root);
    assert.equal(summary.filesIngested, 1);
    assert.equal(summary.filesFailed, 0);
    assert.deepEqual(summary.unrecognised, [], 'no file is listed again under a loop');
    assert.deepEqual(Object.fromEntries(summary.passedOver.map((p) => [p.path, p.reason])), {
      [join(daily, 'loop')]: `it is a link back to ${realpathSync(daily)}, a folder it lies in`,
      [join(daily, 'up')]: `it is a link back to ${realpathSync(join(root, 'equity'))}, a folder it lies in`,
    });
    const bars = await store.all<{ n: bigint }>("SELECT count(*) AS n FROM bars WHERE ticker = 'IBM'");
    assert.ok(n(bars[0]?.n) > 5000);
  });

  it('a link to a folder outside the walked one is followed', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const elsewhere = mkdtempSync(join(tmpdir(), 'mdq-elsewhere-'));
    try {
      mkdirSync(join(elsewhere, 'equity/usa/daily'), { recursive: true });
      copyFileSync(join(leanDir, DAILY), join(elsewhere, DAILY));
      mkdirSync(join(root, 'equity/usa'), { recursive: true });
      symlinkSync(join(elsewhere, 'equity/usa/daily'), join(root, 'equity/usa/daily'));
      const summary = await ingestLean(store, root);
      assert.equal(summary.filesIngested, 1);
      assert.deepEqual(summary.passedOver, []);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
