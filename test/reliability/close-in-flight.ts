/**
 * Starts the server over `<db>` (which it opens, and so closes), sends heavy requests, drops them while
 * their queries run, and closes the server; twice. The process must then exit by itself: a close
 * that leaves queries running on a closed store hangs or crashes it. Prints `done` before exiting.
 *
 * Usage: node --import tsx test/reliability/close-in-flight.ts <db>
 */
import { startServer } from '../../src/server/index.js';

const db = process.argv[2];
if (!db) throw new Error('usage: close-in-flight.ts <db>');

for (let round = 0; round < 2; round++) {
  const server = await startServer({ db, port: 0, log: () => {} });
  const controllers: AbortController[] = [];
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < 15; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    pending.push(
      fetch(`${server.url}/v2/aggs/ticker/SPY/range/1/second/2013-10-07/2013-10-11?limit=50000`, {
        headers: { authorization: 'Bearer k' },
        signal: controller.signal,
      }).catch(() => undefined),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const controller of controllers) controller.abort();
  await Promise.all(pending);
  await server.close();
}
process.stdout.write('done\n');
