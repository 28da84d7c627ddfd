/**
 * The local server over a synthetic store, behind the fault proxy, in a worker thread: the synchronous
 * client blocks the main thread while it waits, so whatever answers it must run elsewhere.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { type FaultKind, type FaultProxyOptions, startFaultProxy } from '../support/fault-proxy.js';
import { writeSyntheticMinuteBars } from './synthetic-store.js';

/** What the thread builds. */
export interface FaultStackOptions {
  /** Synthetic minute bars from this day… */
  from: string;
  /** …to this day. */
  to: string;
  /** API key the server accepts. */
  apiKey: string;
  /** Proxy options other than `upstream`. */
  proxy: Omit<FaultProxyOptions, 'upstream'>;
}

/** A running stack. */
export interface FaultStack {
  /** The server, without faults. */
  readonly serverUrl: string;
  /** The fault proxy in front of it. */
  readonly proxyUrl: string;
  /** Faults injected so far by kind. */
  injected(): Promise<Record<FaultKind, number>>;
  close(): Promise<void>;
}

/** Starts the server and proxy in a worker thread. */
export async function startFaultStackThread(options: FaultStackOptions): Promise<FaultStack> {
  const self = import.meta.url;
  const bootstrap = self.endsWith('.ts')
    ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(self)}); })`
    : `import(${JSON.stringify(self)})`;
  const worker = new Worker(bootstrap, { eval: true, workerData: { faultStack: options } });
  const urls = await new Promise<{ serverUrl: string; proxyUrl: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    ...urls,
    injected() {
      return new Promise((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('injected');
      });
    },
    async close() {
      await new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.postMessage('close');
      });
      await worker.terminate();
    },
  };
}

const job = !isMainThread ? (workerData as { faultStack?: FaultStackOptions } | null)?.faultStack : undefined;
if (job && parentPort) {
  const port = parentPort;
  const store = await DuckDbStore.open(':memory:');
  await writeSyntheticMinuteBars(store, job.from, job.to);
  const server = await startServer({ store, port: 0, apiKeys: [job.apiKey], log: () => {} });
  const proxy = await startFaultProxy({ ...job.proxy, upstream: server.url });
  port.on('message', async (message) => {
    if (message === 'injected') port.postMessage({ ...proxy.injected });
    if (message === 'close') {
      await proxy.close();
      await server.close();
      store.close();
      port.postMessage('closed');
    }
  });
  port.postMessage({ serverUrl: server.url, proxyUrl: proxy.url });
}
