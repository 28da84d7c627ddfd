/**
 * Idle keep-alive connections: the server keeps them open well past a client's own idle limit, so a
 * client reusing one never races the server closing it (a reset on a loaded machine).
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { test } from 'node:test';
import { startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';

function get(agent: Agent, url: string): Promise<{ status: number; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: 'Bearer k' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('an idle keep-alive connection outlives a 5 s pause and is reused; the hint names the server limit', async (t) => {
  const store = await DuckDbStore.open(':memory:');
  const server = await startServer({ store, port: 0, log: () => {} });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(async () => {
    agent.destroy();
    await server.close();
    store.close();
  });
  const url = `${server.url}/v1/marketstatus/now`;
  const first = await get(agent, url);
  assert.equal(first.status, 200);
  let closed = false;
  (first.socket as NodeJS.EventEmitter).once('close', () => {
    closed = true;
  });
  // Node's default would close the connection after 5 s idle.
  await new Promise((resolve) => setTimeout(resolve, 6000));
  assert.equal(closed, false, 'the server kept the idle connection open');
  const second = await get(agent, url);
  assert.equal(second.status, 200);
  assert.equal(second.socket, first.socket, 'the same connection answered');
});
