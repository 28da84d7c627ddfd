/**
 * The modelled link that benchmark 1 also runs over (bench/link-process.ts): it passes requests and
 * answers through unchanged (the Host header too, so a server's `next_url` points back at the link),
 * and an answer never arrives sooner than its round trips and its body at the modelled rate allow.
 * Only lower bounds are asserted: a busy machine can make the link slower, never faster.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { type Child, spawnReady } from '../../bench/measure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RTT_MS = 100;
const MBIT = 20;
const BODY = randomBytes(256 * 1024);
/** The body at the modelled rate: 262 144 bytes × 8 / 20 Mbit/s ≈ 105 ms. */
const TRANSFER_MS = (BODY.length * 8) / (MBIT * 1000);

let upstream: Server;
let link: Child<{ url: string }>;
const hostsSeen: string[] = [];

before(async () => {
  upstream = createServer((req, res) => {
    hostsSeen.push(req.headers.host ?? '');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-path': req.url ?? '' });
    res.end(BODY);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as { port: number };
  link = await spawnReady(join(ROOT, 'bench', 'link-process.ts'), [
    `http://127.0.0.1:${port}`,
    String(RTT_MS),
    String(MBIT),
  ]);
});

after(async () => {
  await link?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

test('answers pass through whole, with the Host header of the link', async () => {
  const pool = new Pool(link.ready.url, { connections: 1 });
  try {
    const res = await pool.request({ path: '/v2/x?y=1', method: 'GET' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-path'], '/v2/x?y=1');
    assert.deepEqual(Buffer.from(await res.body.arrayBuffer()), BODY);
    assert.equal(hostsSeen.at(-1), new URL(link.ready.url).host);
  } finally {
    await pool.close();
  }
});

test('a new connection waits a handshake and a round trip, then the body at the modelled rate', async () => {
  const pool = new Pool(link.ready.url, { connections: 1 });
  try {
    const timeOne = async () => {
      const start = performance.now();
      const res = await pool.request({ path: '/', method: 'GET' });
      await res.body.arrayBuffer();
      return performance.now() - start;
    };
    const first = await timeOne();
    const second = await timeOne();
    // Timers may fire up to a millisecond early on each wait.
    assert.ok(first >= 2 * RTT_MS + TRANSFER_MS - 3, `first request took ${first.toFixed(1)} ms`);
    assert.ok(second >= RTT_MS + TRANSFER_MS - 3, `second request took ${second.toFixed(1)} ms`);
  } finally {
    await pool.close();
  }
});
