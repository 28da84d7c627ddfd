/**
 * `mdq serve --upstream` and `mdq cache` as processes: a caching server in front of a local upstream
 * stores what it is asked, `mdq cache status` lists it and `clear` removes it, `--offline` answers a
 * request outside it with a 404 naming what is missing, and malformed flags are usage errors that name
 * them. The upstream key never reaches the output.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startServer } from '../../src/server/index.js';
import { openTestStore } from '../support/store.js';
import { bin, root, runBin } from './support.js';

const UPSTREAM_KEY = 'up-Sekret-0a1b2c3d4e5f';

function startServe(args: readonly string[]): {
  child: ChildProcess;
  url: Promise<string>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [bin, 'serve', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir() },
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

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

test('mdq serve --upstream stores what it is asked; cache status lists it, clear removes it, --offline names what is missing', async (t) => {
  const lean = await openTestStore(t);
  if (!lean) return;
  const upstream = await startServer({ store: lean, port: 0, log: () => {} });
  const dir = mkdtempSync(join(tmpdir(), 'mdq-cache-cli-'));
  const db = join(dir, 'cache.duckdb');
  const children: ChildProcess[] = [];
  try {
    const cache = startServe([
      '--upstream',
      upstream.url,
      '--upstream-key',
      UPSTREAM_KEY,
      '--db',
      db,
      '--port',
      '0',
    ]);
    children.push(cache.child);
    const url = await cache.url;
    const res = await fetch(`${url}/v2/aggs/ticker/IBM/range/1/day/2013-10-01/2013-10-10`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { resultsCount: number }).resultsCount, 8);
    const listing = await fetch(`${url}/v3/reference/tickers?market=stocks&limit=1`);
    assert.equal(listing.status, 200);
    await stop(cache.child);
    assert.match(cache.stderr(), /stored 8 daily bars of IBM for 2013-10-01\.\.2013-10-10/);
    assert.ok(!cache.stderr().includes(UPSTREAM_KEY));

    const status = await runBin(['cache', 'status', '--db', db, '-o', 'json']);
    assert.equal(status.code, 0, status.stderr);
    const ranges = JSON.parse(status.stdout) as {
      ticker: string;
      kind: string;
      first: string;
      last: string;
      rows: number | null;
    }[];
    const stocks = Number(
      (
        await lean.all<{ n: bigint }>("SELECT count(*) AS n FROM tickers WHERE market = 'stocks' AND active")
      )[0]?.n,
    );
    const splits = Number(
      (await lean.all<{ n: bigint }>("SELECT count(*) AS n FROM splits WHERE ticker = 'IBM'"))[0]?.n,
    );
    assert.deepEqual(
      ranges.map((r) => [r.ticker, r.kind, r.first, r.last, r.rows]),
      [
        ['IBM', 'bars:day', '2013-10-01', '2013-10-10', 8],
        ['IBM', 'splits', 'all', 'all', splits],
        // A listing by its filters, every page of it.
        ['active=true&market=stocks', 'tickers', 'all', 'all', stocks],
      ],
    );
    assert.match(status.stderr, /3 stored ranges; store file \d+\.\d MB/);

    const offline = startServe(['--offline', '--db', db, '--port', '0']);
    children.push(offline.child);
    const offUrl = await offline.url;
    const covered = await fetch(`${offUrl}/v2/aggs/ticker/IBM/range/1/day/2013-10-02/2013-10-03`);
    assert.equal(covered.status, 200);
    const missing = await fetch(`${offUrl}/v2/aggs/ticker/IBM/range/1/day/2013-10-02/2013-10-15`);
    assert.equal(missing.status, 404);
    assert.match(
      ((await missing.json()) as { message: string }).message,
      /daily bars of IBM for 2013-10-11\.\.2013-10-15/,
    );
    await stop(offline.child);

    const cleared = await runBin(['cache', 'clear', 'IBM', '--db', db]);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.match(cleared.stderr, /removed 2 stored ranges/);
    const after = await runBin(['cache', 'status', '--db', db, '-o', 'json']);
    assert.deepEqual(
      (JSON.parse(after.stdout) as { kind: string }[]).map((r) => r.kind),
      ['tickers'],
    );
    const all = await runBin(['cache', 'clear', '--db', db]);
    assert.match(all.stderr, /removed 1 stored range /);
    const none = await runBin(['cache', 'status', '--db', db, '-o', 'json']);
    assert.deepEqual(JSON.parse(none.stdout), []);
  } finally {
    for (const c of children) await stop(c);
    await upstream.close();
    lean.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('malformed upstream flags and cache ranges are usage errors naming them', async () => {
  const rate = await runBin([
    'serve',
    '--upstream',
    '--upstream-rate',
    '5-a-minute',
    '--db',
    '/nonexistent/x.duckdb',
  ]);
  assert.equal(rate.code, 2, rate.stderr);
  assert.match(rate.stderr, /--upstream-rate.*5-a-minute.*5\/min/);
  for (const bad of ['soon', '0']) {
    const timeout = await runBin([
      'serve',
      '--upstream',
      '--upstream-timeout',
      bad,
      '--db',
      '/nonexistent/x.duckdb',
    ]);
    assert.equal(timeout.code, 2, timeout.stderr);
    assert.match(timeout.stderr, new RegExp(`Invalid --upstream-timeout: "${bad}"; expected seconds > 0`));
  }
  const url = await runBin(['serve', '--upstream=ftp://example.com', '--port', '0']);
  assert.equal(url.code, 2, url.stderr);
  assert.match(url.stderr, /Invalid --upstream: "ftp:\/\/example\.com"/);
  const range = await runBin([
    'cache',
    'refresh',
    'IBM',
    '2013-10-10..2013-10-01',
    '--upstream',
    'http://127.0.0.1:9',
  ]);
  assert.equal(range.code, 2, range.stderr);
  assert.match(range.stderr, /Invalid range: "2013-10-10\.\.2013-10-01"/);
});
