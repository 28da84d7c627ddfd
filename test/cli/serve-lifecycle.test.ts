/**
 * `mdq serve` and `mdq ingest` as processes: serve stops on SIGTERM even while a client holds a request
 * open, refuses a database that does not exist unless asked to create it, and refuses out-of-range
 * flags; an interrupted ingest leaves no staging folder; `mdq` alone is a usage error.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDemoStore } from '../../src/demo/demo-store.js';
import { hasShared, marketDataDir } from '../support/shared.js';
import { bin, root, runBin, simDbPath } from './support.js';

/** A generous bound: the test shows that the process ends, not how fast. */
const EXIT_WITHIN_MS = 20_000;

let dir: string;

before(async () => {
  (await openDemoStore(simDbPath)).store.close();
  dir = mkdtempSync(join(tmpdir(), 'mdq-lifecycle-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function startServe(args: readonly string[]): {
  child: ChildProcess;
  url: Promise<string>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [bin, 'serve', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: dir },
  });
  let stderr = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

/** The exit code, or `hung` when the process is still running after {@link EXIT_WITHIN_MS}. */
function exitOf(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('hung');
    }, EXIT_WITHIN_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? String(signal));
    });
  });
}

test('mdq serve exits 0 on SIGTERM while a client holds a request open', async () => {
  const serve = startServe(['--db', simDbPath, '--port', '0']);
  const url = new URL(await serve.url);
  // A request whose headers never end: the server would wait minutes for the rest.
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write('GET /v2/aggs/ticker/SIMA/prev HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer k\r\n');
  socket.on('error', () => {});
  // And one request that is answered, whose keep-alive connection then stays open.
  const answered = await fetch(`${url.origin}/v2/aggs/ticker/SIMA/prev`, {
    headers: { authorization: 'Bearer k' },
  });
  assert.equal(answered.status, 200);
  await answered.text();
  serve.child.kill('SIGTERM');
  const code = await exitOf(serve.child);
  socket.destroy();
  assert.equal(code, 0, serve.stderr());
});

test('mdq serve --db of a missing file is exit 2 naming it, unless --create', async () => {
  const missing = join(dir, 'missing.duckdb');
  const refused = await runBin(['serve', '--db', missing, '--port', '0']);
  assert.equal(refused.code, 2, refused.stderr);
  assert.ok(refused.stderr.includes(missing), refused.stderr);
  assert.match(refused.stderr, /--create/);
  assert.equal(existsSync(missing), false, 'nothing was created');

  const serve = startServe(['--db', missing, '--create', '--port', '0']);
  await serve.url;
  serve.child.kill('SIGTERM');
  assert.equal(await exitOf(serve.child), 0, serve.stderr());
  assert.equal(existsSync(missing), true);
});

test('mdq alone and out-of-range flags are usage errors (exit 2)', async () => {
  const bare = await runBin([]);
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /Usage: mdq/);
  for (const port of ['99999', '65536', '-1']) {
    const r = await runBin(['serve', '--db', simDbPath, '--port', port]);
    assert.equal(r.code, 2, `--port ${port}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`Invalid --port: "${port}"; expected an integer from 0 to 65535`));
  }
  // A second store after --db (a shell glob of two files) is named, and what serve takes instead.
  const two = await runBin(['serve', '--db', simDbPath, `${simDbPath}.old`, '--port', '0']);
  assert.equal(two.code, 2, two.stderr);
  assert.match(
    two.stderr,
    /Unexpected argument ".*\.old"; mdq serve takes no arguments: the store is --db PATH/,
  );
  const from = await runBin(['serve', '--db', simDbPath, '--port', '0', '--replay-from', 'yesterday']);
  assert.equal(from.code, 2, from.stderr);
  assert.match(from.stderr, /Invalid --replay-from: "yesterday"; expected .*YYYY-MM-DD or first/);
});

test('an ingest interrupted by SIGINT removes its staging folder', async (t) => {
  if (!hasShared(t, marketDataDir)) return;
  const data = marketDataDir;
  const temp = mkdtempSync(join(dir, 'tmp-'));
  const db = join(dir, 'interrupted.duckdb');
  const child = spawn(process.execPath, [bin, 'ingest', 'lean', data, '--db', db], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: dir, TMPDIR: temp },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // Interrupt once the staging folder exists and a file has been staged in it.
  const staged = () =>
    readdirSync(temp).some((d) => d.startsWith('mdq-ingest-') && readdirSync(join(temp, d)).length > 0);
  while (!staged() && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  assert.equal(child.exitCode, null, `the ingest ended before it could be interrupted: ${stderr}`);
  child.kill('SIGINT');
  const code = await exitOf(child);
  assert.notEqual(code, 'hung', stderr);
  assert.notEqual(code, 0, 'an interrupted ingest is not a success');
  assert.deepEqual(
    readdirSync(temp).filter((d) => d.startsWith('mdq-ingest-')),
    [],
    stderr,
  );
});
