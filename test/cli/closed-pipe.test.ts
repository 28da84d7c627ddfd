/**
 * `mdq … | head -1`: the reader of standard output goes away after its first line. mdq then ends
 * quietly with exit 0, with no EPIPE stack trace on standard error, whatever the output format.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { testStorePath } from '../support/store.js';
import { bin, root } from './support.js';

let server: RunningServer | undefined;

before(async () => {
  if (!existsSync(testStorePath)) return;
  server = await startServer({ db: testStorePath, port: 0, log: () => {} });
});
after(() => server?.close());

/** Runs the bin, reads its output up to the first newline, then closes the pipe as `head -1` does. */
async function firstLineThenClose(args: readonly string[]) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  let head = '';
  for await (const chunk of child.stdout) {
    head += chunk;
    if (head.includes('\n')) break; // leaving the loop destroys the read end
  }
  const [code, signal] = await once(child, 'exit');
  return { line: head.split('\n')[0] ?? '', code, signal, stderr };
}

for (const output of ['ndjson', 'csv', 'json', 'table']) {
  test(`a reader that closes the pipe after one line of --output ${output} ends mdq quietly`, async (t) => {
    if (!server) {
      const reason = `${testStorePath} is absent (built by scripts/prepare-test-store.ts from ../shared/marketdata)`;
      if (process.env.CI === 'true') throw new Error(reason);
      t.skip(reason);
      return;
    }
    assert.ok(existsSync(bin), `${bin} is missing: build first`);
    // 50 000 trades, megabytes: far more than a pipe holds, so mdq is still writing when the pipe closes.
    const r = await firstLineThenClose([
      'stocks',
      'get-trades-v3',
      'SPY',
      '--timestamp',
      '2013-10-07',
      '--limit',
      '50000',
      '--base-url',
      server.url,
      '--output',
      output,
    ]);
    assert.ok(r.line.length > 0, 'the first line arrived');
    assert.equal(r.stderr, '', 'nothing on standard error');
    assert.deepEqual([r.code, r.signal], [0, null]);
  });
}
