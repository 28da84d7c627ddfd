import { Worker } from 'node:worker_threads';
import { tsxEsmApi } from '../../src/core/tsx-loader.js';

/**
 * Starts a worker thread running a TypeScript module of the test suite. Node 20 workers do not inherit
 * tsx's loader, so the worker registers it before importing the module.
 */
export function startTsWorker(entry: URL, workerData?: unknown): Worker {
  const tsx = tsxEsmApi(import.meta.url);
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`,
    { eval: true, workerData },
  );
}
