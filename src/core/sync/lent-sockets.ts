import { connect, type Socket } from 'node:net';

/** A connection lent to the calling thread, or why none could be. */
export type LentSocket =
  | { readonly fd: number }
  | { readonly failure: { readonly message: string; readonly code?: string; readonly stalled?: true } }
  | { readonly unsupported: true };

/** The sockets lent by this thread, by descriptor: kept referenced here until given back. */
const lent = new Map<number, Socket>();

/** The libuv handle of a socket, where the runtime exposes it (Node does). */
interface StreamHandle {
  fd?: number;
  readStop?: () => number;
}

/**
 * Opens a TCP connection to `origin` (an `http:` origin) on this thread's event loop and lends its
 * descriptor to the synchronous client's calling thread, which then writes requests and reads answers on
 * it itself. The socket is never read here (reading stopped before any byte can arrive) and stays open
 * until {@link returnSocket}.
 */
export function lendSocket(origin: string, connectTimeoutMs: number): Promise<LentSocket> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) });
    // Paused before it connects, so the stream does not start reading once it is connected.
    socket.pause();
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ failure: { message: `connect timed out after ${connectTimeoutMs} ms`, stalled: true } });
    }, connectTimeoutMs);
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ failure: { message: error.message, ...(error.code !== undefined && { code: error.code }) } });
    });
    socket.once('connect', () => {
      clearTimeout(timer);
      const handle = (socket as unknown as { _handle?: StreamHandle })._handle;
      const fd = handle?.fd;
      if (typeof fd !== 'number' || fd < 0 || typeof handle?.readStop !== 'function') {
        socket.destroy();
        resolve({ unsupported: true });
        return;
      }
      handle.readStop();
      socket.setNoDelay(true);
      socket.unref();
      // Errors the calling thread meets are its own; none may surface here as an unhandled event.
      socket.on('error', () => {});
      lent.set(fd, socket);
      resolve({ fd });
    });
  });
}

/** Closes a socket lent by {@link lendSocket}; the calling thread no longer uses its descriptor. */
export function returnSocket(fd: number): void {
  lent.get(fd)?.destroy();
  lent.delete(fd);
}

/** Closes every socket this thread has lent. */
export function returnAllSockets(): void {
  for (const fd of [...lent.keys()]) returnSocket(fd);
}
