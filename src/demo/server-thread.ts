import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** The local server running on a worker thread of this process. */
export interface ServerThread {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops the server and the thread. */
  close(): Promise<void>;
}

/**
 * The server module to load in the worker: the TypeScript source beside this file, or the built
 * `dist/server/index.js` (this code is bundled into `dist/cli/main.js` or a chunk of `dist/`).
 */
function serverModule(): { url: string; tsx?: string } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const require = createRequire(here);
    const manifestPath = require.resolve('tsx/package.json');
    const manifest = require(manifestPath) as { exports: Record<string, { import: { default: string } }> };
    const api = manifest.exports['./esm/api']?.import.default as string;
    return {
      url: new URL('../server/index.ts', here).href,
      tsx: pathToFileURL(join(dirname(manifestPath), api)).href,
    };
  }
  const ext = here.endsWith('.cjs') ? 'cjs' : 'js';
  for (const rel of [`./server/index.${ext}`, `../server/index.${ext}`]) {
    const candidate = new URL(rel, here);
    if (existsSync(fileURLToPath(candidate))) return { url: candidate.href };
  }
  throw new Error(`The built server module was not found beside ${here}`);
}

/**
 * Starts the local server over the store file `db` on a worker thread. The demo needs the server off
 * the main thread because the synchronous client blocks its calling thread until each answer arrives:
 * a server on that same thread could never answer.
 */
export function startServerThread(db: string): Promise<ServerThread> {
  const mod = serverModule();
  const load = mod.tsx
    ? `import(${JSON.stringify(mod.tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(mod.url)}); })`
    : `import(${JSON.stringify(mod.url)})`;
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    ${load}
      .then((m) => m.startServer({ db: workerData.db, host: '127.0.0.1', port: 0, log: () => {} }))
      .then((server) => {
        parentPort.on('message', () => server.close().then(() => parentPort.postMessage({ closed: true })));
        parentPort.postMessage({ url: server.url });
      })
      .catch((error) => parentPort.postMessage({ error: String((error && error.stack) || error) }));`;
  const worker = new Worker(code, { eval: true, workerData: { db } });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (msg: { url?: string; error?: string }) => {
      if (msg.error !== undefined || msg.url === undefined) {
        void worker.terminate();
        reject(new Error(`The local server did not start: ${msg.error ?? 'no address'}`));
        return;
      }
      resolve({
        url: msg.url,
        close: () =>
          new Promise<void>((done) => {
            worker.once('message', () => void worker.terminate().then(() => done()));
            worker.postMessage('close');
          }),
      });
    });
  });
}
