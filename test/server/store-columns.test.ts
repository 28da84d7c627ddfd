import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';

describe('Store.columns', () => {
  it('returns each column in row order, across many chunks, as all() returns the rows', async () => {
    const store = await DuckDbStore.open(':memory:');
    try {
      // 5000 rows: more than one of DuckDB's 2048-row chunks.
      const sql = `SELECT i::DOUBLE AS k, i % 3 = 0 AS third, CASE WHEN i % 5 = 0 THEN NULL ELSE i / 2 END AS half
                     FROM range(5000) r(i) WHERE i >= $1 ORDER BY i DESC`;
      const columns = await store.columns<{ k: number; third: boolean; half: number | null }>(sql, [10]);
      const rows = await store.all<{ k: number; third: boolean; half: number | null }>(sql, [10]);
      assert.equal(columns.k.length, 4990);
      assert.deepEqual(
        columns.k,
        rows.map((r) => r.k),
      );
      assert.deepEqual(
        columns.third,
        rows.map((r) => r.third),
      );
      assert.deepEqual(
        columns.half,
        rows.map((r) => r.half),
      );
      assert.equal(columns.k[0], 4999);
      assert.equal(columns.half[4990 - 1], null);
    } finally {
      store.close();
    }
  });

  it('names every column of an empty result, each with no values', async () => {
    const store = await DuckDbStore.open(':memory:');
    try {
      assert.deepEqual(await store.columns('SELECT 1 AS a, 2.5 AS b WHERE false'), { a: [], b: [] });
    } finally {
      store.close();
    }
  });
});
