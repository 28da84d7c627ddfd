import type { ResolvedClientOptions } from '../client-options.js';
import { decodeContent, isEncoded } from '../decode-content.js';
import { APIConnectionError, DecodeError, MdqError } from '../errors.js';
import {
  type AttemptOutcome,
  ConnectStalled,
  GetPolicy,
  type HttpResponse,
  stripQuery,
} from '../get-policy.js';
import { exchange, isIdleOpen, nap } from './http1.js';
import type { LentSocket } from './lent-sockets.js';

/** Opens a connection for the calling thread (through the worker's event loop), or says why not. */
export type SocketLender = {
  open(): LentSocket;
  close(fd: number): void;
  /** False once the lender stopped: the descriptors it lent are closed, and their numbers may be reused. */
  running(): boolean;
};

/**
 * The synchronous client's transport on its calling thread, for an `http:` origin: each request is
 * written and its answer read on that thread (see `exchange`), so a call crosses no thread. Only opening
 * a connection needs an event loop: the worker opens it and lends it (`SocketLender`), and it is kept
 * alive for the next call. Retries, redirects, targets and errors follow the same {@link GetPolicy} as the
 * asynchronous transport.
 */
export class DirectTransport {
  readonly #policy: GetPolicy;
  readonly #options: ResolvedClientOptions;
  readonly #lender: SocketLender;
  /** The request's head, past its target: the same headers as the asynchronous transport sends. */
  readonly #headLines: string;
  #fd: number | undefined;
  #closed = false;

  constructor(options: ResolvedClientOptions, lender: SocketLender) {
    this.#options = options;
    this.#policy = new GetPolicy(options);
    this.#lender = lender;
    const host = new URL(this.#policy.origin).host;
    this.#headLines = `host: ${host}\r\n${Object.entries(this.#policy.headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;
  }

  /**
   * GETs `target` as `Transport.get` does, blocking the calling thread until the answer.
   * @throws The same errors as `Transport.get`.
   */
  get(target: string): HttpResponse {
    if (this.#closed) throw new APIConnectionError('The client is closed; create a new one');
    const steps = this.#policy.steps(target, () => this.#closed);
    let step = steps.next();
    while (!step.done) {
      const next = step.value;
      if ('sleepMs' in next) {
        nap(next.sleepMs);
        step = steps.next();
        continue;
      }
      let outcome: AttemptOutcome;
      try {
        outcome = { response: this.#attempt(next.send) };
      } catch (failure) {
        outcome = { failure };
      }
      step = steps.next(outcome);
    }
    return step.value;
  }

  /**
   * Opens the first connection: false when the runtime cannot lend sockets (the calling thread then has
   * no transport). A connection that fails is left for the first request to meet, as its error.
   */
  prime(): boolean {
    if (this.#fd !== undefined) return true;
    const lent = this.#lender.open();
    if ('unsupported' in lent) return false;
    if ('fd' in lent) this.#fd = lent.fd;
    return true;
  }

  /** Stops using the kept connection (its lender closes what it lent when it closes). */
  close(): void {
    this.#closed = true;
    this.#fd = undefined;
  }

  #attempt(path: string): HttpResponse {
    const fd = this.#connection();
    const options = this.#options;
    let answer: ReturnType<typeof exchange>;
    try {
      answer = exchange(fd, Buffer.from(`GET ${path} HTTP/1.1\r\n${this.#headLines}`, 'latin1'), {
        readMs: options.readTimeout * 1000,
        writeMs: options.writeTimeout * 1000,
        endAt: performance.now() + options.totalTimeout * 1000,
      });
    } catch (error) {
      this.#drop();
      throw error;
    }
    if (!answer.reusable) this.#drop();
    const url = `${this.#policy.origin}${path}`;
    const coding = answer.headers['content-encoding'];
    let body = answer.body;
    if (isEncoded(coding)) {
      try {
        body = decodeContent(body, coding);
      } catch (e) {
        throw new DecodeError(
          `The response to ${stripQuery(url)} could not be decoded from its content-encoding ${coding}: ${(e as Error).message}`,
          answer.status,
          { cause: e },
        );
      }
    }
    return { status: answer.status, headers: answer.headers, body: body.toString('utf8'), url };
  }

  /** The kept connection if the server has not closed it, else a new one. */
  #connection(): number {
    if (!this.#lender.running()) {
      // Its connection was closed with it: that descriptor's number may now be another file's.
      this.#fd = undefined;
      throw new MdqError('The synchronous client stopped unexpectedly (its worker thread exited)');
    }
    if (this.#fd !== undefined && isIdleOpen(this.#fd)) return this.#fd;
    this.#drop();
    const lent = this.#lender.open();
    if ('fd' in lent) {
      this.#fd = lent.fd;
      return lent.fd;
    }
    if ('unsupported' in lent)
      throw new APIConnectionError('this runtime cannot lend a socket to the calling thread');
    if (lent.failure.stalled) throw new ConnectStalled(lent.failure.message);
    throw Object.assign(new Error(lent.failure.message), lent.failure.code && { code: lent.failure.code });
  }

  #drop(): void {
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) this.#lender.close(fd);
  }
}
