import type { IncomingHttpHeaders } from 'node:http';
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from './ts-worker.js';

/** One request the server received. */
export interface SeenRequest {
  method: string;
  /** Path exactly as sent (percent-encoding kept). */
  path: string;
  /** Query parameters in the order sent. */
  query: [string, string][];
  headers: IncomingHttpHeaders;
  /** Arrival time in milliseconds: `performance.timeOrigin + performance.now()` on the server's thread. */
  at: number;
}

/**
 * A loopback HTTP server, on its own thread, that records every request and answers with a named
 * handler of `server-handlers.ts`. Its own thread lets the synchronous clients, which block the test's
 * thread while they wait, be tested against it.
 */
export class RecordingServer {
  url = '';
  #worker: Worker | undefined;
  #next = 1;
  readonly #waiting = new Map<number, (m: any) => void>();

  async start(): Promise<this> {
    this.#worker = startTsWorker(new URL('./recording-server-worker.ts', import.meta.url));
    this.#worker.on('message', (m: { id: number }) => {
      this.#waiting.get(m.id)?.(m);
      this.#waiting.delete(m.id);
    });
    const ready = await new Promise<{ url: string }>((resolve) => this.#waiting.set(0, resolve));
    this.url = ready.url;
    return this;
  }

  #send(message: Record<string, unknown>): Promise<any> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#worker?.postMessage({ ...message, id });
    });
  }

  /** Answers every request with this body (and status) from now on. */
  respond(body: string, status = 200, headers: Record<string, string> = {}): Promise<void> {
    return this.#send({ type: 'use', handler: 'fixed', config: { body, status, headers } });
  }

  /** Answers with a named handler of `server-handlers.ts`. */
  use(handler: string, config?: unknown): Promise<void> {
    return this.#send({ type: 'use', handler, config });
  }

  /** The requests received since the last call, in order. */
  async take(): Promise<SeenRequest[]> {
    return ((await this.#send({ type: 'take' })) as { requests: SeenRequest[] }).requests;
  }

  async stop(): Promise<void> {
    await this.#send({ type: 'stop' });
    await this.#worker?.terminate();
  }
}
