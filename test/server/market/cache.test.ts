import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cachingStore } from '../../../src/server/market/cache.js';
import { Store } from '../../../src/server/store/store.js';

// A writable in-memory store stands in for a read-only one: writing through the underlying store shows
// which answers come from the cache (they keep the old value).
describe('cachingStore', () => {
  let store: Store;
  before(async () => {
    store = await Store.open(':memory:');
    await store.run('CREATE TABLE kv (k INTEGER, v DOUBLE)');
    await store.run('INSERT INTO kv SELECT i, i * 1.5 FROM range(20) r(i)');
  });
  after(() => store.close());

  const setV = (k: number, v: number) => store.run('UPDATE kv SET v = $2 WHERE k = $1', [k, v]);

  test('answers a repeated query (same SQL, same parameters) from the cache, by row and by column', async () => {
    const cached = cachingStore(store);
    const sql = 'SELECT k, v FROM kv WHERE k = $1';
    assert.deepEqual(await cached.all(sql, [3]), [{ k: 3, v: 4.5 }]);
    assert.deepEqual(await cached.columns(sql, [3]), { k: [3], v: [4.5] });
    await setV(3, 99);
    assert.deepEqual(await cached.all(sql, [3]), [{ k: 3, v: 4.5 }]);
    assert.deepEqual(await cached.columns(sql, [3]), { k: [3], v: [4.5] });
    // Other parameters, or a parameter of another type, are another query.
    assert.deepEqual(await cached.all(sql, [4]), [{ k: 4, v: 6 }]);
    assert.deepEqual(await cached.columns(sql, ['3']), { k: [3], v: [99] });
    await setV(3, 4.5);
  });

  test('each caller gets its own row array', async () => {
    const cached = cachingStore(store);
    const sql = 'SELECT k FROM kv WHERE k < 3 ORDER BY k';
    const first = await cached.all<{ k: number }>(sql);
    first.reverse();
    assert.deepEqual(
      (await cached.all<{ k: number }>(sql)).map((r) => r.k),
      [0, 1, 2],
    );
  });

  test('concurrent identical queries share one execution', async () => {
    let runs = 0;
    const counting = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'columns') {
          return (sql: string, params?: []) => {
            runs++;
            return target.columns(sql, params);
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const cached = cachingStore(counting);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => cached.columns('SELECT count(*) AS n FROM kv')),
    );
    assert.equal(runs, 1);
    for (const r of results) assert.deepEqual(r, { n: [20n] });
  });

  test('does not keep results with more rows than maxRows, nor failures', async () => {
    const cached = cachingStore(store, { maxRows: 5 });
    const big = 'SELECT k, v FROM kv WHERE k < 10 ORDER BY k';
    assert.equal((await cached.columns<{ v: number }>(big)).v[0], 0);
    await setV(0, 7);
    assert.equal((await cached.columns<{ v: number }>(big)).v[0], 7);
    assert.equal((await cached.all<{ v: number }>(big))[0]?.v, 7);
    await setV(0, 0);
    await assert.rejects(cached.all('SELECT nope FROM kv LIMIT 1'));
    await store.run('ALTER TABLE kv ADD COLUMN nope INTEGER DEFAULT 1');
    try {
      assert.deepEqual(await cached.all('SELECT nope FROM kv LIMIT 1'), [{ nope: 1 }]);
    } finally {
      await store.run('ALTER TABLE kv DROP COLUMN nope');
    }
  });

  test('drops the least recently used result beyond maxEntries', async () => {
    const cached = cachingStore(store, { maxEntries: 2 });
    const q = (k: number) => cached.all<{ v: number }>('SELECT v FROM kv WHERE k = $1', [k]);
    await q(1);
    await q(2);
    await q(1); // 1 is now the most recently used
    await q(5); // drops 2
    await setV(1, 100);
    await setV(2, 200);
    try {
      assert.equal((await q(1))[0]?.v, 1.5);
      assert.equal((await q(2))[0]?.v, 200);
    } finally {
      await setV(1, 1.5);
      await setV(2, 3);
    }
  });
});
