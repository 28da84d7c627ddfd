/**
 * Queries held unanswered until released, as slow queries would hold their connections: at an HTTP
 * proxy in front of a server (a ClickHouse server's HTTP port), each held request keeping its client's
 * socket, or in front of a store's `all` and `columns`.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Store } from '../../src/server/store/store.js';

/** Where the held queries wait, and how many do. */
export class Hold {
  private released = false;
  private readonly parked: (() => void)[] = [];
  private waiters: { n: number; resolve: () => void }[] = [];

  /** Resolves at once after {@link release}, else when released. */
  park(): Promise<void> {
    if (this.released) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.parked.push(resolve);
      this.waiters = this.waiters.filter((w) => {
        if (this.parked.length < w.n) return true;
        w.resolve();
        return false;
      });
    });
  }

  /** Queries held now. */
  held(): number {
    return this.parked.length;
  }

  /** Resolves once `n` queries are held at the same time. */
  whenHeld(n: number): Promise<void> {
    if (this.parked.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  /** Lets the held queries go on, and every later one through. */
  release(): void {
    this.released = true;
    for (const go of this.parked.splice(0)) go();
  }
}

/** `inner` whose queries that `holds` picks wait at `hold` before they reach it. */
export function holdingStore(inner: Store, hold: Hold, holds: (sql: string) => boolean): Store {
  const gate = (sql: string) => (holds(sql) ? hold.park() : Promise.resolve());
  return {
    location: inner.location,
    readOnly: inner.readOnly,
    dialect: inner.dialect,
    ...(inner.concurrency !== undefined && { concurrency: inner.concurrency }),
    all: (sql, params) => gate(sql).then(() => inner.all(sql, params)),
    columns: (sql, params) => gate(sql).then(() => inner.columns(sql, params)),
    run: (sql, params) => inner.run(sql, params),
    close: () => inner.close(),
  };
}

/** A running proxy. */
export interface HoldingProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts a proxy to `target` (`http://host:port`) whose requests with a body that `holds` picks wait at
 * `hold` before they are forwarded; the others are forwarded at once.
 */
export async function startHoldingProxy(
  target: string,
  hold: Hold,
  holds: (body: string) => boolean,
): Promise<HoldingProxy> {
  const upstream = new URL(target);
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
    const out = httpRequest(
      {
        host: upstream.hostname.replace(/^\[|\]$/g, ''),
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    out.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const go = () => forward(req, body, res);
      if (holds(body.toString('utf8'))) void hold.park().then(go);
      else go();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
