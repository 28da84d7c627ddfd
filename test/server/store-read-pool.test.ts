import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DuckDBConnection } from '@duckdb/node-api';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { withStoreFile } from '../support/store.js';

/** Writes `rows` trades at `path`: trade i of ticker 'T' + (i % tickers), at time i, price i / `per`. */
async function writeTrades(path: string, rows: number, tickers: number, per: number): Promise<void> {
  const writer = await DuckDbStore.open(path);
  await writer.run(
    `INSERT INTO trades (ticker, sip_timestamp, sequence_number, price, size)
     SELECT 'T' || (i % ${tickers}), i, i, i / ${per}, 1 FROM range(${rows}) r(i)`,
  );
  writer.close();
}

describe('Store: reads of a read-only store on several connections', () => {
  it('answers many concurrent reads correctly, survives failing ones, and closes', async () => {
    await withStoreFile(async (path) => {
      await writeTrades(path, 7000, 7, 10);
      for (const readConnections of [1, 3]) {
        const reader = await DuckDbStore.open(path, { readOnly: true, readConnections });
        try {
          // Expected sums computed here, independently of DuckDB.
          const expected = (k: number) => {
            let sum = 0n;
            for (let i = k; i < 7000; i += 7) sum += BigInt(i);
            return sum;
          };
          const asks = Array.from({ length: 40 }, (_, j) => j % 7);
          const answers = await Promise.all(
            asks.map((k, j) =>
              j % 5 === 4
                ? reader.all('SELECT * FROM no_such_table').then(
                    () => 'resolved',
                    () => 'rejected',
                  )
                : reader
                    .all<{ s: bigint }>(
                      'SELECT sum(sip_timestamp)::BIGINT AS s FROM trades WHERE ticker = $1',
                      [`T${k}`],
                    )
                    .then((rows) => rows[0]?.s),
            ),
          );
          answers.forEach((answer, j) => {
            const k = asks[j] as number;
            assert.equal(
              answer,
              j % 5 === 4 ? 'rejected' : expected(k),
              `read ${j} (${readConnections} connections)`,
            );
          });
          // Failed reads gave their connections back: more reads than connections still complete.
          const again = await Promise.all(
            Array.from({ length: 8 }, () => reader.all<{ n: bigint }>('SELECT count(*) AS n FROM trades')),
          );
          for (const rows of again) assert.equal(rows[0]?.n, 7000n);
        } finally {
          reader.close();
        }
      }
    });
  });
});

describe('Store: statements a read-only store keeps prepared', () => {
  it('prepares a query once per connection and answers each call with its own parameters', async () => {
    await withStoreFile(async (path) => {
      await writeTrades(path, 300, 3, 4);
      const prepare = DuckDBConnection.prototype.prepare;
      const prepared: string[] = [];
      DuckDBConnection.prototype.prepare = function (sql: string) {
        prepared.push(sql);
        return prepare.call(this, sql);
      };
      const reader = await DuckDbStore.open(path, { readOnly: true, readConnections: 1 });
      try {
        const sql =
          'SELECT count(*)::INTEGER AS n, max(price) AS p FROM trades WHERE ticker = $1 AND price < $2';
        const count = async (ticker: string, below: number) =>
          (await reader.all<{ n: number; p: number | null }>(sql, [ticker, below]))[0];
        prepared.length = 0;
        // Computed here: T0 has i = 0, 3, …, 297 at price i / 4.
        assert.deepEqual(await count('T0', 10), { n: 14, p: 9.75 });
        assert.deepEqual(await count('T1', 0.5), { n: 1, p: 0.25 });
        // A number beyond the int64 range binds as DOUBLE to the same statement.
        assert.deepEqual(await count('T2', 1e20), { n: 100, p: 74.75 });
        assert.deepEqual(await count('T9', 10), { n: 0, p: null });
        assert.deepEqual(prepared, [sql]);

        // A query that fails, and SQL that does not prepare as one statement, leave it working.
        await assert.rejects(reader.all('SELECT * FROM no_such_table'));
        assert.deepEqual(await reader.all('SELECT 1 AS a; SELECT 2 AS b'), [{ b: 2 }]);
        assert.deepEqual(await count('T0', 1), { n: 2, p: 0.75 });

        // More distinct queries than are kept: the oldest are let go and prepared again when asked.
        for (let i = 0; i < 100; i++) {
          assert.deepEqual(await reader.all(`SELECT ${i}::INTEGER AS i, $1::VARCHAR AS s`, ['x']), [
            { i, s: 'x' },
          ]);
        }
        prepared.length = 0;
        assert.deepEqual(await count('T1', 1.5), { n: 2, p: 1 });
        assert.deepEqual(prepared, [sql]);
      } finally {
        DuckDBConnection.prototype.prepare = prepare;
        reader.close();
      }
    });
  });

  it("a writable store's reads see its own writes, and tables it replaced", async () => {
    await withStoreFile(async (path) => {
      const store = await DuckDbStore.open(path);
      try {
        const sql = 'SELECT count(*)::INTEGER AS n FROM trades WHERE ticker = $1';
        assert.deepEqual(await store.all(sql, ['A']), [{ n: 0 }]);
        await store.run(
          "INSERT INTO trades (ticker, sip_timestamp, sequence_number, price, size) VALUES ('A', 1, 1, 1, 1)",
        );
        assert.deepEqual(await store.all(sql, ['A']), [{ n: 1 }]);
        await store.run('CREATE TABLE scratch AS SELECT 1 AS x');
        assert.deepEqual(await store.all('SELECT * FROM scratch'), [{ x: 1 }]);
        await store.run('DROP TABLE scratch');
        await store.run("CREATE TABLE scratch AS SELECT 'a' AS y");
        assert.deepEqual(await store.all('SELECT * FROM scratch'), [{ y: 'a' }]);
      } finally {
        store.close();
      }
    });
  });
});
