import type { DuckDbStore } from '../server/store/duckdb-store.js';

/**
 * Opens a DuckDB store to write to it. DuckDB lets one process at a time write a file, and no process
 * write one that another has open (a running `mdq serve` reads its store): that refusal names the
 * file and the process holding it, in the CLI's words rather than the database's.
 */
export async function openWritableStore(path: string): Promise<DuckDbStore> {
  // Loaded on demand, so that commands that need no DuckDB do not load it.
  const { DuckDbStore } = await import('../server/store/duckdb-store.js');
  try {
    return await DuckDbStore.open(path);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (!/Could not set lock on file/.test(message)) throw e;
    const pid = /Conflicting lock is held in .*? \(PID (\d+)\)/.exec(message)?.[1];
    const holder = pid === undefined ? 'another process' : `another process (PID ${pid})`;
    throw new Error(
      `${path} is open in ${holder}, a running mdq serve perhaps: DuckDB lets no other process write a file that one has open; stop that process, then run this again`,
      { cause: e },
    );
  }
}
