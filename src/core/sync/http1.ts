import { readSync, writeSync } from 'node:fs';
import { DeadlinePassed, ReadStalled, WriteStalled } from '../get-policy.js';

/** One HTTP/1.1 answer read whole from a connection. */
export interface Http1Answer {
  readonly status: number;
  /** Names in lower case; repeated headers joined with `, `. */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  /** The connection may carry the next request (HTTP/1.1 keep-alive and a body of known end). */
  readonly reusable: boolean;
}

/** Time limits of one exchange, in milliseconds; `endAt` is on the `performance.now()` clock. */
export interface Http1Limits {
  readonly readMs: number;
  readonly writeMs: number;
  readonly endAt: number;
}

/** The most bytes a response's status line and headers may take. */
const MAX_HEAD_BYTES = 256 * 1024;
/** The longest nap between two looks at a socket with nothing to read, in milliseconds. */
const MAX_NAP_MS = 2;

const napCell = new Int32Array(new SharedArrayBuffer(4));

/** Sleeps the calling thread for `ms` milliseconds (it has no event loop to wait on). */
export function nap(ms: number): void {
  if (ms > 0) Atomics.wait(napCell, 0, 0, ms);
}

/**
 * Sends `request` on the connected, non-blocking socket `fd` and reads its answer, on the calling thread
 * and without its event loop: the socket is read as soon as bytes arrive, and between looks the thread
 * naps (5 µs at first, doubling up to 2 ms), so a quick answer is taken within microseconds and a slow one
 * costs a few hundred looks a second. The limits hold as in the asynchronous transport: `writeMs` for the
 * request to be taken, `readMs` between bytes of the answer, `endAt` for the whole answer.
 *
 * @throws WriteStalled, ReadStalled or DeadlinePassed past a limit; the socket's own error (with its
 *   `code`) when it fails; an Error when the connection ends before the answer does or the answer is not
 *   HTTP/1.x.
 */
export function exchange(fd: number, request: Buffer, limits: Http1Limits): Http1Answer {
  // Each look at an empty socket throws EAGAIN: without a stack, that costs next to nothing.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    writeAll(fd, request, limits);
    return new AnswerReader(fd, limits).read();
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * Whether a kept-alive connection can carry another request: nothing arrived on it since its last answer
 * and the server has not closed it.
 */
export function isIdleOpen(fd: number): boolean {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // A byte, or the end: either way the connection cannot carry a request.
    readSync(fd, Buffer.allocUnsafe(1), 0, 1, null);
    return false;
  } catch (error) {
    return isWouldBlock(error);
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

function writeAll(fd: number, bytes: Buffer, limits: Http1Limits): void {
  let written = 0;
  let step = 0.005;
  let stalledSince = performance.now();
  while (written < bytes.length) {
    let n = 0;
    try {
      n = writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      if (!isWouldBlock(error)) throw error;
    }
    const now = performance.now();
    if (n > 0) {
      written += n;
      stalledSince = now;
      step = 0.005;
      continue;
    }
    if (now - stalledSince >= limits.writeMs) {
      throw new WriteStalled(`request not written within ${limits.writeMs} ms`);
    }
    if (now >= limits.endAt) throw new DeadlinePassed('response not complete in time');
    nap(Math.min(step, limits.endAt - now, limits.writeMs - (now - stalledSince)));
    step = Math.min(step * 2, MAX_NAP_MS);
  }
}

/** Reads one answer: its head, then its body as its headers delimit it. */
class AnswerReader {
  readonly #fd: number;
  readonly #limits: Http1Limits;
  #buffer = Buffer.allocUnsafe(16 * 1024);
  /** Bytes of `#buffer` received and not yet taken. */
  #start = 0;
  #end = 0;
  #ended = false;

  constructor(fd: number, limits: Http1Limits) {
    this.#fd = fd;
    this.#limits = limits;
  }

  read(): Http1Answer {
    for (;;) {
      const head = this.#head();
      // Interim answers (100 Continue, 103 Early Hints) precede the real one.
      if (head.status >= 100 && head.status < 200 && head.status !== 101) continue;
      const { status, headers } = head;
      const keepAlive =
        head.version === '1.1'
          ? !/\bclose\b/i.test(headers.connection ?? '')
          : /\bkeep-alive\b/i.test(headers.connection ?? '');
      if (status === 204 || status === 304) {
        return { status, headers, body: Buffer.alloc(0), reusable: keepAlive };
      }
      if (/\bchunked\s*$/i.test(headers['transfer-encoding'] ?? '')) {
        return { status, headers, body: this.#chunked(), reusable: keepAlive };
      }
      const length = headers['content-length'];
      if (length !== undefined) {
        if (!/^\d+$/.test(length.trim())) throw new Error(`invalid content-length ${JSON.stringify(length)}`);
        return { status, headers, body: this.#take(Number(length)), reusable: keepAlive };
      }
      return { status, headers, body: this.#rest(), reusable: false };
    }
  }

  #head(): { version: string; status: number; headers: Record<string, string> } {
    let end = -1;
    // Counted from `#start`: a fill may move the unread bytes to the front of the buffer.
    let scanned = 0;
    for (;;) {
      end = this.#buffer.indexOf('\r\n\r\n', this.#start + scanned, 'latin1');
      if (end >= 0 && end + 4 <= this.#end) break;
      if (this.#end - this.#start > MAX_HEAD_BYTES) {
        throw new Error(`response headers longer than ${MAX_HEAD_BYTES} bytes`);
      }
      scanned = Math.max(0, this.#end - this.#start - 3);
      if (!this.#fill()) {
        throw new Error(
          this.#end === this.#start
            ? 'the server closed the connection without answering'
            : 'the server closed the connection within the response headers',
        );
      }
    }
    const lines = this.#buffer.toString('latin1', this.#start, end).split('\r\n');
    this.#start = end + 4;
    const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
    if (!statusLine)
      throw new Error(`not an HTTP/1.x response: ${JSON.stringify((lines[0] ?? '').slice(0, 40))}`);
    const headers: Record<string, string> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) throw new Error(`malformed response header line ${JSON.stringify(line.slice(0, 40))}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    return { version: `1.${statusLine[1]}`, status: Number(statusLine[2]), headers };
  }

  /** Exactly `length` bytes of body. */
  #take(length: number): Buffer {
    while (this.#end - this.#start < length) {
      if (this.#end - this.#start === 0 && length > this.#buffer.length) {
        // A long body goes straight into a buffer of its own size.
        this.#buffer = Buffer.allocUnsafe(length);
        this.#start = 0;
        this.#end = 0;
      }
      if (!this.#fill(length)) throw new Error('the server closed the connection before the response ended');
    }
    const body = Buffer.from(this.#buffer.subarray(this.#start, this.#start + length));
    this.#start += length;
    return body;
  }

  #chunked(): Buffer {
    const pieces: Buffer[] = [];
    for (;;) {
      const line = this.#line();
      const size = Number.parseInt(line.split(';', 1)[0]!.trim(), 16);
      if (!Number.isSafeInteger(size) || size < 0)
        throw new Error(`invalid chunk size ${JSON.stringify(line.slice(0, 20))}`);
      if (size === 0) {
        // Trailer fields, if any, end with an empty line.
        while (this.#line() !== '');
        return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
      }
      pieces.push(this.#take(size));
      if (this.#line() !== '') throw new Error('a chunk is not followed by CRLF');
    }
  }

  #line(): string {
    // Counted from `#start`: a fill may move the unread bytes to the front of the buffer.
    let scanned = 0;
    for (;;) {
      const end = this.#buffer.indexOf('\r\n', this.#start + scanned, 'latin1');
      if (end >= 0 && end + 2 <= this.#end) {
        const line = this.#buffer.toString('latin1', this.#start, end);
        this.#start = end + 2;
        return line;
      }
      if (this.#end - this.#start > MAX_HEAD_BYTES) throw new Error('a chunk header line is too long');
      scanned = Math.max(0, this.#end - this.#start - 1);
      if (!this.#fill()) throw new Error('the server closed the connection before the response ended');
    }
  }

  /** The body up to the end of the connection (a response with neither length nor chunks). */
  #rest(): Buffer {
    while (this.#fill());
    const body = Buffer.from(this.#buffer.subarray(this.#start, this.#end));
    this.#start = this.#end;
    return body;
  }

  /**
   * Reads more bytes into the buffer (room made for at least `want` unread bytes), waiting for them within
   * the limits. False at the end of the connection.
   */
  #fill(want = 0): boolean {
    if (this.#ended) return false;
    const unread = this.#end - this.#start;
    if (this.#end === this.#buffer.length || this.#buffer.length - this.#start < want) {
      const size = Math.max(want, unread * 2, this.#buffer.length);
      const next = size > this.#buffer.length ? Buffer.allocUnsafe(size) : this.#buffer;
      this.#buffer.copy(next, 0, this.#start, this.#end);
      this.#buffer = next;
      this.#start = 0;
      this.#end = unread;
    }
    const limits = this.#limits;
    const readUntil = performance.now() + limits.readMs;
    let step = 0.005;
    for (;;) {
      try {
        const n = readSync(this.#fd, this.#buffer, this.#end, this.#buffer.length - this.#end, null);
        if (n === 0) {
          this.#ended = true;
          return false;
        }
        this.#end += n;
        return true;
      } catch (error) {
        if (!isWouldBlock(error)) throw error;
      }
      const now = performance.now();
      if (now >= limits.endAt) throw new DeadlinePassed('response not complete in time');
      if (now >= readUntil) throw new ReadStalled(`no data received for ${limits.readMs} ms`);
      nap(Math.min(step, limits.endAt - now, readUntil - now));
      step = Math.min(step * 2, MAX_NAP_MS);
    }
  }
}

function isWouldBlock(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EAGAIN' || code === 'EWOULDBLOCK';
}
