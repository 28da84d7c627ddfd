import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { storeFact } from '../../../src/server/market/facts.js';
import { splitSteps } from '../../../src/server/market/splits.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { withStoreFile } from '../../support/store.js';

describe('storeFact', () => {
  test('a read-only store computes each fact once; a writable one each time; failures are not kept', async () => {
    await withStoreFile(async (path) => {
      const writable = await DuckDbStore.open(path);
      await writable.run("INSERT INTO splits VALUES ('ABC', DATE '2020-06-03', 1, 4)");
      let runs = 0;
      const count = () => Promise.resolve(++runs);
      assert.equal(writable.readOnly, false);
      assert.equal(await storeFact(writable, 'k', count), 1);
      assert.equal(await storeFact(writable, 'k', count), 2);
      // A writable store sees its own changes.
      await writable.run("INSERT INTO splits VALUES ('ABC', DATE '2021-06-03', 1, 2)");
      assert.deepEqual(
        (await splitSteps(writable, 'ABC')).map((s) => s.factor),
        [2, 8],
      );
      writable.close();

      const readOnly = await DuckDbStore.open(path, { readOnly: true });
      try {
        assert.equal(readOnly.readOnly, true);
        runs = 0;
        const [a, b] = await Promise.all([storeFact(readOnly, 'k', count), storeFact(readOnly, 'k', count)]);
        assert.deepEqual([a, b, await storeFact(readOnly, 'k', count)], [1, 1, 1]);
        assert.equal(await storeFact(readOnly, 'other', count), 2);
        let fail = true;
        const flaky = () => (fail ? Promise.reject(new Error('no')) : Promise.resolve('yes'));
        await assert.rejects(storeFact(readOnly, 'flaky', flaky));
        fail = false;
        assert.equal(await storeFact(readOnly, 'flaky', flaky), 'yes');
        const steps = await splitSteps(readOnly, 'ABC');
        assert.deepEqual(
          steps.map((s) => s.factor),
          [2, 8],
        );
        assert.equal(await splitSteps(readOnly, 'ABC'), steps);
      } finally {
        readOnly.close();
      }
    });
  });
});
