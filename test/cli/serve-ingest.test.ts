import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDemoStore } from '../../src/demo/demo-store.js';
import { startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { hasShared, recordedDir } from '../support/shared.js';
import { assertNoKey, bin, KEY, root, runBin, runOnTty, simDbPath } from './support.js';

let dir: string;

before(async () => {
  (await openDemoStore(simDbPath)).store.close();
  dir = mkdtempSync(join(tmpdir(), 'mdq-serve-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Day aggregates in the provider's flat-file layout: `days` bars of `ticker` from `firstDay` (New York midnights, ns). */
function dayAggregates(
  ticker: string,
  rows: readonly [day: string, o: number, h: number, l: number, c: number, v: number][],
) {
  const ns = (day: string) => BigInt(new Date(`${day}T05:00:00Z`).getTime()) * 1_000_000n;
  const lines = ['ticker,volume,open,close,high,low,window_start,transactions'];
  for (const [day, o, h, l, c, v] of rows)
    lines.push(`${ticker},${v},${o},${c},${h},${l},${ns(day)},${Math.round(v / 100)}`);
  return `${lines.join('\n')}\n`;
}

test('mdq serve answers over HTTP with the key it was given, and stops on SIGTERM', async () => {
  const child = spawn(process.execPath, [bin, 'serve', '--db', simDbPath, '--port', '0', '--api-key', KEY], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '' },
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  try {
    const ok = await runBin(['stocks', 'get-previous-close', 'SIMA', '--base-url', url, '--api-key', KEY]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal((JSON.parse(ok.stdout) as { ticker: string }).ticker, 'SIMA');
    const refused = await fetch(`${url}/v2/aggs/ticker/SIMA/prev`, {
      headers: { Authorization: 'Bearer other-key' },
    });
    assert.equal(refused.status, 401);
  } finally {
    child.kill('SIGTERM');
  }
  const code = await new Promise((resolve) => child.once('exit', resolve));
  assert.equal(code, 0);
  assert.ok(!stderr.includes(KEY), 'the server never logs the key');
});

test('mdq ingest flatfiles writes the rows, reports them, and is idempotent', async () => {
  const rows: [string, number, number, number, number, number][] = [
    ['2024-03-04', 10, 11, 9.5, 10.5, 120000],
    ['2024-03-05', 10.5, 10.9, 10.1, 10.2, 98000],
    ['2024-03-06', 10.2, 10.4, 9.9, 10.3, 101000],
  ];
  const file = join(dir, 'day_aggs_2024-03.csv');
  writeFileSync(file, dayAggregates('FLTX', rows));
  const db = join(dir, 'ingest.duckdb');
  const first = await runBin(['ingest', 'flatfiles', file, '--db', db]);
  assert.equal(first.code, 0, first.stderr);
  const summary = JSON.parse(first.stdout) as Record<string, number>;
  assert.equal(summary.filesIngested, 1);
  assert.equal(summary['rows.bars'], rows.length);
  assert.match(first.stderr, /ingested 1 files/);
  const again = await runBin(['ingest', 'flatfiles', file, '--db', db]);
  assert.equal((JSON.parse(again.stdout) as Record<string, number>).filesSkipped, 1);

  const store = await DuckDbStore.open(db, { readOnly: true });
  try {
    const stored = await store.all<{ o: number; h: number; l: number; c: number; v: number }>(
      "SELECT o, h, l, c, v FROM bars WHERE ticker = 'FLTX' AND resolution = 'day' ORDER BY t",
    );
    assert.deepEqual(
      stored.map((b) => [b.o, b.h, b.l, b.c, b.v]),
      rows.map((r) => r.slice(1)),
    );
  } finally {
    store.close();
  }
});

test('mdq ingest into a store mdq serve has open says which process holds it; what is stored stays', async () => {
  const db = join(dir, 'served.duckdb');
  const first = join(dir, 'day_aggs_2024-04.csv');
  writeFileSync(first, dayAggregates('HELD', [['2024-04-01', 10, 11, 9.5, 10.5, 120000]]));
  assert.equal((await runBin(['ingest', 'flatfiles', first, '--db', db])).code, 0);
  const child = spawn(process.execPath, [bin, 'serve', '--db', db, '--port', '0'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '' },
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const second = join(dir, 'day_aggs_2024-05.csv');
  writeFileSync(second, dayAggregates('HELD', [['2024-05-01', 11, 12, 10.5, 11.5, 90000]]));
  try {
    const refused = await runBin(['ingest', 'flatfiles', second, '--db', db]);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr.trim(),
      `mdq: ${db} is open in another process (PID ${child.pid}), a running mdq serve perhaps: DuckDB lets no other process write a file that one has open; stop that process, then run this again`,
    );
    const served = await fetch(`${url}/v2/aggs/ticker/HELD/range/1/day/2024-04-01/2024-05-31`);
    assert.equal(((await served.json()) as { resultsCount: number }).resultsCount, 1);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  const later = await runBin(['ingest', 'flatfiles', second, '--db', db]);
  assert.equal(later.code, 0, later.stderr);
  const store = await DuckDbStore.open(db, { readOnly: true });
  try {
    const rows = await store.all<{ n: bigint }>("SELECT count(*) AS n FROM bars WHERE ticker = 'HELD'");
    assert.equal(Number(rows[0]?.n), 2);
  } finally {
    store.close();
  }
});

test('ingest shows files, rows and rate on a terminal; exit 2 for a bad resolution', async () => {
  const file = join(dir, 'minute_aggs.csv');
  writeFileSync(file, dayAggregates('FLTY', [['2024-03-04', 1, 2, 0.5, 1.5, 1000]]));
  const r = await runOnTty(
    `node ${bin} ingest flatfiles ${file} --db ${join(dir, 'tty.duckdb')} --resolution day > /dev/null`,
  );
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /ingest +\[#+\] +1\/1 files +[\d,]+ rows +[\d,]+ rows\/s/);
  const bad = await runBin([
    'ingest',
    'flatfiles',
    file,
    '--resolution',
    'weekly',
    '--db',
    join(dir, 'bad.duckdb'),
  ]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Invalid --resolution: "weekly"; allowed: day, minute/);
  assertNoKey(bad);
});

test('mdq ingest json loads what the CLI wrote as ndjson from a server, once; exit 2 for a bad kind', async (t) => {
  const recorded = `${recordedDir}v3/reference/dividends.json`;
  if (!hasShared(t, recorded)) return;
  const source = join(dir, 'source.duckdb');
  const loaded = await runBin(['ingest', 'json', recorded, '--db', source]);
  assert.equal(loaded.code, 0, loaded.stderr);
  const records = JSON.parse(readFileSync(recorded, 'utf8')).results as { ticker: string }[];
  assert.equal(
    (JSON.parse(loaded.stdout) as Record<string, number>)['rows.reference_records'],
    records.length,
  );
  // The summary counts the rows of the tables written, not zeros of trades, bars, ...
  const rowCounts = (out: string) => Object.keys(JSON.parse(out)).filter((k) => k.startsWith('rows.'));
  assert.deepEqual(rowCounts(loaded.stdout), ['rows.reference_records']);
  // The same content given as another kind is refused by the kind's fields, not skipped as stored.
  const asNews = await runBin(['ingest', 'json', recorded, '--db', source, '--kind', 'news']);
  assert.equal(asNews.code, 1, asNews.stdout);
  assert.match(asNews.stderr, /dividends\.json: record 1 of \d+ .*lacks published_utc; a news record needs/);
  const asDividends = await runBin(['ingest', 'json', recorded, '--db', source, '--kind', 'dividends']);
  assert.equal(asDividends.code, 0, asDividends.stderr);
  assert.equal((JSON.parse(asDividends.stdout) as Record<string, number>).filesSkipped, 1);
  assert.deepEqual(rowCounts(asDividends.stdout), [], 'nothing written, no counts');

  const server = await startServer({ db: source, port: 0, log: () => {} });
  let ndjson: string;
  try {
    const out = await runBin([
      'reference',
      'get-stock-dividends',
      '--limit',
      '1000',
      '--output',
      'ndjson',
      '--base-url',
      server.url,
      '--api-key',
      KEY,
    ]);
    assert.equal(out.code, 0, out.stderr);
    ndjson = out.stdout;
  } finally {
    await server.close();
  }
  const file = join(dir, 'dividends.ndjson');
  writeFileSync(file, ndjson);
  const target = join(dir, 'target.duckdb');
  const first = await runBin(['ingest', 'json', file, '--db', target]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(
    (JSON.parse(first.stdout) as Record<string, number>)['rows.reference_records'],
    records.length,
  );
  const again = await runBin(['ingest', 'json', file, '--db', target]);
  assert.equal((JSON.parse(again.stdout) as Record<string, number>).filesSkipped, 1);

  const bad = await runBin(['ingest', 'json', file, '--db', target, '--kind', 'bogus']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--kind.*bogus.*dividends/);

  // Dividends given as news: refused, naming the file, the record and the fields news needs.
  const wrong = await runBin(['ingest', 'json', recorded, '--db', target, '--kind', 'news']);
  assert.equal(wrong.code, 1, wrong.stderr);
  assert.match(wrong.stderr, /dividends\.json: record 1 of \d+ .*lacks published_utc; a news record needs/);
  assert.doesNotMatch(wrong.stderr, /at .*\.js:\d+/, 'a message, not a stack');
});
