import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { approxBytes } from '../../../src/server/approx-bytes.js';
import { cachingStore, QueryCache } from '../../../src/server/market/cache.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';

// A writable in-memory store stands in for a read-only one: writing through the underlying store shows
// which answers come from the cache (they keep the old value).
describe('cachingStore', () => {
  let store: DuckDbStore;
  before(async () => {
    store = await DuckDbStore.open(':memory:');
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

  test('does not keep a result larger than maxEntryBytes, nor failures', async () => {
    const big = 'SELECT k, v FROM kv WHERE k < 10 ORDER BY k';
    const cached = cachingStore(store, { maxEntryBytes: approxBytes(await store.columns(big)) });
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

  test('drops the least recently used result beyond maxBytes', async () => {
    const sql = 'SELECT v FROM kv WHERE k = $1';
    // Room for two such results and their keys, not three.
    const one = 160 + 32 + `rows\u0000${sql}\u0000number:1`.length + approxBytes([{ v: 1.5 }]);
    const cached = cachingStore(store, { maxBytes: 2 * one + 10 });
    const q = (k: number) => cached.all<{ v: number }>(sql, [k]);
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

  test('a stream of distinct heavy results, or of long keys, stays within maxBytes', async () => {
    await store.run(
      "CREATE TABLE wide AS SELECT i AS k, i * 0.25 AS price, 'T' || i AS id, [12, 37] AS conditions FROM range(3000) r(i)",
    );
    try {
      const budget = 2 * 2 ** 20;
      const cache = new QueryCache({ maxBytes: budget });
      const cached = cachingStore(store, cache);
      let peak = 0;
      for (let i = 0; i < 60; i++) {
        const rows = await cached.all('SELECT * FROM wide WHERE k >= $1 ORDER BY k LIMIT 2000', [i]);
        assert.equal(rows.length, 2000);
        await cached.columns('SELECT * FROM wide WHERE k >= $1 ORDER BY k LIMIT 2000', [i]);
        peak = Math.max(peak, cache.bytes);
      }
      // 120 results of about 0.2-0.4 MiB each were asked for: only the budget's worth is kept.
      assert.ok(peak <= budget, `${peak} bytes kept, over the ${budget} budget`);
      assert.ok(cache.size > 1 && cache.bytes > budget / 2, 'recent results are still kept');
      // Keys count too: long distinct keys with tiny results do not grow the cache past its budget.
      const padding = 'x'.repeat(100_000);
      for (let i = 0; i < 60; i++) {
        await cached.all("SELECT k FROM wide WHERE k = $1 AND $2 <> ''", [i, `${padding}${i}`]);
        peak = Math.max(peak, cache.bytes);
      }
      assert.ok(peak <= budget, `${peak} bytes kept, over the ${budget} budget`);
    } finally {
      await store.run('DROP TABLE wide');
    }
  });
});
