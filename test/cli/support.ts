import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDemoStore } from '../../src/demo/demo-store.js';
import { SIM_SEED, SIM_VERSION } from '../../src/demo/universe.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import type { Store } from '../../src/server/store/store.js';

/** Repository root. */
export const root = fileURLToPath(new URL('../../', import.meta.url));
/** The built bin, as the package's `bin` points at it. */
export const bin = `${root}dist/cli/main.js`;
/** A key nobody would type by accident: every output is checked for it. */
export const KEY = 'k3y-Sekret-9f8e7d6c5b4a';

/** The simulated market, generated once into `.tmp/` and shared by the CLI tests (read-only). */
export const simDbPath = `${root}.tmp/demo-sim-v${SIM_VERSION}-${SIM_SEED}.duckdb`;

/** A server over the simulated market that accepts only {@link KEY}, and the store for expectations. */
export async function startSimServer(): Promise<{ server: RunningServer; store: Store }> {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npx tsup; npm test builds)`);
  const { store } = await openDemoStore(simDbPath);
  const server = await startServer({ store, port: 0, apiKeys: [KEY], log: () => {} });
  return { server, store };
}

/** What one run of the bin did. */
export interface BinResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built bin as a subprocess (asynchronously, so the in-process server keeps answering) with a
 * clean environment: only PATH and HOME, plus `env`.
 */
export function runBin(args: readonly string[], env: Record<string, string> = {}): Promise<BinResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
        maxBuffer: 256 * 1024 * 1024,
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs a shell command under a pseudo-terminal (`script`), so the child's stdout and stderr are a tty. */
export function runOnTty(command: string, env: Record<string, string> = {}): Promise<BinResult> {
  return new Promise((resolve) => {
    execFile(
      'script',
      ['-qec', command, '/dev/null'],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          TERM: 'xterm',
          COLUMNS: '100',
          ...env,
        },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Fails when the key appears anywhere in what a run printed. */
export function assertNoKey(r: BinResult, key = KEY): void {
  assert.ok(!r.stdout.includes(key), 'the key appears on standard output');
  assert.ok(!r.stderr.includes(key), 'the key appears on standard error');
}

/** The environment that points the bin at `server` with the right key. */
export function envFor(server: RunningServer): Record<string, string> {
  return { MDQ_BASE_URL: server.url, MASSIVE_API_KEY: KEY };
}
