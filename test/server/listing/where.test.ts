/** The one WHERE builder and the keyset position it pages by, against a real DuckDB. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { intersect, Where } from '../../../src/server/listing/where.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';

async function withRows(fn: (store: DuckDbStore) => Promise<void>): Promise<void> {
  const store = await DuckDbStore.open(':memory:');
  try {
    await store.run('CREATE TABLE t (ticker VARCHAR, ts BIGINT, seq BIGINT)');
    await store.run(`INSERT INTO t VALUES ('A', 1, 1), ('A', 1, 2), ('A', 2, 1), ('B', 2, 5), ('A', 3, 1)`);
    await fn(store);
  } finally {
    store.close();
  }
}

describe('Where', () => {
  test('keyset: strictly after a (ts, seq) position ascending, before it descending', async () => {
    await withRows(async (store) => {
      const page = async (desc: boolean) => {
        const w = new Where().add('ticker = ?', 'A').after(['ts', 'seq'], [1n, 2n], desc);
        const dir = desc ? 'DESC' : 'ASC';
        const rows = await store.all<{ ts: bigint; seq: bigint }>(
          `SELECT ts, seq FROM t${w} ORDER BY ts ${dir}, seq ${dir} LIMIT ${w.param(10n)}`,
          w.params,
        );
        return rows.map((r) => `${r.ts}.${r.seq}`);
      };
      assert.deepEqual(await page(false), ['2.1', '3.1']);
      assert.deepEqual(await page(true), ['1.1']);
    });
  });

  test('ranges, lists and exact filters bind values as parameters, never as SQL', async () => {
    await withRows(async (store) => {
      const w = new Where()
        .range('ts', intersect({ gte: 1n, lt: 3n }, { gte: 2n }))
        .anyOf(store.dialect, 'ticker', ["B'); DROP TABLE t; --", 'B']);
      assert.doesNotMatch(w.toString(), /DROP/);
      const rows = await store.all<{ ticker: string }>(`SELECT ticker FROM t${w}`, w.params);
      assert.deepEqual(
        rows.map((r) => r.ticker),
        ['B'],
      );
      assert.equal((await store.all('SELECT * FROM t')).length, 5);
      const exact = new Where().field(
        new Map([
          ['ts', 2],
          ['ts.lt', 3],
        ]),
        'ts',
        'ts',
      );
      assert.equal(exact.toString(), ' WHERE ts = $1 AND ts < $2');
      assert.equal(new Where().toString(), '');
      const none = new Where().anyOf(store.dialect, 'ticker', []);
      assert.deepEqual(await store.all(`SELECT * FROM t${none}`, none.params), []);
    });
  });
});
