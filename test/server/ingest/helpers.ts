import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { unzipSync } from 'fflate';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { leanDir } from '../../support/shared.js';

/**
 * A throw-away folder laid out like a Lean data root, holding symbolic links to the given files of
 * `root` (relative paths; by default `../shared/marketdata/lean`), so a test ingests a small subset.
 */
export function leanSubset(
  paths: readonly string[],
  root: string = leanDir,
): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-lean-'));
  for (const p of paths) {
    const target = join(dir, p);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, p), target);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh store in its own temporary folder. */
/**
 * Registers, around each test of the suite it is called in, a new store and an empty Lean root (a
 * temporary folder named from `prefix`), both removed after the test; `use` receives them before it.
 */
export function storeAndLeanRootEachTest(
  prefix: string,
  use: (store: DuckDbStore, root: string) => void,
): void {
  let cleanup: () => void = () => {};
  beforeEach(async () => {
    const temp = await tempStore();
    const root = mkdtempSync(join(tmpdir(), prefix));
    cleanup = () => {
      temp.cleanup();
      rmSync(root, { recursive: true, force: true });
    };
    use(temp.store, root);
  });
  afterEach(() => cleanup());
}

export async function tempStore(): Promise<{ store: DuckDbStore; dir: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-store-'));
  const store = await DuckDbStore.open(join(dir, 'test.duckdb'));
  return {
    store,
    dir,
    cleanup: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The CSV rows of every entry of a Lean zip, as arrays of fields (CR and empty last line dropped). */
export function zipRows(path: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const [name, data] of Object.entries(unzipSync(readFileSync(join(leanDir, path))))) {
    const lines = Buffer.from(data).toString('utf8').split('\n');
    out.set(
      name,
      lines
        .map((l) => l.replace(/\r$/, ''))
        .filter((l) => l !== '')
        .map((l) => l.split(',')),
    );
  }
  return out;
}

/** The single entry's rows of a one-entry Lean zip. */
export function onlyEntryRows(path: string): string[][] {
  const entries = [...zipRows(path).values()];
  if (entries.length !== 1) throw new Error(`${path} has ${entries.length} entries`);
  return entries[0] as string[][];
}

/**
 * UTC offset (ms) of `tz` at the UTC instant `ms`, read from `Intl`'s `longOffset` name ("GMT-04:00"),
 * independently of the code under test.
 */
export function offsetAt(ms: number, tz: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' })
    .formatToParts(ms)
    .find((p) => p.type === 'timeZoneName')?.value as string;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!m) return 0;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * (Number(m[2]) * 3_600_000 + Number(m[3]) * 60_000);
}

/**
 * Unix ms of wall time `msOfDay` after midnight of `YYYYMMDD` in `tz` (no DST change on the days used
 * here: the offset of noon that day applies all day).
 */
export function wallToUtc(yyyymmdd: string, msOfDay: number, tz: string): number {
  const naive = Date.UTC(
    Number(yyyymmdd.slice(0, 4)),
    Number(yyyymmdd.slice(4, 6)) - 1,
    Number(yyyymmdd.slice(6, 8)),
  );
  return naive + msOfDay - offsetAt(naive + 12 * 3_600_000, tz);
}

/** A BIGINT/number column value as a number. */
export function n(v: unknown): number {
  return typeof v === 'bigint' ? Number(v) : (v as number);
}
