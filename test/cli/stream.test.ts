/**
 * `mdq stream` (the built bin) against the local server replaying the test store: ndjson when piped,
 * one readable line per event on a terminal, `--limit`, `--duration`, Ctrl-C ending with exit 0, a bad
 * channel refused with exit 2, and the key in no output.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { KEY, startReplayServer } from '../stream/fixture.js';
import { bin, root, runBin, runOnTty } from './support.js';

test('piped: --limit events as ndjson, exit 0, the key nowhere', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const r = await runBin([
    'stream',
    'stocks',
    'T.SPY',
    'Q.IBM',
    '--limit',
    '50',
    '--stream-url',
    s.wsUrl,
    '--api-key',
    KEY,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 50);
  for (const line of lines) {
    const ev = JSON.parse(line) as { ev: string; sym: string };
    assert.ok((ev.ev === 'T' && ev.sym === 'SPY') || (ev.ev === 'Q' && ev.sym === 'IBM'), line);
  }
  assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
});

test('on a terminal: one line per event with the time on the New York clock', async (t) => {
  const s = await startReplayServer(t);
  if (!s) return;
  const r = await runOnTty(`node ${bin} stream stocks Q.IBM --limit 3 --stream-url ${s.wsUrl}`, {
    MASSIVE_API_KEY: KEY,
  });
  assert.equal(r.code, 0, r.stdout);
  const lines = r.stdout.trimEnd().split(/\r?\n/);
  assert.equal(lines.length, 3);
  assert.match(lines[0] ?? '', /^2013-10-07 04:00:00\.054 EDT {2}Q {5}IBM .* ap=183\.63 as=100 q=1/);
});

test('--duration ends the stream with exit 0', async (t) => {
  const s = await startReplayServer(t, { replaySpeed: 1 });
  if (!s) return;
  const r = await runBin([
    'stream',
    'stocks',
    'T.SPY',
    '--duration',
    '0.5',
    '--stream-url',
    s.wsUrl,
    '--api-key',
    KEY,
  ]);
  assert.equal(r.code, 0, r.stderr);
});

test('Ctrl-C (SIGINT) ends the stream with exit 0', { timeout: 60_000 }, async (t) => {
  // In real time from 04:00 New York, just before IBM's first quote of the day.
  const s = await startReplayServer(t, { replaySpeed: 1, replayFrom: Date.UTC(2013, 9, 7, 8) });
  if (!s) return;
  const child = spawn(process.execPath, [bin, 'stream', 'stocks', 'Q.IBM', '--stream-url', s.wsUrl], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', MASSIVE_API_KEY: KEY },
  });
  let out = '';
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (d) => {
      out += String(d);
      if (out.includes('\n')) resolve();
    }),
  );
  const code = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  child.kill('SIGINT');
  assert.equal(await code, 0);
});

test('a real-time replay whose first event is hours away says so on standard error', {
  timeout: 60_000,
}, async (t) => {
  // Midnight New York; IBM's first quote is at 04:00.
  const s = await startReplayServer(t, { replaySpeed: 1 });
  if (!s) return;
  const child = spawn(process.execPath, [bin, 'stream', 'stocks', 'Q.IBM', '--stream-url', s.wsUrl], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', MASSIVE_API_KEY: KEY },
  });
  let err = '';
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (d) => {
      err += String(d);
      if (err.includes('\n') && err.includes('first event')) resolve();
    }),
  );
  const code = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  child.kill('SIGINT');
  assert.equal(await code, 0);
  assert.match(
    err,
    /stocks stream: replay at 1x real time stands at 2013-10-07 00:00:.*; the first event \(IBM\) is at 2013-10-07 04:00:00\.054 EDT, (4 h 0|3 h 59) min from now; the server's --replay-from first starts at the first event/,
  );
});

test('a channel the market lacks is a usage error (exit 2) naming it', async () => {
  const r = await runBin([
    'stream',
    'stocks',
    'XT.SPY',
    '--api-key',
    KEY,
    '--stream-url',
    'ws://127.0.0.1:9',
  ]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Invalid channels: "XT\.SPY"/);
  const m = await runBin(['stream', 'bonds', 'T.US10Y', '--api-key', KEY]);
  assert.equal(m.code, 2);
  assert.match(
    m.stderr,
    /Invalid market: "bonds"; allowed: stocks, options, forex, crypto, indices, futures/,
  );
});

test('mdq --help lists stream, and mdq stream --help its options', async () => {
  const top = await runBin(['--help']);
  assert.match(top.stdout, /^ {2}stream\b/m);
  const own = await runBin(['stream', '--help']);
  assert.equal(own.code, 0);
  for (const option of ['--limit', '--duration', '--stream-url', '--delayed'])
    assert.ok(own.stdout.includes(option), option);
});

test('mdq stream futures: the contract trades of the replay as ndjson', async (t) => {
  const s = await startReplayServer(t, { replayFrom: Date.UTC(2013, 9, 7, 13, 30) });
  if (!s) return;
  const r = await runBin([
    'stream',
    'futures',
    'T.GCZ3',
    'AM.GCZ3',
    '--limit',
    '300',
    '--stream-url',
    s.wsUrl,
    '--api-key',
    KEY,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const events = r.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { ev: string; sym: string });
  assert.equal(events.length, 300);
  assert.ok(events.every((e) => e.sym === 'GCZ3'));
  assert.deepEqual(new Set(events.map((e) => e.ev)), new Set(['T', 'AM']));
});
