import { once } from 'node:events';
import { startTsWorker } from './ts-worker.js';

/** The mdq server over a store file, running on its own thread. */
export interface ServerThread {
  url: string;
  stop(): Promise<void>;
}

/** Starts the mdq server over `db` on a worker thread (read-only when the file exists). */
export async function startServerThread(db: string): Promise<ServerThread> {
  const worker = startTsWorker(new URL('./server-thread-worker.ts', import.meta.url), { db });
  const [ready] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([e]) => Promise.reject(e)),
  ])) as [{ url: string }];
  return {
    url: ready.url,
    async stop() {
      worker.postMessage('stop');
      await once(worker, 'message');
      await worker.terminate();
    },
  };
}
