import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Store } from '../../src/server/store/store.js';
import { withStoreFile } from '../support/store.js';

describe('Store: reads of a read-only store on several connections', () => {
  it('answers many concurrent reads correctly, survives failing ones, and closes', async () => {
    await withStoreFile(async (path) => {
      const writer = await Store.open(path);
      await writer.run(
        `INSERT INTO trades (ticker, sip_timestamp, sequence_number, price, size)
         SELECT 'T' || (i % 7), i, i, i / 10, 1 FROM range(7000) r(i)`,
      );
      writer.close();
      for (const readConnections of [1, 3]) {
        const reader = await Store.open(path, { readOnly: true, readConnections });
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
