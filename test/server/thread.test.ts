/**
 * The server on a worker thread (`startServerThread`, what `mdq serve` and the demo run): it serves the
 * store file over HTTP with the options it was given, its log lines reach the caller, its heap has the
 * young generation it was asked for (as Node reports the thread's limits), a store it cannot open fails the start with the reason, and
 * `close()` stops it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startServerThread, YOUNG_GENERATION_MB } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { SYNTHETIC_TICKER, writeSyntheticMinuteBars } from '../reliability/synthetic-store.js';

const KEY = 'thread-key';
let dir: string;
let db: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mdq-thread-'));
  db = join(dir, 'store.duckdb');
  const store = await DuckDbStore.open(db);
  await writeSyntheticMinuteBars(store, '2023-03-01', '2023-03-03');
  store.close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('serves the store with its key, forwards the log, and stops on close()', async () => {
  const lines: string[] = [];
  const server = await startServerThread({ db, port: 0, apiKeys: [KEY], log: (l) => lines.push(l) });
  try {
    const path = `/v2/aggs/ticker/${SYNTHETIC_TICKER}/range/1/minute/2023-03-02/2023-03-02`;
    const ok = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as { resultsCount: number; results: { t: number }[] };
    // 04:00 to 20:00 New York: 16 hours of minutes.
    assert.equal(body.resultsCount, 16 * 60);
    const refused = await fetch(`${server.url}${path}`, { headers: { authorization: 'Bearer other' } });
    assert.equal(refused.status, 401);
    assert.ok(
      lines.some((l) => l.includes(`listening on ${server.url}`)),
      `log lines: ${JSON.stringify(lines)}`,
    );
  } finally {
    await server.close();
  }
  await assert.rejects(fetch(`${server.url}/v1/marketstatus/now`), 'nothing listens after close()');
  assert.equal(typeof (await server.ended), 'number', 'the thread has ended');
  // Closing again, once the thread has ended, has nothing left to stop.
  await server.close();
});

test('the thread has the young generation asked for, by default YOUNG_GENERATION_MB', async () => {
  for (const [asked, expected] of [
    [undefined, YOUNG_GENERATION_MB],
    [64, 64],
  ] as const) {
    const server = await startServerThread({
      db,
      port: 0,
      log: () => {},
      ...(asked !== undefined && { youngGenerationMb: asked }),
    });
    try {
      assert.equal(server.youngGenerationMb, expected);
    } finally {
      await server.close();
    }
  }
});

test('a store that cannot be opened fails the start with the reason', async () => {
  // A file that is not a DuckDB database.
  const notAStore = join(dir, 'not-a-store.duckdb');
  writeFileSync(notAStore, 'not a database\n'.repeat(1000));
  const outcome = await startServerThread({ db: notAStore, port: 0, log: () => {} }).then(
    async (server) => {
      await server.close();
      return undefined;
    },
    (error: Error) => error,
  );
  assert.ok(outcome instanceof Error, 'the start should have failed');
  assert.match(outcome.message, /The local server did not start: .+/);
});
