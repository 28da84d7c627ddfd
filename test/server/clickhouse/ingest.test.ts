/**
 * `mdq ingest lean … --store clickhouse://…` against a real ClickHouse server: it creates the schema
 * on an empty database, writes what `--db` would hold, and a re-run never duplicates a row.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { publishToClickHouse } from '../../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import type { Store } from '../../../src/server/store/store.js';
import { runBin } from '../../cli/support.js';
import { startClickHouse } from '../../support/clickhouse.js';
import { hasShared, leanDir } from '../../support/shared.js';

const FILES = [
  'equity/usa/minute/spy/20131004_trade.zip',
  'equity/usa/daily/aapl.zip',
  'equity/usa/factor_files/aapl.csv',
  'equity/usa/map_files/aapl.csv',
  'equity/usa/tick/ibm/20131007_trade.zip',
  'forex/oanda/minute/eurusd/20140501_quote.zip',
];

const TABLES = ['trades', 'quotes', 'bars', 'quote_bars', 'splits', 'ticker_history', 'tickers'];

/** Rows per table, and a digest of the bulk tables' contents. */
async function contents(store: Store): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const table of TABLES) {
    const [row] = await store.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table}`);
    out[table] = Number(row?.n);
  }
  const [trades] = await store.all<{ s: number; q: bigint }>(
    'SELECT sum(price * size) AS s, sum(sequence_number) AS q FROM trades',
  );
  const [bars] = await store.all<{ s: number; t: bigint }>('SELECT sum(c * v) AS s, sum(t) AS t FROM bars');
  out.trades_digest = [trades?.s.toPrecision(12), String(trades?.q)];
  out.bars_digest = [bars?.s.toPrecision(12), String(bars?.t)];
  return out;
}

describe('mdq ingest --store clickhouse://', () => {
  test('creates the schema, holds what --db holds, and a re-run duplicates nothing', {
    timeout: 300_000,
  }, async (t) => {
    if (!hasShared(t, leanDir)) return;
    const servers = await startClickHouse(t);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-ch-ingest-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const lean = join(work, 'lean');
    for (const f of FILES) {
      mkdirSync(dirname(join(lean, f)), { recursive: true });
      symlinkSync(join(leanDir, f), join(lean, f));
    }
    const url = servers.urls[0] as string;
    const db = join(work, 'store.duckdb');
    const duck = await runBin(['ingest', 'lean', lean, '--db', db]);
    assert.equal(duck.code, 0, duck.stderr);

    const first = await runBin(['ingest', 'lean', lean, '--store', url]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /published [\d,]+ rows/);
    assert.equal(JSON.parse(first.stdout).db, url, 'the summary names the ClickHouse store');
    const clickhouse = await ClickHouseStore.open(url);
    t.after(() => clickhouse.close());
    const expected = await DuckDbStore.open(db, { readOnly: true }).then(async (s) => {
      try {
        return await contents(s);
      } finally {
        s.close();
      }
    });
    assert.ok((expected.trades as number) > 0 && (expected.bars as number) > 0);
    assert.deepEqual(await contents(clickhouse), expected);

    const again = await runBin(['ingest', 'lean', lean, '--store', url]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(await contents(clickhouse), expected);
  });

  test('a bad --store names the value and the forms allowed, before touching anything', async () => {
    const r = await runBin(['ingest', 'lean', tmpdir(), '--store', 'postgres://x@y/z']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Invalid --store: "postgres:\/\/x@y\/z"; expected duckdb:PATH or clickhouse:\/\//);
  });
});

describe('publishing into ClickHouse', () => {
  test('floats arrive bit for bit, those ClickHouse reads inexactly from text too', {
    timeout: 300_000,
  }, async (t) => {
    const servers = await startClickHouse(t);
    if (!servers) return;
    // Prices and mid prices that ClickHouse 18.16 reads from decimal text as the next double up or
    // down; then edges: zero, negatives, extremes, NULL (not subnormals, which go as text).
    const values = [
      1.465415, 3.055423, 2.606177, 0.1, 0.30000000000000004, 1.4654150000000001, 186.19, 0, -2.5, 1e-300,
      1.7976931348623157e308, 123456789.123,
    ];
    const duck = await DuckDbStore.open(':memory:');
    t.after(() => duck.close());
    for (const [i, x] of values.entries()) {
      await duck.run(
        "INSERT INTO bars (ticker, resolution, t, o, h, l, c, v, vw, n) VALUES ('X', 'day', $1, $2, $2, $2, $2, $2, $3, NULL)",
        [i * 86_400_000, x, i % 2 === 0 ? x : null],
      );
    }
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string);
    t.after(() => clickhouse.close());
    await publishToClickHouse(duck, clickhouse);
    const sql = 'SELECT t, o, h, l, c, v, vw FROM bars ORDER BY t';
    assert.deepEqual(await clickhouse.all(sql), await duck.all(sql));
  });
});
