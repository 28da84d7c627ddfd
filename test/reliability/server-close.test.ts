/**
 * Closing the server while requests are still running their queries: `close()` resolves, and the process
 * then exits by itself, without a native crash. Runs in a child process, since a hang or a crash there
 * must fail this test rather than take the test runner down.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testStorePath } from '../support/store.js';

const script = fileURLToPath(new URL('./close-in-flight.ts', import.meta.url));
// A hang detector, not a timing: the child starts tsx and opens a store, which a loaded machine makes slow.
const EXIT_WITHIN_MS = 120_000;

test('close() with queries in flight, twice: the process exits by itself, no crash', async (t) => {
  if (!existsSync(testStorePath)) {
    if (process.env.CI === 'true') throw new Error(`${testStorePath} is absent`);
    t.skip(`${testStorePath} is absent`);
    return;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', script, testStorePath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const result = await new Promise<{ code: number | null; signal: string | null; hung: boolean }>(
    (resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve({ code: null, signal: 'SIGKILL', hung: true });
      }, EXIT_WITHIN_MS);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, hung: false });
      });
    },
  );
  assert.ok(out.includes('done'), `close() did not resolve twice:\n${out.slice(-2000)}`);
  assert.ok(
    !result.hung,
    `the process did not exit within ${EXIT_WITHIN_MS / 1000} s after close():\n${out.slice(-2000)}`,
  );
  assert.equal(result.signal, null, `killed by ${result.signal}:\n${out.slice(-2000)}`);
  assert.equal(result.code, 0, out.slice(-2000));
});
