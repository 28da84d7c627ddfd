/**
 * A saved response holding a number beyond a double's range (`1e400`) is refused whole, naming the file,
 * the line of an ndjson file and the field: JSON.parse makes it Infinity, which was stored and answered
 * as null. What was stored before stays, and the file ingests once mended.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ingestJson } from '../../../src/server/ingest/json.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';

const dividend = (id: string, cash: string) =>
  `{"id":"${id}","ticker":"A","cash_amount":${cash},"ex_dividend_date":"2024-01-02","pay_date":"2024-01-20"}`;

test('a number beyond a double is an error naming file, line and field; the store keeps what it had', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-json-numbers-'));
  const store = await DuckDbStore.open(join(dir, 'db.duckdb'));
  try {
    const bodies = async () =>
      (
        await store.all<{ body: string }>(
          "SELECT body FROM reference_records WHERE kind = 'dividends' ORDER BY id",
        )
      ).map((r) => JSON.parse(r.body) as { cash_amount: unknown });
    const good = join(dir, 'good.json');
    writeFileSync(good, `{"status":"OK","results":[${dividend('d1', '0.5')}]}`);
    await ingestJson(store, [good]);

    const whole = join(dir, 'whole.json');
    writeFileSync(whole, `{"status":"OK","results":[${dividend('d2', '1e400')}]}`);
    await assert.rejects(ingestJson(store, [whole]), (e: Error) => {
      assert.match(
        e.message,
        /whole\.json: holds a number beyond the range of a double in field "cash_amount"/,
      );
      return true;
    });
    const lines = join(dir, 'lines.ndjson');
    writeFileSync(lines, `${dividend('d3', '0.25')}\n${dividend('d4', '-1e999')}\n`);
    await assert.rejects(
      ingestJson(store, [lines]),
      /lines\.ndjson:2: holds a number beyond .* "cash_amount"/,
    );
    assert.deepEqual(
      (await bodies()).map((b) => b.cash_amount),
      [0.5],
    );

    writeFileSync(whole, `{"status":"OK","results":[${dividend('d2', '1e30')}]}`);
    const summary = await ingestJson(store, [whole]);
    assert.equal(summary.filesIngested, 1);
    assert.deepEqual(
      (await bodies()).map((b) => b.cash_amount),
      [0.5, 1e30],
    );
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
