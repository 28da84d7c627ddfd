/**
 * Clients that ask for a large answer and do not read it: the server queues at most about a slice per
 * connection beyond what the kernel holds, instead of a copy of the whole answer each, and a client that
 * reads later gets every byte (characters of several UTF-8 bytes across slice boundaries included).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonResponse } from '../../src/server/http.js';
import { createHttpServer } from '../../src/server/http-server.js';
import { SLICE } from '../../src/server/send-in-slices.js';

/** About 8 MB of JSON, with 2-, 3- and 4-byte characters at and around slice boundaries. */
function largeAnswer(): string {
  const results: string[] = [];
  for (let i = 0, length = 0; length < 8_000_000; i++) {
    results.push(`"é€𝄞 ${'x'.repeat(i % 97)} ${i}"`);
    length += (results.at(-1)?.length ?? 0) + 1;
  }
  // The first slice ends on the first half of a surrogate pair.
  const lead = `{"note":"${'x'.repeat(SLICE - 10)}𝄞",`;
  assert.equal(lead.charCodeAt(SLICE - 1), '𝄞'.charCodeAt(0));
  return `${lead}"results":[${results.join(',')}],"status":"OK"}`;
}

const CLIENTS = 12;

test('slow readers each hold a slice of the answer in the server, not the answer', async () => {
  const answer = largeAnswer();
  const expected = Buffer.from(answer);
  const server = createHttpServer(() => jsonResponse(answer, 200, 'id'), '127.0.0.1');
  const accepted: net.Socket[] = [];
  server.on('connection', (s) => accepted.push(s));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    const clients = Array.from({ length: CLIENTS }, () => {
      const socket = net.connect(port, '127.0.0.1');
      socket.pause();
      socket.write(`GET /big HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      return socket;
    });
    // Until every connection has stopped moving: what each then holds is all it will hold.
    let queued = -1;
    for (let same = 0; same < 5; ) {
      await sleep(100);
      const now = accepted.reduce((sum, s) => sum + s.writableLength, 0);
      same = accepted.length === CLIENTS && now === queued ? same + 1 : 0;
      queued = now;
    }
    for (const [i, s] of accepted.entries())
      assert.ok(s.writableLength <= 2 * SLICE, `connection ${i} queues ${s.writableLength} bytes`);
    assert.ok(queued <= CLIENTS * 2 * SLICE, `${queued} bytes queued in all`);

    // A slow reader that reads in the end gets the answer whole.
    const [first, ...rest] = clients;
    for (const s of rest) s.destroy();
    const chunks: Buffer[] = [];
    first?.on('data', (c: Buffer) => chunks.push(c));
    first?.resume();
    const head = `content-length: ${expected.length}\r\n`;
    while (Buffer.concat(chunks).length < expected.length + 100 || !Buffer.concat(chunks).includes(head)) {
      await sleep(50);
      const got = Buffer.concat(chunks);
      const start = got.indexOf('\r\n\r\n');
      if (start >= 0 && got.length - start - 4 >= expected.length) break;
    }
    const got = Buffer.concat(chunks);
    const start = got.indexOf('\r\n\r\n') + 4;
    assert.match(got.subarray(0, start).toString(), new RegExp(head, 'i'));
    assert.ok(got.subarray(start).equals(expected), 'the body arrives byte for byte');
    first?.destroy();
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
