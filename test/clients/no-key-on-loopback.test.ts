/**
 * A local server started without keys needs no key from a client on the same machine: the clients
 * send none when their base URL is loopback and no key is given, and the server accepts a request
 * without a key from a loopback peer. Anywhere else a key is still required.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resolveClientOptions } from '../../src/core/client-options.js';
import { isLoopback } from '../../src/core/loopback.js';
import { isMdqError, ReferenceClient, StocksClient } from '../../src/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { type ServerThread, startServerThread } from '../../src/server/thread.js';

const dir = mkdtempSync(join(tmpdir(), 'mdq-nokey-'));
// On threads of their own: the sync client blocks this thread while it waits.
let open: ServerThread;
let keyed: ServerThread;
const saved = { ...process.env };

before(async () => {
  for (const name of ['MASSIVE_API_KEY', 'POLYGON_API_KEY', 'MDQ_BASE_URL']) delete process.env[name];
  const db = join(dir, 'store.duckdb');
  (await DuckDbStore.open(db)).close();
  open = await startServerThread({ db, port: 0, log: () => {} });
  keyed = await startServerThread({ db, port: 0, apiKeys: ['the-key'], log: () => {} });
});
after(async () => {
  await open.close();
  await keyed.close();
  rmSync(dir, { recursive: true, force: true });
  Object.assign(process.env, saved);
});

const port = (server: ServerThread) => new URL(server.url).port;

describe('no key against a local server', () => {
  test('loopback names and addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
      assert.ok(isLoopback(host), host);
    for (const host of ['10.0.0.1', 'api.massive.com', '::ffff:10.0.0.1', 'localhost.example.com'])
      assert.ok(!isLoopback(host), host);
  });

  test('the async and sync clients work with no key on 127.0.0.1 and localhost', async () => {
    for (const baseUrl of [open.url, `http://localhost:${port(open)}`]) {
      const reference = ReferenceClient(undefined, { baseUrl, useAsync: true });
      try {
        assert.equal((await reference.getMarketStatus()).market !== undefined, true, baseUrl);
      } finally {
        await reference.close();
      }
      const sync = ReferenceClient(null, { baseUrl });
      try {
        assert.equal(sync.getMarketStatus().market !== undefined, true, baseUrl);
      } finally {
        sync.close();
      }
    }
  });

  test('a request without a key from loopback is answered; a server with keys still refuses it', async () => {
    const plain = await fetch(`${open.url}/v1/marketstatus/now`);
    assert.equal(plain.status, 200);
    const refused = await fetch(`${keyed.url}/v1/marketstatus/now`);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { error: string }).error, 'API Key was not provided');
    const client = StocksClient(undefined, { baseUrl: keyed.url, useAsync: true, maxRetries: 0 });
    try {
      await assert.rejects(
        client.getPreviousClose('AAPL'),
        (e: unknown) => isMdqError(e) && e.name === 'AuthenticationError',
      );
    } finally {
      await client.close();
    }
  });

  test('a key is still required for any other base URL, before any request', () => {
    for (const baseUrl of [
      'https://api.massive.com',
      'http://10.0.0.1:8765',
      'http://localhost.example.com',
    ]) {
      assert.throws(
        () => resolveClientOptions(undefined, { baseUrl }),
        { name: 'MissingApiKeyError' },
        baseUrl,
      );
    }
    assert.equal(resolveClientOptions(undefined, { baseUrl: open.url }).apiKey, '');
    assert.equal(resolveClientOptions('given', { baseUrl: open.url }).apiKey, 'given');
  });
});
