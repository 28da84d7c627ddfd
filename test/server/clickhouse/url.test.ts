/** `--store clickhouse://…` URLs: what they point at, and errors that name the value but never a password. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inline, parseClickHouseUrl } from '../../../src/server/store/clickhouse-store.js';

describe('ClickHouse store URL and literals', () => {
  test('reads user, password, host, port and database, with defaults', () => {
    assert.deepEqual(parseClickHouseUrl('clickhouse://ana:s%40cret@db.example:9000/market'), {
      url: 'http://db.example:9000',
      username: 'ana',
      password: 's@cret',
      database: 'market',
    });
    assert.deepEqual(parseClickHouseUrl('clickhouse://localhost'), {
      url: 'http://localhost:8123',
      username: 'default',
      password: '',
      database: 'default',
    });
    assert.equal(parseClickHouseUrl('clickhouse://u@[::1]:8123/db').url, 'http://[::1]:8123');
  });

  test('a bad URL is refused with the value, its password masked, and the form expected', () => {
    for (const bad of [
      'http://x:8123/db',
      'clickhouse://u:hunter2@h/db;drop',
      'clickhouse://u:hunter2@h/a/b',
    ]) {
      assert.throws(
        () => parseClickHouseUrl(bad),
        (e: Error) =>
          e.message.startsWith('Invalid store: "') &&
          e.message.includes('expected clickhouse://user:password@host:8123/database') &&
          !e.message.includes('hunter2'),
        bad,
      );
    }
  });

  test('parameters become literals of their type; quotes and backslashes stay inside the string', () => {
    assert.equal(
      inline("SELECT $1, $2, $3, $4, '$1' FROM t LIMIT $5", ["a'b\\", 12n, 1.5, null, 10]),
      "SELECT 'a\\'b\\\\', 12, toFloat64(1.5), NULL, '$1' FROM t LIMIT 10",
    );
    assert.throws(() => inline('SELECT $2', [1]), /\$2 is not bound/);
  });
});
