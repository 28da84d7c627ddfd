import { parentPort, workerData } from 'node:worker_threads';
import { startServer } from '../../src/server/index.js';

// The mdq server on its own thread, so that a synchronous client blocking the test's thread is answered.
const server = await startServer({ db: (workerData as { db: string }).db, port: 0, log: () => {} });
parentPort?.postMessage({ url: server.url });
parentPort?.on('message', async () => {
  await server.close();
  parentPort?.postMessage({ closed: true });
});
