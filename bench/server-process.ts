/**
 * A server for the benchmarks, run as its own process so that client and server do not share an event
 * loop. Prints one JSON line `{ "url": ... }` on stdout once listening; stops on SIGTERM or when stdin
 * closes.
 *
 * Usage: node --import tsx bench/server-process.ts <mode> [arg]
 * - `synthetic <db> <from> <to> [cache]`: the mdq server over a store with synthetic minute bars of SYNTH
 *   from `<from>` to `<to>`, a few trades on 2023-12-29 and 200 000 trades of HEAVY on 2023-12-28 (built
 *   into `<db>` when absent); with `cache`,
 *   the server's caches are on (as `mdq serve` has them).
 * - `store <db>`: the mdq server over an existing store, caches off.
 * - `upstream <db> <url>`: a caching server (`mdq serve --upstream <url>`) over `<db>` (created when absent).
 * - `bare`: a bare Hono app answering `GET /<n>` with a constant JSON body of n bytes (cached per size).
 * - `replay <db> <from>`: the mdq server over an existing store, replaying its ticks over WebSocket from
 *   `<from>` at `max` speed.
 * - `feed <file>`: a bare `ws` server on `/stocks` that answers `auth` and `subscribe` and then sends the
 *   messages of `<file>` (one JSON message a line, already encoded) as fast as the socket takes them.
 *
 * The mdq server runs as `mdq serve` runs it: on its own thread (`startServerThread`), opening the file
 * read-only itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { WebSocketServer } from 'ws';
import { DuckDbStore, startServerThread } from '../src/server/index.js';
import { SYNTHETIC_TICKER, writeSyntheticMinuteBars } from '../test/reliability/synthetic-store.js';
import { HEAVY_TICKER, HEAVY_TRADES } from './cache-memory.js';

const [mode, arg, from = '2023-01-01', to = '2023-12-31', cache] = process.argv.slice(2);

async function buildSyntheticStore(path: string): Promise<void> {
  if (existsSync(path)) return;
  const store = await DuckDbStore.open(path);
  await writeSyntheticMinuteBars(store, from, to);
  // A few trades on the last day, so that last-trade routes answer from ticks.
  const t0 = BigInt(Date.parse('2023-12-29T20:00:00Z')) * 1_000_000n;
  await store.run(
    `INSERT INTO trades (ticker, sip_timestamp, participant_timestamp, sequence_number, price, size, exchange, conditions, id, tape)
     SELECT $1, $2 + i * 1000000, $2 + i * 1000000 - 500, i + 1, 100 + (i % 50) / 100, 100, 4, [12], CAST(i AS VARCHAR), 1
     FROM range(1000) r(i)`,
    [SYNTHETIC_TICKER, t0],
  );
  // Many trades of another ticker, for requests of 10 000 trades each over distinct windows
  // (benchmark 6): one every 10 ms over about 33 minutes of 2023-12-28.
  const heavy = BigInt(Date.parse('2023-12-28T15:00:00Z')) * 1_000_000n;
  await store.run(
    `INSERT INTO trades (ticker, sip_timestamp, participant_timestamp, sequence_number, price, size, exchange, conditions, id, tape)
     SELECT $1, $2 + i * 10000000, $2 + i * 10000000 - 500, i + 1, 50 + (i % 997) / 100, 100 + i % 7, 4, [12, 37], CAST(i AS VARCHAR), 1
     FROM range(${HEAVY_TRADES}) r(i)`,
    [HEAVY_TICKER, heavy],
  );
  store.close();
}

async function main(): Promise<() => Promise<void>> {
  if (mode === 'bare') {
    const bodies = new Map<string, string>();
    const bodyOf = (bytes: string) => {
      let body = bodies.get(bytes);
      if (body === undefined) {
        body = JSON.stringify({ status: 'OK', pad: 'x'.repeat(Math.max(0, Number(bytes) - 23)) });
        bodies.set(bytes, body);
      }
      return body;
    };
    const app = new Hono();
    app.get('/:bytes', (c) =>
      c.body(bodyOf(c.req.param('bytes')), 200, { 'content-type': 'application/json' }),
    );
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
    return () => new Promise<void>((resolve) => server.close(() => resolve()));
  }
  if (mode === 'feed' && arg) {
    const frames = readFileSync(arg, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/stocks' });
    await new Promise<void>((resolve) => wss.once('listening', resolve));
    wss.on('connection', (ws) => {
      ws.send('[{"ev":"status","status":"connected","message":"Connected Successfully"}]');
      ws.on('message', (data) => {
        const { action } = JSON.parse(data.toString()) as { action: string };
        if (action === 'auth') ws.send('[{"ev":"status","status":"auth_success","message":"authenticated"}]');
        if (action !== 'subscribe') return;
        ws.send('[{"ev":"status","status":"success","message":"subscribed"}]');
        // As the replay does: waits for the socket to take the bytes above 1 MiB queued.
        let i = 0;
        const pump = () => {
          while (i < frames.length && ws.readyState === ws.OPEN) {
            const full = ws.bufferedAmount >= 1 << 20;
            ws.send(frames[i++] as string, full ? () => pump() : undefined);
            if (full) return;
          }
        };
        pump();
      });
    });
    const { port } = wss.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ url: `ws://127.0.0.1:${port}` })}\n`);
    return () => new Promise<void>((resolve) => wss.close(() => resolve()));
  }
  if (!arg)
    throw new Error(
      'usage: server-process.ts synthetic <db> [from to] | store <db> | upstream <db> <url> | replay <db> <from> | feed <file> | bare',
    );
  if (mode === 'replay') {
    const server = await startServerThread({
      db: arg,
      port: 0,
      log: () => {},
      apiKeys: ['bench-key'],
      replayFrom: from,
      replaySpeed: 'max',
    });
    process.stdout.write(`${JSON.stringify({ url: server.url.replace(/^http/, 'ws') })}\n`);
    return () => Promise.race([server.close(), new Promise<void>((resolve) => setTimeout(resolve, 2000))]);
  }
  if (mode === 'upstream') {
    const server = await startServerThread({ db: arg, port: 0, log: () => {}, upstream: { url: from } });
    process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
    return () => server.close();
  }
  if (mode === 'synthetic') await buildSyntheticStore(arg);
  const server = await startServerThread({ db: arg, port: 0, log: () => {}, cache: cache === 'cache' });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  // Requests dropped by the load generator may still be running queries, which close() waits for; the
  // process ends right after, so it waits no more than 2 s.
  return () => Promise.race([server.close(), new Promise<void>((resolve) => setTimeout(resolve, 2000))]);
}

const stop = await main();
const shutdown = () => void stop().then(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.stdin.on('end', shutdown);
process.stdin.resume();
