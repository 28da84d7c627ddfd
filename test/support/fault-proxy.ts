/**
 * A fault-injecting HTTP proxy on 127.0.0.1: it forwards requests to an upstream server (the local mdq
 * server) and, chosen by a seeded PRNG, answers some of them with a fault instead: 429 with and without
 * `Retry-After`, 500, 502, 503, a connection dropped mid-body, a stall past the client's read timeout, or
 * a 200 whose JSON is cut short. The same seed gives the same sequence of decisions.
 *
 * A URL is never faulted more than `maxConsecutive` times in a row, so a client whose retry budget is
 * larger always gets through. Counters tell the test which faults really happened.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';

/** The faults the proxy can inject. */
export const FAULT_KINDS = [
  '429',
  '429-retry-after',
  '500',
  '502',
  '503',
  'drop-mid-body',
  'stall',
  'truncated-json',
] as const;

/** One kind of injected fault. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** Upstream origin, e.g. `http://127.0.0.1:8765`. */
  upstream: string;
  /** Seed of the PRNG choosing which requests fail and how. */
  seed: number;
  /**
   * Probability that a request (not already at `maxConsecutive`) is faulted.
   * @default 0.3
   */
  rate?: number;
  /**
   * Faults to choose from, uniformly.
   * @default every kind of FAULT_KINDS
   */
  kinds?: readonly FaultKind[];
  /**
   * Most faults in a row for one URL; the next request for it is forwarded. `Infinity` faults it forever.
   * @default 2
   */
  maxConsecutive?: number;
  /**
   * How long a `stall` holds the connection silent before destroying it, in ms (set it past the client's
   * read timeout).
   * @default 5000
   */
  stallMs?: number;
  /**
   * The `Retry-After` value of `429-retry-after`, in seconds.
   * @default '0.2'
   */
  retryAfter?: string;
}

/** A running proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Faults injected so far, by kind. */
  readonly injected: Record<FaultKind, number>;
  /** Requests received so far (faulted or forwarded). */
  readonly requests: number;
  /** Requests forwarded to the upstream and answered from it. */
  readonly forwarded: number;
  /** Total faults injected. */
  totalInjected(): number;
  /** Closes the proxy and every open connection. */
  close(): Promise<void>;
}

/** mulberry32: a small, fast, seedable PRNG with a full 2^32 period. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Upstream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Starts a fault proxy in front of `options.upstream`. */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const upstream = new URL(options.upstream);
  const random = seededRandom(options.seed);
  const rate = options.rate ?? 0.3;
  const kinds = options.kinds ?? FAULT_KINDS;
  const maxConsecutive = options.maxConsecutive ?? 2;
  const stallMs = options.stallMs ?? 5000;
  const retryAfter = options.retryAfter ?? '0.2';
  const injected = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  const consecutive = new Map<string, number>();
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;
  let forwarded = 0;

  const choose = (url: string): FaultKind | undefined => {
    // Both draws happen on every request, so the decision sequence depends on the seed alone.
    const roll = random();
    const pick = kinds[Math.floor(random() * kinds.length)];
    const streak = consecutive.get(url) ?? 0;
    if (streak >= maxConsecutive || roll >= rate || pick === undefined) {
      consecutive.delete(url);
      return undefined;
    }
    consecutive.set(url, streak + 1);
    injected[pick]++;
    return pick;
  };

  const fetchUpstream = (req: IncomingMessage): Promise<Upstream> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers };
      delete headers.connection;
      const out = httpRequest(
        {
          agent,
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          // The Host header stays the proxy's, so the server writes next_url links on the proxy's origin.
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end();
    });

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const server: Server = createServer((req, res) => {
    requests++;
    const fault = choose(req.url ?? '');
    const errorBody = (status: number) =>
      JSON.stringify({ status: 'ERROR', request_id: `fault-${requests}`, error: `injected ${status}` });
    if (
      fault === '429' ||
      fault === '429-retry-after' ||
      fault === '500' ||
      fault === '502' ||
      fault === '503'
    ) {
      const status = Number(fault.slice(0, 3));
      const body = errorBody(status);
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        ...(fault === '429-retry-after' ? { 'retry-after': retryAfter } : {}),
      });
      res.end(body);
      return;
    }
    if (fault === 'stall') {
      later(stallMs, () => req.socket.destroy());
      return;
    }
    fetchUpstream(req).then(
      (up) => {
        const headers = { ...up.headers };
        delete headers['transfer-encoding'];
        delete headers.connection;
        delete headers['keep-alive'];
        if (fault === 'drop-mid-body') {
          res.writeHead(up.status, { ...headers, 'content-length': String(up.body.length) });
          res.write(up.body.subarray(0, Math.floor(up.body.length / 2)));
          later(10, () => req.socket.destroy());
          return;
        }
        const body =
          fault === 'truncated-json' ? up.body.subarray(0, Math.floor(up.body.length / 2)) : up.body;
        if (fault === undefined) forwarded++;
        res.writeHead(up.status, { ...headers, 'content-length': String(body.length) });
        res.end(body);
      },
      (error: Error) => {
        const body = JSON.stringify({ status: 'ERROR', error: `proxy: upstream failed: ${error.message}` });
        res.writeHead(599, { 'content-type': 'application/json' });
        res.end(body);
      },
    );
  });
  server.keepAliveTimeout = 5000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fault proxy has no port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    injected,
    get requests() {
      return requests;
    },
    get forwarded() {
      return forwarded;
    },
    totalInjected: () => Object.values(injected).reduce((a, b) => a + b, 0),
    close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
