/**
 * A modelled wide-area link in front of a local server, run as its own process: what a client of a
 * remote service waits for without using its own cores. A request reaches the server half a round trip
 * late and its answer starts half a round trip later; a connection's first request waits one more round
 * trip (the TCP handshake); each answer's body arrives at no more than the given rate per connection
 * (what one connection gets from the network and from a service generating the body). Prints one JSON
 * line `{ "url": ... }` on stdout once listening; stops on SIGTERM or when stdin closes.
 *
 * Usage: node --import tsx bench/link-process.ts <upstream url> <round trip ms> <Mbit/s per connection>
 */
import { Agent, createServer, request } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const [upstreamArg, rttArg, mbitArg] = process.argv.slice(2);
if (!upstreamArg || !rttArg || !mbitArg) {
  throw new Error('usage: link-process.ts <upstream url> <round trip ms> <Mbit/s per connection>');
}
const upstream = new URL(upstreamArg);
const rttMs = Number(rttArg);
const bytesPerMs = (Number(mbitArg) * 1e6) / 8 / 1000;
/** Bodies are paced in slices of this size. */
const SLICE = 16 * 1024;

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const handshakeDone = new WeakSet<Socket>();

const server = createServer(async (req, res) => {
  const handshake = handshakeDone.has(req.socket) ? 0 : rttMs;
  handshakeDone.add(req.socket);
  await sleep(handshake + rttMs / 2);
  const up = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      path: req.url,
      method: req.method,
      headers: req.headers,
      agent,
    },
    async (answer) => {
      await sleep(rttMs / 2);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const start = performance.now();
      let sent = 0;
      for await (const chunk of answer as AsyncIterable<Buffer>) {
        for (let at = 0; at < chunk.length; at += SLICE) {
          const slice = chunk.subarray(at, at + SLICE);
          sent += slice.length;
          const wait = start + sent / bytesPerMs - performance.now();
          if (wait >= 1) await sleep(wait);
          if (!res.write(slice)) await new Promise((resolve) => res.once('drain', resolve));
        }
      }
      res.end();
    },
  );
  up.on('error', () => res.destroy());
  req.pipe(up);
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
const shutdown = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.stdin.on('end', shutdown);
process.stdin.resume();
