/**
 * `next_url` links are built on the server's own origin: a request addressed with a forged Host header
 * gets links to the server, never to the forged host (nor does the kept answer carry them to others).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { startServer } from '../../src/server/index.js';
import { openTestStore } from '../support/store.js';

/** GETs `path` from `url`'s server with the given Host header; the parsed JSON body. */
function getWithHost(url: string, path: string, host: string): Promise<Record<string, unknown>> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path, headers: { host, authorization: 'Bearer k' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve(JSON.parse(body) as Record<string, unknown>));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('next_url: a forged Host never makes the link; the server’s own names do', async (t) => {
  const store = await openTestStore(t);
  if (!store) return;
  const server = await startServer({ store, port: 0, cache: true, log: () => {} });
  try {
    const path = '/v3/trades/SPY?limit=2';
    const forged = await getWithHost(server.url, path, 'evil.example:8765');
    assert.equal(typeof forged.next_url, 'string');
    assert.equal(new URL(forged.next_url as string).origin, server.url);
    // The answer kept for the forged request does not leak into anyone else's.
    const own = await getWithHost(server.url, path, new URL(server.url).host);
    assert.equal(new URL(own.next_url as string).origin, server.url);
    const local = `localhost:${server.port}`;
    const byName = await getWithHost(server.url, path, local);
    assert.equal(new URL(byName.next_url as string).origin, `http://${local}`);
    // A proxy of this machine in front of a loopback server: its links lead back through the proxy.
    const proxied = await getWithHost(server.url, path, '127.0.0.1:40001');
    assert.equal(new URL(proxied.next_url as string).origin, 'http://127.0.0.1:40001');
    const elsewhere = await getWithHost(server.url, path, '127.0.0.1.evil.example:40001');
    assert.equal(new URL(elsewhere.next_url as string).origin, server.url);
  } finally {
    await server.close();
    store.close();
  }
});

test('next_url: publicUrl names the origin whatever the Host', async (t) => {
  const store = await openTestStore(t);
  if (!store) return;
  const server = await startServer({
    store,
    port: 0,
    publicUrl: 'https://market.example.org/',
    log: () => {},
  });
  try {
    const body = await getWithHost(server.url, '/v3/trades/SPY?limit=2', 'evil.example');
    assert.match(body.next_url as string, /^https:\/\/market\.example\.org\/v3\/trades\/SPY\?cursor=/);
  } finally {
    await server.close();
    store.close();
  }
  await assert.rejects(startServer({ store, port: 0, publicUrl: 'ftp://x', log: () => {} }), /publicUrl/);
});
