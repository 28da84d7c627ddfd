import { answerError } from '../core/answer-error.js';
import {
  BaseClient,
  type Fetched,
  jsonOf,
  type PreparedCall,
  prepareCall,
  type SyncLogSink,
} from '../core/client.js';
import type { ClientOptions, ResolvedClientOptions } from '../core/client-options.js';
import { InvalidParameterError } from '../core/errors.js';
import { parseJson } from '../core/json.js';
import type { OperationSpec } from '../core/operation.js';
import { pageLink } from '../core/pages.js';
import type { SyncBridge, SyncRawResponse } from '../core/sync/bridge.js';
import { DirectTransport } from '../core/sync/direct-transport.js';
import type { LentSocket } from '../core/sync/lent-sockets.js';

/** What a probed method returned: the value its operation's `call` returned, or it did something else. */
const CALLED = Object.freeze({
  // A method that awaits its call waits for ever, and does nothing more, on this stand-in.
  // biome-ignore lint/suspicious/noThenProperty: an inert thenable is the point
  then(): void {},
});

/** One call of an operation, as a method of the async client made it. */
interface Captured {
  readonly op: OperationSpec;
  readonly positional: readonly unknown[];
  readonly options: object | undefined;
}

/**
 * The calls of a synchronous client that it answers on its calling thread: those of an `http:` base URL
 * made of one request (one response, or one page of a paged operation), which are most calls. Each is
 * sent and read on the calling thread by a {@link DirectTransport}, so it crosses no thread; anything else
 * (full ranges, all pages, `https:`, a rate limit or connection limit shared with the worker) goes to the
 * worker as before.
 *
 * Which operation a method calls, with which arguments, is learnt by running the method of the async
 * client on a stand-in instance whose `call` only notes its arguments: a method that returns exactly what
 * `call` returned is that one call. A method that does anything else, or throws, is left to the worker.
 */
export class DirectCalls {
  readonly #probe: Record<string, unknown>;
  readonly #transport: DirectTransport;
  readonly #options: ResolvedClientOptions;
  readonly #sink: SyncLogSink;
  #captured: Captured | undefined;
  /** Whether the worker can lend sockets: unknown until the first call. */
  #lendable: boolean | undefined;

  /** Returns undefined when `options` leave no call to the calling thread. */
  static for(
    Class: new (apiKey?: string | null, options?: ClientOptions) => BaseClient,
    apiKey: string | undefined | null,
    options: ClientOptions,
    resolved: ResolvedClientOptions,
    bridge: SyncBridge,
    sink: SyncLogSink,
  ): DirectCalls | undefined {
    const direct =
      resolved.directHttp &&
      resolved.baseUrl.startsWith('http:') &&
      resolved.rateLimit === null &&
      resolved.maxConnections === null &&
      resolved.maxKeepalive !== 0;
    if (!direct) return undefined;
    return new DirectCalls(new Class(apiKey, { ...options, useAsync: true }), resolved, bridge, sink);
  }

  private constructor(
    probe: BaseClient,
    resolved: ResolvedClientOptions,
    bridge: SyncBridge,
    sink: SyncLogSink,
  ) {
    this.#options = resolved;
    this.#sink = sink;
    this.#probe = probe as unknown as Record<string, unknown>;
    this.#probe.call = (op: OperationSpec, positional: readonly unknown[], options?: object) => {
      this.#captured = { op, positional, options };
      return CALLED;
    };
    // The stand-in never sends a request: the client's own methods answer the inert value too.
    for (const name of Object.getOwnPropertyNames(BaseClient.prototype)) {
      if (name !== 'constructor' && name !== 'call') this.#probe[name] = () => CALLED;
    }
    this.#transport = new DirectTransport(
      { ...resolved, logger: (line) => sink(line, false, 'warn') },
      {
        open: () => bridge.call('openSocketForSync', []) as LentSocket,
        close: (fd) => {
          bridge.call('closeSocketForSync', [fd]);
        },
        running: () => bridge.running,
      },
    );
  }

  /**
   * Answers `method(...args)` on this thread when it is one request, as the async client's method would;
   * `undefined` when it is not (the worker answers it).
   */
  call(method: string, args: unknown[]): { result: unknown; paged: boolean } | undefined {
    const prepared =
      method === 'getPageByUrl'
        ? pageByUrl(args)
        : method === 'getNextPage' || method === 'getPreviousPage'
          ? linkedPage(args, method === 'getNextPage' ? 'next' : 'previous')
          : this.#prepare(method, args);
    if (prepared === false) return { result: false, paged: false };
    if (prepared === undefined) return undefined;
    const { target, opts, way } = prepared;
    if (way === 'fullRange' || (way === 'pages' && opts.allPages === true)) return undefined;
    if (!this.#canLend()) return undefined;
    const fetched = this.#fetch(target);
    const result = opts.rawResponse === true ? rawResponseOf(fetched) : fetched.data;
    return { result, paged: way === 'pages' };
  }

  /** Stops using the kept connection; the worker closes the sockets it lent when it closes. */
  close(): void {
    this.#transport.close();
  }

  #prepare(method: string, args: unknown[]): PreparedCall | undefined {
    const fn = this.#probe[method];
    // An async method is never one call returned as it is, and its body is not run on the stand-in.
    if (typeof fn !== 'function' || Object.hasOwn(this.#probe, method) || !isPlainFunction(fn)) {
      return undefined;
    }
    this.#captured = undefined;
    let returned: unknown;
    try {
      returned = fn.apply(this.#probe, args);
    } catch {
      // Whatever it was, the worker meets it too, and reports it as the async client would.
      return undefined;
    }
    // A promise some helper made on the stand-in settles unseen: the worker runs the method for real.
    if (returned instanceof Promise) returned.catch(() => {});
    const captured = this.#captured as Captured | undefined;
    this.#captured = undefined;
    if (returned !== CALLED || captured === undefined) return undefined;
    // A bad argument is the caller's error, thrown here as the async client throws it.
    return prepareCall(captured.op, captured.positional, captured.options);
  }

  /** Whether the worker lends sockets; asked once, with the first connection. */
  #canLend(): boolean {
    if (this.#lendable === undefined) this.#lendable = this.#transport.prime();
    return this.#lendable;
  }

  #fetch(target: string): Fetched {
    const warn = (line: string): void => this.#sink(line, false, 'warn');
    for (let attempt = 0; ; attempt++) {
      const decoded = jsonOf(
        this.#transport.get(target),
        attempt,
        this.#options.maxRetries,
        warn,
        (data, http) => answerError(data, http, this.#options.apiKey),
      );
      if (decoded) return decoded;
    }
  }
}

/** True for a function that is neither async nor a generator: its result is what it returns. */
function isPlainFunction(fn: Function): boolean {
  const kind = fn.constructor.name;
  return kind !== 'AsyncFunction' && kind !== 'GeneratorFunction' && kind !== 'AsyncGeneratorFunction';
}

/** `getPageByUrl(url, options)` as a prepared call, its arguments checked as the client checks them. */
function pageByUrl(args: unknown[]): PreparedCall {
  const [url, options] = args;
  if (typeof url !== 'string' || !url)
    throw new InvalidParameterError('url', url, 'expected a next_url or previous_url string');
  return { target: url, opts: (options ?? {}) as Record<string, unknown>, way: 'single' };
}

/**
 * `getNextPage(oldResponse, options)` (or the previous page) as a prepared call: `false` when the page
 * links nowhere; `undefined` when `oldResponse` is not a page this client returned (the worker says so).
 */
function linkedPage(args: unknown[], direction: 'next' | 'previous'): PreparedCall | false | undefined {
  const [old, options] = args;
  if (typeof old !== 'object' || old === null) return undefined;
  const raw = old as Partial<SyncRawResponse>;
  const page = typeof raw.body === 'string' && typeof raw.status === 'number' ? parseJson(raw.body) : old;
  const link = pageLink(page, direction);
  return link === undefined ? false : pageByUrl([link, options]);
}

/** A response as the synchronous client returns it for `rawResponse: true`. */
function rawResponseOf(fetched: Fetched): SyncRawResponse {
  const { http } = fetched;
  const response = new Response(http.body, { status: http.status, headers: http.headers });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: http.body, url: http.url };
}
