import { barObjects } from '../core/bar-objects.js';
import {
  type BaseClient,
  type Call,
  type PagedCall,
  type Result,
  type resultTypes,
  SYNC_BARS,
  type SyncBars,
  type SyncLogSink,
} from '../core/client.js';
import type { ClientOptions } from '../core/client-options.js';
import { resolveClientOptions } from '../core/client-options.js';
import { InvalidParameterError } from '../core/errors.js';
import type { FullRangeBar } from '../core/full-range.js';
import { parseJson } from '../core/json.js';
import { pageItems, pageLink } from '../core/pages.js';
import { isRateLimiter } from '../core/rate-limit.js';
import { type BridgeTraffic, SyncBridge, type SyncRawResponse } from '../core/sync/bridge.js';
import { isTextAnswer, TEXT_ANSWER } from '../core/sync/protocol.js';
import { DirectCalls } from './sync-direct.js';

/** A value as the synchronous client returns it: responses become plain objects. */
export type SyncValue<T> = T extends Response
  ? SyncRawResponse
  : T extends Response[]
    ? SyncRawResponse[]
    : T;

/** What a synchronous call returns for the options `O`: the async {@link Result}, responses as plain objects. */
export type SyncResult<R, O, Bar = FullRangeBar> = SyncValue<Result<R, O, Bar>>;

/**
 * The synchronous form of one async method. An operation's method (its result a {@link Call} or
 * {@link PagedCall}) stays generic in its last parameter, the options, so that its result follows the
 * options exactly as the async one does; any other method keeps its parameters and returns its awaited
 * result.
 */
export type SyncMethod<F> = F extends (...args: infer A) => infer Ret
  ? typeof resultTypes extends keyof Ret
    ? NonNullable<Ret[typeof resultTypes & keyof Ret]> extends {
        response: infer R;
        bar: infer Bar;
        implied: infer Implied;
      }
      ? Required<A> extends [...infer Lead, infer Options]
        ? Ret extends AsyncIterable<infer Item>
          ? <const O extends Options>(
              ...args: [...Lead, options?: O]
            ) => SyncPaged<SyncResult<R, O & Implied, Bar>, R, Item>
          : <const O extends Options>(...args: [...Lead, options?: O]) => SyncResult<R, O & Implied, Bar>
        : never
      : never
    : (...args: A) => SyncValue<Awaited<Ret>>
  : never;

/**
 * The result of a paged synchronous call: a response (one page, or the pages merged) is also an
 * `Iterable` of the items (`for ... of`, following `next_url` up to `maxPages` and `maxItems`).
 */
export type SyncPaged<T, R, Item> = T extends R ? T & Iterable<Item> : T;

/**
 * The synchronous variant of an async client: the same methods with the same parameters, each
 * returning its result directly (the calling thread blocks until the answer arrives).
 */
export type SyncOf<C> = {
  [K in keyof C as K extends `${string}ForSync` | 'close' | typeof Symbol.asyncDispose
    ? never
    : C[K] extends (...args: any[]) => any
      ? K
      : never]: SyncMethod<C[K]>;
} & {
  /** Options in force. */
  readonly options: C extends { options: infer O } ? O : never;
  /** Releases the connections and stops the client's worker thread. */
  close(): void;
};

/** The module the worker loads the async clients from: the package's own entry point. */
function publicEntry(): string {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('../index.ts', here).href;
  // Built: this code sits in a chunk of dist/, beside index.js and index.cjs.
  return new URL(typeof require === 'function' ? './index.cjs' : './index.js', here).href;
}

/**
 * Creates the synchronous client for the async client class exported as `exportName`. The async
 * client runs in a worker thread; each call blocks on `Atomics.wait` until the worker answers, so
 * results and errors are those of the async client.
 */
export function createSyncClient<C extends BaseClient>(
  exportName: string,
  methods: readonly string[],
  apiKey: string | undefined | null,
  options: ClientOptions = {},
  Class?: new (apiKey?: string | null, options?: ClientOptions) => C,
): SyncOf<C> {
  // Validate on the calling thread: a missing key or bad option is an error here, not in the worker.
  const resolved = resolveClientOptions(apiKey, options);
  if (isRateLimiter(options.rateLimit)) {
    // The worker thread could only receive a copy of it, which would limit nothing in common.
    throw new InvalidParameterError(
      'rateLimit',
      `RateLimiter { requests: ${options.rateLimit.requests}, per: ${options.rateLimit.per} }`,
      'a synchronous client runs in a thread of its own and takes { requests, per } (a limit of its own); share a RateLimiter among async clients (useAsync: true)',
    );
  }
  const { logger: _logger, ...rest } = options;
  const logger = resolved.logger;
  // Functions among the arguments (onProgress) run on this thread while it waits, and so does the log
  // sink of each call: lines arrive as they are logged, also those of a call that fails in the end.
  const bridge = new SyncBridge({
    module: publicEntry(),
    exportName,
    args: [resolved.apiKey, { ...rest, useAsync: true }],
  });
  // The same rule as the async client: the logger gets every line; without one, only what the caller
  // explicitly asked for (verbose pages, full-range messages) reaches standard error.
  const sink: SyncLogSink = (line, explicit, level) => {
    if (logger) logger(line, level);
    else if (explicit) process.stderr.write(`${line}\n`);
  };
  // The sink crosses to the worker with the first call that reaches it and stays there.
  let sinkSent = false;
  const invoke = (method: string, args: unknown[]): { result: unknown; paged: boolean } => {
    let answer: unknown;
    if (sinkSent) answer = bridge.call('invokeForSync', [method, args]);
    else {
      answer = bridge.call('invokeForSync', [method, args, sink], { keepCallbacks: true });
      sinkSent = true;
    }
    // A response as the worker received it: decoded here, as the worker would have.
    if (isTextAnswer(answer)) return { result: parseJson(answer[TEXT_ANSWER]), paged: answer.tag === 1 };
    return answer as { result: unknown; paged: boolean };
  };
  // Calls of one request to an `http:` server are answered on this thread; the others by the worker.
  const direct = Class && DirectCalls.for(Class, apiKey, options, resolved, bridge, sink);
  const answer = (method: string, args: unknown[]) =>
    (!closed && direct?.call(method, args)) || invoke(method, args);
  const fetchPage = (url: string): unknown => answer('getPageByUrl', [url]).result;
  const { apiKey: _key, ...visible } = resolved;
  const client: Record<string, unknown> = { options: visible };
  for (const method of methods) {
    client[method] = (...args: unknown[]) => {
      for (const arg of args) rejectUncloneable(method, arg);
      const { result, paged } = answer(method, args);
      if (isSyncBars(result)) return barObjects(result[SYNC_BARS].columns, result[SYNC_BARS].keys);
      if (paged) makeWalkable(result, args.at(-1), fetchPage, sink);
      return result;
    };
  }
  let closed = false;
  client.close = () => {
    if (closed) return;
    closed = true;
    direct?.close();
    try {
      bridge.call('close', []);
    } finally {
      bridge.close();
    }
  };
  bridges.set(client, bridge);
  return client as SyncOf<C>;
}

const bridges = new WeakMap<object, SyncBridge>();

/** What has crossed between a synchronous client's thread and its worker so far. @internal */
export function syncTraffic(client: object): BridgeTraffic | undefined {
  return bridges.get(client)?.traffic();
}

/**
 * Makes the result of a paged call iterable (`for ... of`), as `for await` walks the async client's:
 * the items of the page, then of the pages after it, each fetched when the walk reaches it, up to
 * `maxPages` pages and `maxItems` items (with `verbose`, each page fetched is reported). A merged result (`allPages`) walks the items it holds. Lists of
 * pages and full-range bars are arrays, iterable already.
 */
function makeWalkable(
  result: unknown,
  lastArg: unknown,
  fetchPage: (url: string) => unknown,
  sink: SyncLogSink,
): void {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return;
  const options = (typeof lastArg === 'object' && lastArg !== null ? lastArg : {}) as Record<string, unknown>;
  if (options.rawResponse === true && options.allPages !== true) return;
  const maxPages = (options.maxPages ?? undefined) as number | undefined;
  const maxItems = (options.maxItems ?? undefined) as number | undefined;
  const merged = options.allPages === true;
  function* walk(): Generator<unknown> {
    let page: unknown = result;
    let items = 0;
    for (let pages = 1; ; pages++) {
      for (const item of pageItems(page)) {
        if (maxItems !== undefined && items >= maxItems) return;
        items++;
        yield item;
      }
      const link = pageLink(page, 'next');
      if (merged || !link || (maxPages !== undefined && pages >= maxPages)) return;
      page = fetchPage(link);
      if (options.verbose === true) sink(`Fetched page ${pages + 1}`, true, 'info');
    }
  }
  Object.defineProperty(result, Symbol.iterator, { value: walk, enumerable: false, configurable: true });
}

function isSyncBars(value: unknown): value is SyncBars {
  return typeof value === 'object' && value !== null && SYNC_BARS in value;
}

function rejectUncloneable(method: string, arg: unknown): void {
  if (typeof arg !== 'object' || arg === null) return;
  for (const [key, value] of Object.entries(arg)) {
    if (value instanceof AbortSignal) {
      throw new InvalidParameterError(
        key,
        typeof value,
        `${method} on the synchronous client cannot take ${key}; use the asynchronous client (useAsync: true)`,
      );
    }
  }
}

/** Public method names of a client class (its own and those of the request core). */
export function methodNames(proto: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = proto; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p)) {
      const d = Object.getOwnPropertyDescriptor(p, name);
      if (
        name !== 'constructor' &&
        !name.endsWith('ForSync') &&
        name !== 'close' &&
        typeof d?.value === 'function'
      )
        names.add(name);
    }
  }
  return [...names];
}

/** A client factory: synchronous client by default, asynchronous with `useAsync: true`. */
export interface ClientFactory<A extends BaseClient> {
  (apiKey: string | undefined | null, options: ClientOptions & { useAsync: true }): A;
  (apiKey?: string | null, options?: ClientOptions & { useAsync?: false }): SyncOf<A>;
}

/**
 * Builds the factory of a client class: `useAsync: true` gives an instance of the class, otherwise its
 * synchronous variant (the class must be exported from the package root under `exportName`, where the
 * synchronous client's worker finds it).
 */
export function clientFactory<A extends BaseClient>(
  Class: new (apiKey?: string | null, options?: ClientOptions) => A,
  exportName: string,
): ClientFactory<A> {
  const methods = methodNames(Class.prototype);
  return ((apiKey?: string | null, options: ClientOptions = {}) =>
    options?.useAsync
      ? new Class(apiKey, options)
      : createSyncClient<A>(exportName, methods, apiKey, options, Class)) as ClientFactory<A>;
}
