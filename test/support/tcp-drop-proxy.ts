import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 that forwards to `port` and can cut every connection it carries. */
export interface DropProxy {
  readonly port: number;
  /** Connections made through it so far. */
  readonly connections: number;
  /** Destroys every open connection (both sides), as a network failure would. */
  dropAll(): void;
  /**
   * Closes the connection the next bytes a client sends come on, forwarding none of them: what a
   * server closing an idle kept-alive connection does to a request sent as it closes.
   */
  closeOnNextRequest(): void;
  /** Requests closed unread by {@link closeOnNextRequest}. */
  readonly closedUnread: number;
  close(): Promise<void>;
}

export async function startDropProxy(port: number): Promise<DropProxy> {
  const open = new Set<Socket>();
  let connections = 0;
  let closeNext = false;
  let closedUnread = 0;
  const server: Server = createServer((client) => {
    connections++;
    const upstream = connect(port, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    client.on('data', (chunk: Buffer) => {
      if (closeNext) {
        closeNext = false;
        closedUnread++;
        end();
        return;
      }
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    get connections() {
      return connections;
    },
    get closedUnread() {
      return closedUnread;
    },
    closeOnNextRequest() {
      closeNext = true;
    },
    dropAll() {
      for (const s of open) s.destroy();
      open.clear();
    },
    close() {
      for (const s of open) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
