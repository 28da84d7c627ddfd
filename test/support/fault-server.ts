/**
 * A loopback HTTP server that answers from a script of steps and can inject faults: error statuses,
 * delays, stalls, sockets dropped mid-body, redirects. It records every request it receives. Scripts are
 * plain data, so the same server can run in a worker thread (needed when the main thread is blocked by a
 * synchronous client).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** What the server does for one request. */
export interface Step {
  /**
   * - `respond` (default): send `status`, `headers`, `body` after `delayMs`.
   * - `drop-mid-body`: send the headers (with the full `content-length`) and half of `body`, then destroy
   *   the socket.
   * - `stall`: never answer.
   * - `stall-body`: send the headers and half of `body`, then never send the rest.
   * - `destroy`: destroy the socket without answering.
   * - `echo`: answer 200 with a JSON body `{ method, url, headers }` of the request.
   * - `dribble`: send the headers (no `content-length`) and the start of `body`, then one space every
   *   ~100 ms for a minute (far beyond any limit a test sets), then the rest of `body`. A blocked
   *   synchronous caller that is not bounded still returns, so the test fails instead of hanging.
   */
  kind?: 'respond' | 'drop-mid-body' | 'stall' | 'stall-body' | 'destroy' | 'echo' | 'dribble';
  /** @default 200 */
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. @default '{"status":"OK"}' */
  body?: unknown;
  /** Milliseconds to wait before answering. @default 0 */
  delayMs?: number;
  /**
   * Ends the connection this many milliseconds after the answer, though the server advertises a keep-alive
   * of 5 s: a server that drops idle connections sooner than it says.
   */
  closeAfterMs?: number;
}

/** A request as the server saw it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The client's port: equal ports mean a reused (keep-alive) connection. */
  remotePort: number | undefined;
}

/** Chooses the step for the `index`-th request (0-based). */
export type Script = Step[] | ((req: RecordedRequest, index: number) => Step);

/** A running fault server. */
export interface FaultServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request received so far, in order. */
  readonly requests: RecordedRequest[];
  /** Replaces the script; the request count restarts at 0. */
  setScript(script: Script): void;
  /** Closes the server and every open connection. */
  close(): Promise<void>;
}

/**
 * Starts a fault server on 127.0.0.1 with an ephemeral port. With an array script the `i`-th request gets
 * step `i`, and requests past the end get the last step.
 */
export async function startFaultServer(script: Script = [{}]): Promise<FaultServer> {
  const requests: RecordedRequest[] = [];
  let current = script;
  let counter = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: { ...req.headers },
      remotePort: req.socket.remotePort,
    };
    requests.push(recorded);
    const index = counter++;
    const step =
      typeof current === 'function'
        ? current(recorded, index)
        : (current[Math.min(index, current.length - 1)] ?? {});
    const delay = step.delayMs ?? 0;
    if (delay > 0) setTimeout(() => perform(step, recorded, req, res), delay);
    else perform(step, recorded, req, res);
  });
  server.keepAliveTimeout = 5000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fault server has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    setScript(next) {
      current = next;
      counter = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function perform(step: Step, recorded: RecordedRequest, req: IncomingMessage, res: ServerResponse): void {
  const kind = step.kind ?? 'respond';
  if (kind === 'stall') return;
  if (kind === 'destroy') {
    req.socket.destroy();
    return;
  }
  const body =
    kind === 'echo'
      ? JSON.stringify(recorded)
      : step.body === undefined
        ? '{"status":"OK"}'
        : typeof step.body === 'string'
          ? step.body
          : JSON.stringify(step.body);
  const bytes = Buffer.from(body, 'utf8');
  if (kind === 'dribble') {
    res.writeHead(step.status ?? 200, { 'content-type': 'application/json', ...step.headers });
    const half = Math.max(1, Math.floor(bytes.length / 2));
    res.write(bytes.subarray(0, half));
    let sent = 0;
    const timer = setInterval(() => {
      if (++sent < 600) res.write(' ');
      else {
        clearInterval(timer);
        res.end(bytes.subarray(half));
      }
    }, 100);
    res.on('close', () => clearInterval(timer));
    return;
  }
  res.writeHead(step.status ?? 200, {
    'content-type': 'application/json',
    'content-length': String(bytes.length),
    ...step.headers,
  });
  if (kind === 'drop-mid-body' || kind === 'stall-body') {
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
    if (kind === 'drop-mid-body') setTimeout(() => req.socket.destroy(), 20);
    return;
  }
  const closeAfter = step.closeAfterMs;
  if (closeAfter !== undefined) res.on('finish', () => setTimeout(() => req.socket.end(), closeAfter));
  res.end(bytes);
}

/** A listening address whose connections are never accepted, so connecting to it hangs. */
export interface HangingListener {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Makes connects hang on loopback: a worker thread listens with a backlog of 1 and then blocks its event
 * loop, so nothing is ever accepted; two connections fill the accept queue, and the kernel then drops
 * further SYNs, leaving new connects pending until the client's connect timeout.
 */
export async function startHangingListener(): Promise<HangingListener> {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const server = require('node:net').createServer();
     server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
       parentPort.postMessage(server.address().port);
       setImmediate(() => Atomics.wait(workerData, 0, 0));
     });`,
    { eval: true, workerData: gate },
  );
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const fillers: Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    fillers.push(socket);
    await new Promise<void>((resolve) => {
      socket.once('connect', () => resolve());
      setTimeout(resolve, 200);
    });
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of fillers) socket.destroy();
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await worker.terminate();
    },
  };
}

/** A fault server running in a worker thread, reachable while the main thread is blocked. */
export interface FaultServerThread {
  readonly url: string;
  /** Requests the server has recorded so far. */
  requests(): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

/**
 * Starts a fault server in its own worker thread with an array script (steps are data, so they cross the
 * thread boundary). Use it when the code under test blocks the main thread.
 */
export async function startFaultServerThread(script: Step[]): Promise<FaultServerThread> {
  const self = import.meta.url;
  const bootstrap = self.endsWith('.ts')
    ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(self)}); })`
    : `import(${JSON.stringify(self)})`;
  const worker = new Worker(bootstrap, { eval: true, workerData: { faultServerScript: script } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (message: { url: string }) => resolve(message.url));
    worker.once('error', reject);
  });
  worker.unref();
  return {
    url,
    requests() {
      return new Promise((resolve) => {
        worker.once('message', (message: { requests: RecordedRequest[] }) => resolve(message.requests));
        worker.postMessage('requests');
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

const threadScript = !isMainThread
  ? (workerData as { faultServerScript?: Step[] } | null)?.faultServerScript
  : undefined;
if (threadScript && parentPort) {
  const port = parentPort;
  const server = await startFaultServer(threadScript);
  port.on('message', (message) => {
    if (message === 'requests') port.postMessage({ requests: server.requests });
  });
  port.postMessage({ url: server.url });
}
