import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { tsxEsmApi } from '../core/tsx-loader.js';
import type { StartServerOptions } from './index.js';

/**
 * The young generation of the server's thread, in MiB. Answers of tens of thousands of bars, several in
 * flight at once, outgrow Node's default (48 MiB): their objects then survive into the old generation,
 * whose collections cost more than the work. At this size the server's garbage collection for a year
 * of minute bars in 45-day chunks took 103 ms instead of 320 (BENCHMARKS.md, "Speed, third round").
 */
export const YOUNG_GENERATION_MB = 192;

/** Options of {@link startServerThread}: those of `startServer` that can cross to another thread. */
export interface ServerThreadOptions extends Omit<StartServerOptions, 'store' | 'log'> {
  /** Where the store is: `duckdb:PATH` or `clickhouse://…` (see `StartServerOptions.store`). */
  store?: string;
  /** Where the server's log lines go. @default console.error */
  log?: (line: string) => void;
  /** @default YOUNG_GENERATION_MB */
  youngGenerationMb?: number;
}

/** The local server running on a worker thread of this process. */
export interface ServerThread {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string;
  /** The young generation of the thread's heap, in MiB, as Node reports its limits. */
  readonly youngGenerationMb: number;
  /**
   * Settles when the thread has ended: after `close()`, or on its own if the server failed (the reason
   * went to `log`); gives the thread's exit code.
   */
  readonly ended: Promise<number>;
  /** Stops the server (as `RunningServer.close` does), then the thread. */
  close(): Promise<void>;
}

/**
 * Starts the local server on a worker thread with its own heap, sized for large answers: what
 * `mdq serve` and the demo run. The demo needs the server off the main thread anyway, because the
 * synchronous client blocks its calling thread until each answer arrives.
 */
export function startServerThread(options: ServerThreadOptions = {}): Promise<ServerThread> {
  const {
    log = (line: string) => console.error(line),
    youngGenerationMb = YOUNG_GENERATION_MB,
    ...start
  } = options;
  const mod = serverModule();
  const load = mod.tsx
    ? `import(${JSON.stringify(mod.tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(mod.url)}); })`
    : `import(${JSON.stringify(mod.url)})`;
  // Only dynamic imports: the code runs as CommonJS or, under --input-type=module, as a module.
  const code = `
    import('node:worker_threads').then(({ parentPort, workerData }) => ${load}
      .then((m) => m.startServer({ ...workerData, log: (line) => parentPort.postMessage({ log: line }) }))
      .then((server) => {
        parentPort.on('message', () => server.close().then(() => parentPort.postMessage({ closed: true })));
        parentPort.postMessage({ url: server.url });
      })
      .catch((error) => parentPort.postMessage({ error: (error && error.message) || String(error) })));`;
  const worker = new Worker(code, {
    eval: true,
    workerData: start,
    resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
  });
  type Message = { url?: string; error?: string; log?: string; closed?: boolean };
  let started = false;
  const ended = new Promise<number>((resolve) => worker.once('exit', resolve));
  return new Promise((resolve, reject) => {
    worker.on('error', (error) => {
      if (!started) reject(new Error(`The local server did not start: ${error.message}`));
      else log(`The server's thread failed: ${error.message}`);
    });
    void ended.then((code) => {
      if (!started) reject(new Error(`The local server did not start: its thread exited with code ${code}`));
    });
    worker.on('message', (msg: Message) => {
      if (msg.log !== undefined) log(msg.log);
      else if (msg.closed) void worker.terminate();
      else if (msg.url !== undefined) {
        started = true;
        resolve({
          url: msg.url,
          youngGenerationMb: worker.resourceLimits?.maxYoungGenerationSizeMb ?? 0,
          ended,
          close: async () => {
            // A thread that has already ended has nothing to stop.
            worker.postMessage('close');
            await ended;
          },
        });
      } else {
        void worker.terminate();
        reject(new Error(`The local server did not start: ${msg.error ?? 'no address'}`));
      }
    });
  });
}

/**
 * The server module to load in the worker: the TypeScript source beside this file, or the built
 * `dist/server/index.js` (this code is bundled into it, into `dist/cli/main.js` or into a chunk of
 * `dist/`).
 */
function serverModule(): { url: string; tsx?: string } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return { url: new URL('./index.ts', here).href, tsx: tsxEsmApi(here) };
  const ext = here.endsWith('.cjs') ? 'cjs' : 'js';
  for (const rel of [`./server/index.${ext}`, `../server/index.${ext}`]) {
    const candidate = new URL(rel, here);
    if (existsSync(fileURLToPath(candidate))) return { url: candidate.href };
  }
  throw new Error(`The built server module was not found beside ${here}`);
}
