/**
 * An HTTP proxy on 127.0.0.1 in front of an upstream server, whose answer to each request a script
 * chooses: forward it, answer a status of its own (with `Retry-After` and a body if given, else an error
 * body), forward it and drop the connection halfway through the body, forward the first half of the
 * body as a whole answer, or forward it a byte at a time (`trickle`, a byte every 50 ms). It records every request (path and
 * query, authorization, when its connection closed), so a test counts the calls an upstream receives.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** What the proxy does with one request. */
export type ProxyAction =
  | 'forward'
  | 'drop-mid-body'
  | 'half-body'
  | 'trickle'
  | { status: number; retryAfter?: string; body?: unknown };

/** One request the proxy received. */
export interface ProxiedRequest {
  /** Path and query. */
  url: string;
  authorization: string | undefined;
  /** Settles when the connection the request came on closes (kept-alive ones stay open). */
  closed: Promise<void>;
}

/** A running proxy. */
export interface ScriptedProxy {
  readonly url: string;
  /** Every request received, in order. */
  readonly seen: ProxiedRequest[];
  /** The most requests that were being answered at once. */
  readonly maxInFlight: number;
  /** Replaces the script. */
  script: (req: ProxiedRequest, index: number) => ProxyAction;
  close(): Promise<void>;
}

/** Starts a proxy forwarding to `upstream` (an origin) as `script` decides (default: forward all). */
export async function startScriptedProxy(
  upstream: string,
  script: ScriptedProxy['script'] = () => 'forward',
): Promise<ScriptedProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const proxy: ScriptedProxy = {
    url: '',
    seen: [],
    maxInFlight: 0,
    script,
    close: async () => {},
  };
  const forward = (req: IncomingMessage): Promise<{ status: number; body: Buffer; type: string }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers };
      delete headers.connection;
      const out = httpRequest(
        { agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 502,
              body: Buffer.concat(chunks),
              type: String(res.headers['content-type'] ?? 'application/json'),
            }),
          );
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end();
    });
  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    (proxy as { maxInFlight: number }).maxInFlight = Math.max(proxy.maxInFlight, inFlight);
    res.once('close', () => inFlight--);
    const closed = socketClosed(req.socket);
    const seen: ProxiedRequest = { url: req.url ?? '', authorization: req.headers.authorization, closed };
    proxy.seen.push(seen);
    const action = proxy.script(seen, proxy.seen.length - 1);
    if (typeof action === 'object') {
      const body = JSON.stringify(
        action.body ?? { status: 'ERROR', request_id: 'proxy', error: `scripted ${action.status}` },
      );
      res.writeHead(action.status, {
        'content-type': 'application/json',
        ...(action.retryAfter !== undefined && { 'retry-after': action.retryAfter }),
      });
      res.end(body);
      return;
    }
    forward(req).then(
      (up) => {
        // A well-framed answer whose body is cut: the first half, sent as if it were all.
        const body = action === 'half-body' ? up.body.subarray(0, Math.floor(up.body.length / 2)) : up.body;
        res.writeHead(up.status, { 'content-type': up.type, 'content-length': String(body.length) });
        if (action === 'drop-mid-body') {
          res.write(up.body.subarray(0, Math.floor(up.body.length / 2)));
          setTimeout(() => req.socket.destroy(), 10);
        } else if (action === 'trickle') {
          // Never idle for long, never done soon: only a deadline on the whole answer ends it.
          // It stops when the client has gone, even before it began (its connection closed while the
          // upstream answered): a close event already past would leave it writing the whole body.
          let sent = 0;
          const timer = setInterval(() => {
            if (res.destroyed || sent === body.length) {
              clearInterval(timer);
              res.end();
            } else res.write(body.subarray(sent, ++sent));
          }, 50);
        } else res.end(body);
      },
      () => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'ERROR', request_id: 'proxy', error: 'upstream unreachable' }));
      },
    );
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  (proxy as { url: string }).url =
    `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      agent.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

const closings = new WeakMap<Socket, Promise<void>>();

/** Settles when `socket` closes: one listener a connection, however many requests it carries. */
function socketClosed(socket: Socket): Promise<void> {
  let closed = closings.get(socket);
  if (!closed) {
    closed = new Promise<void>((resolve) => {
      if (socket.destroyed) resolve();
      else socket.once('close', () => resolve());
    });
    closings.set(socket, closed);
  }
  return closed;
}
