/**
 * A kept-alive connection the server closes as a request goes out on it: the ClickHouse store sends
 * a read or a DDL statement again on a new connection, and an INSERT never (the server may have run
 * it). The closing is injected by a TCP proxy in front of a real server, which closes the connection
 * the request came on without forwarding a byte of it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { startClickHouse } from '../../support/clickhouse.js';
import { startDropProxy } from '../../support/tcp-drop-proxy.js';

test('a closed kept-alive connection: reads and DDL are sent again, an INSERT fails and is not doubled', {
  timeout: 120_000,
}, async (t) => {
  const servers = await startClickHouse(t);
  if (!servers) return;
  const port = Number(new URL((servers.urls[0] as string).replace('clickhouse:', 'http:')).port);
  const proxy = await startDropProxy(port);
  t.after(() => proxy.close());
  const store = await ClickHouseStore.open(`clickhouse://default@127.0.0.1:${proxy.port}/default`);
  t.after(() => store.close());
  await store.run('CREATE TABLE resets (n UInt32) ENGINE = MergeTree ORDER BY n');
  const connections = proxy.connections;

  // A read on the kept-alive connection, closed unread: answered over a new connection.
  proxy.closeOnNextRequest();
  assert.deepEqual(await store.all('SELECT 41 + 1 AS n'), [{ n: 42 }]);
  assert.equal(proxy.closedUnread, 1);
  assert.equal(proxy.connections, connections + 1, 'the read went again, on a new connection');

  // A DDL statement likewise.
  proxy.closeOnNextRequest();
  await store.run('DROP TABLE IF EXISTS no_such_table');
  assert.equal(proxy.closedUnread, 2);

  // An INSERT is not sent again: the caller hears of the reset, and the row is there once at most.
  proxy.closeOnNextRequest();
  await assert.rejects(store.run('INSERT INTO resets VALUES (1)'), (e: NodeJS.ErrnoException) => {
    assert.equal(e.code, 'ECONNRESET');
    return true;
  });
  assert.equal(proxy.closedUnread, 3);
  assert.deepEqual(await store.all('SELECT count() AS rows FROM resets'), [{ rows: 0n }]);
  await store.run('INSERT INTO resets VALUES (1)');
  assert.deepEqual(await store.all('SELECT count() AS rows FROM resets'), [{ rows: 1n }]);
});
