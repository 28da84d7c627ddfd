import type { ServerResponse } from 'node:http';

/** Characters (of a string body) or bytes written at a time. */
export const SLICE = 64 * 1024;

/**
 * Makes `res.end(body)` of a large string or byte body write it a slice at a time, each once the
 * connection has taken the one before (`drain`). Ended whole, the body would sit in the connection's
 * write queue, a copy per connection, for as long as a client leaves it unread: hundreds of clients
 * that never read their answers would hold gigabytes. This way a connection queues at most about a
 * slice beyond what the kernel holds, and a cached answer stays one shared copy. The bytes sent are
 * the same; a client that goes away ends the writing.
 */
export function sendInSlices(res: ServerResponse): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((body?: unknown, ...rest: unknown[]) => {
    const large =
      (typeof body === 'string' && body.length > SLICE) ||
      (body instanceof Uint8Array && body.byteLength > SLICE);
    if (!large || rest.length > 0 || res.req.method === 'HEAD') return end(body, ...rest);
    void writeSlices(res, body as string | Uint8Array, end);
    return res;
  }) as ServerResponse['end'];
}

async function writeSlices(res: ServerResponse, body: string | Uint8Array, end: () => void): Promise<void> {
  const size = typeof body === 'string' ? body.length : body.byteLength;
  let at = 0;
  while (at < size) {
    if (res.destroyed) return;
    let to = Math.min(at + SLICE, size);
    // A slice never ends between the two halves of a surrogate pair, which would each encode as U+FFFD.
    if (typeof body === 'string' && to < size && isHighSurrogate(body.charCodeAt(to - 1))) to--;
    const taken = res.write(typeof body === 'string' ? body.slice(at, to) : body.subarray(at, to));
    at = to;
    if (!taken && at < size) await drainedOrClosed(res);
  }
  if (!res.destroyed) end();
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
