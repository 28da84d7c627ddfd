import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseJson } from '../../src/core/json.js';
import { itemsOf } from '../../src/table/rows.js';
import { fixtureServer } from '../server/app-fixture.js';
import { runBin, runOnTty } from './support.js';

/** The rows of a Parquet file as DuckDB reads them back, and its column names. */
async function readParquet(file: string): Promise<{ columns: string[]; rows: Record<string, unknown>[] }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT * FROM read_parquet('${file.replace(/'/g, "''")}')`,
    );
    return { columns: reader.columnNames(), rows: reader.getRowObjectsJS() as Record<string, unknown>[] };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A value as JSON output holds it, from what DuckDB read: bigint within the safe range as a number. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** `item` with names that differ from another only in case renamed as Parquet output renames them. */
function caseDistinct(item: unknown): unknown {
  if (Array.isArray(item)) return item.map(caseDistinct);
  if (item === null || typeof item !== 'object') return item;
  const entries = Object.entries(item);
  return Object.fromEntries(
    entries.map(([k, v]) => {
      const later = entries.filter(([o]) => o !== k && o.toLowerCase() === k.toLowerCase() && o > k).length;
      return [k + '_'.repeat(later), caseDistinct(v)];
    }),
  );
}

/** Each Parquet row equals the JSON item at its place; a field the item lacks is NULL. */
function assertSameItems(parquet: { columns: string[]; rows: Record<string, unknown>[] }, items: unknown[]) {
  assert.equal(parquet.rows.length, items.length);
  const keys = new Set(items.flatMap((item) => Object.keys(item as object)));
  assert.deepEqual(new Set(parquet.columns), keys);
  parquet.rows.forEach((row, i) => {
    const item = items[i] as Record<string, unknown>;
    for (const key of keys) {
      // A nested object read back as a STRUCT carries every field of its column, NULL where absent.
      const want = item[key] === undefined ? null : item[key];
      const got = plain(row[key]);
      if (got !== null && want !== null && typeof got === 'object' && !Array.isArray(got)) {
        const stripped = Object.fromEntries(Object.entries(got).filter(([, v]) => v !== null));
        assert.deepEqual(stripped, want, `row ${i}: ${key}`);
      } else assert.deepEqual(got, want, `row ${i}: ${key}`);
    }
  });
}

describe('--output parquet', () => {
  const calls = [
    {
      name: 'trades (lists of conditions, nanosecond timestamps)',
      args: ['stocks', 'get-trades-v3', 'SPY', '--timestamp', '2013-10-07', '--limit', '700'],
    },
    {
      name: 'aggregate bars',
      args: ['stocks', 'get-aggregate-bars', 'SPY', '2013-10-04', '2013-10-07', '--timespan', 'minute'],
    },
    { name: 'a snapshot (nested objects)', args: ['stocks', 'get-snapshot-all', '--symbols', 'SPY,IBM'] },
  ];
  for (const call of calls) {
    test(`${call.name}: the Parquet file read back equals the JSON output`, async (t) => {
      const server = await fixtureServer(t, { now: '2013-10-07' });
      if (!server) return;
      const dir = mkdtempSync(join(tmpdir(), 'mdq-parquet-test-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const args = [...call.args, '--base-url', server.url];
      const json = await runBin([...args, '--output', 'json']);
      assert.equal(json.code, 0, json.stderr);
      const items = itemsOf(parseJson(json.stdout)).map(caseDistinct);
      assert.ok(items.length > 0, `${call.name}: the store answers`);
      const file = join(dir, 'out.parquet');
      const written = await runBin([...args, '--output', 'parquet', '--out', file]);
      assert.equal(written.code, 0, written.stderr);
      assert.equal(written.stdout, '');
      assertSameItems(await readParquet(file), items);

      // Without --out, to a pipe: the same file's bytes on standard output.
      const piped = await runBin([...args, '-o', 'parquet'], {});
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stdout.slice(0, 4), 'PAR1');
    });
  }

  test('a columnar full range writes the same Parquet rows as its bar objects in JSON', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const dir = mkdtempSync(join(tmpdir(), 'mdq-parquet-test-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const args = [
      'stocks',
      'get-full-range-aggregate-bars',
      'SPY',
      '2013-10-04',
      '2013-10-07',
      '--base-url',
      server.url,
    ];
    const json = await runBin([...args, '--output', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const bars = parseJson(json.stdout) as Record<string, number>[];
    assert.ok(bars.length > 100);
    const file = join(dir, 'bars.parquet');
    const written = await runBin([...args, '--columnar', '--output', 'parquet', '--out', file]);
    assert.equal(written.code, 0, written.stderr);
    const read = await readParquet(file);
    // Columns hold t o h l c v vw n; every stored bar has them all.
    assertSameItems(
      read,
      bars.map(({ t, o, h, l, c, v, vw, n }) => ({ t, o, h, l, c, v, vw, n })),
    );

    const columnarJson = await runBin([...args, '--columnar', '--output', 'json']);
    const columns = parseJson(columnarJson.stdout) as Record<string, unknown>;
    assert.equal(columns.length, bars.length);
    assert.deepEqual(
      columns.c,
      bars.map((b) => b.c),
    );
  });

  test('--columnar without --full-range is a usage error naming both', async () => {
    const r = await runBin(['stocks', 'get-aggregate-bars', 'SPY', '2013-10-07', '2013-10-07', '--columnar']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--columnar.*--full-range/);
  });

  test('Parquet to a terminal is refused before any request', async () => {
    const r = await runOnTty(
      `node dist/cli/main.js stocks get-last-trade SPY --base-url http://127.0.0.1:9 --output parquet`,
    );
    assert.notEqual(r.code, 0);
    assert.match(r.stdout, /--output parquet.*terminal.*--out/);
    assert.doesNotMatch(r.stdout, /127\.0\.0\.1:9|connect/i);
  });

  test('--out writes text formats to the file', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    const dir = mkdtempSync(join(tmpdir(), 'mdq-parquet-test-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'bars.csv');
    const args = [
      'stocks',
      'get-aggregate-bars',
      'SPY',
      '2013-10-07',
      '2013-10-07',
      '--base-url',
      server.url,
    ];
    const r = await runBin([...args, '-o', 'csv', '--out', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const direct = await runBin([...args, '-o', 'csv']);
    assert.equal(readFileSync(file, 'utf8'), direct.stdout);
  });
});
