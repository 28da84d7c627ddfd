import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from './client-options.js';
import { DecodeError, InvalidParameterError, MdqError } from './errors.js';
import { type FullRangeBar, fetchFullRange } from './full-range.js';
import { parseJson } from './json.js';
import type { OperationSpec, ParamOptions } from './operation.js';
import { PagePromise } from './page-promise.js';
import { mergePages, pageItems, pageLink } from './pages.js';
import { buildRequest } from './request.js';
import type { SyncRawResponse } from './sync/bridge.js';
import { type HttpResponse, Transport } from './transport.js';

/** Options every operation takes. */
export interface RequestOptions {
  /**
   * Return the HTTP response (a standard `Response`; on the sync client an object with status, headers
   * and body) instead of the decoded JSON. Ignored when pagination or full range is active.
   * @default false
   */
  rawResponse?: boolean;
  /** Cancels the request (and every page or chunk of it). */
  signal?: AbortSignal;
}

/** Pagination group (SPEC 4.1 P), on every operation that pages by `next_url`. */
export interface PaginationOptions {
  /**
   * Follow `next_url` and return every page.
   * @default false
   */
  allPages?: boolean;
  /**
   * Most pages to fetch with `allPages`, the first included (`1` is the first page only); unset for all.
   * @default undefined
   */
  maxPages?: number;
  /**
   * With `allPages`: one merged response (items of every page in order). `false`: the list of pages.
   * @default true
   */
  mergeAllPages?: boolean;
  /**
   * Report each page fetched to the client's `logger` (standard error when none is set).
   * @default false
   */
  verbose?: boolean;
  /**
   * With `allPages` and `mergeAllPages: false`: the raw responses instead of decoded pages.
   * @default false
   */
  rawPageResponses?: boolean;
  /**
   * Most items a `for await` walk yields before it stops fetching.
   * @default undefined (no limit)
   */
  maxItems?: number;
  /** Called after each page fetched with `allPages` or by a `for await` walk: pages and items so far. */
  onPage?: (progress: PageProgress) => void;
}

/** Progress of a paged fetch, as `onPage` receives it. */
export interface PageProgress {
  /** Pages fetched so far, the first included. */
  pages: number;
  /** Items (results) on those pages. */
  items: number;
}

/** Full-range group (SPEC 4.1 A), on aggregate-bar operations. */
export interface FullRangeOptions {
  /**
   * Fetch the whole range in chunks (no 50000-bar cap) and return one list of bars.
   * @default false
   */
  fullRange?: boolean;
  /**
   * Fetch chunks concurrently (else one after another).
   * @default true
   */
  runParallel?: boolean;
  /**
   * Most chunks in flight with `runParallel`.
   * @default 10
   */
  maxConcurrentWorkers?: number;
  /**
   * Report failures and anomalies to the client's `logger`.
   * @default true
   */
  warnings?: boolean;
  /**
   * Report informational messages (a chunk with no data) to the client's `logger`.
   * @default true
   */
  info?: boolean;
  /**
   * Smaller chunks, for heavily traded symbols.
   * @default false
   */
  highVolatility?: boolean;
  /** Called after each chunk: chunks done, chunks in all, bars so far. */
  onProgress?: (progress: { chunksDone: number; chunksTotal: number; bars: number }) => void;
}

const REQUEST_KEYS = ['rawResponse', 'signal'] as const;
const PAGINATION_KEYS = [
  'allPages',
  'maxPages',
  'mergeAllPages',
  'verbose',
  'rawPageResponses',
  'maxItems',
  'onPage',
] as const;
const FULL_RANGE_KEYS = [
  'fullRange',
  'runParallel',
  'maxConcurrentWorkers',
  'warnings',
  'info',
  'highVolatility',
  'onProgress',
] as const;

/** The options of one operation: its parameters plus the groups it supports. */
export type CallOptions<O extends OperationSpec> = ParamOptions<O> &
  RequestOptions &
  (O['paging'] extends 'next_url' ? PaginationOptions : unknown) &
  (O extends { fullRange: true } ? FullRangeOptions : unknown);

/** What an operation resolves to for the given options. */
export type Result<R, O, Bar = FullRangeBar> = O extends { fullRange: true }
  ? Bar[]
  : O extends { allPages: true }
    ? O extends { mergeAllPages: false }
      ? O extends { rawPageResponses: true }
        ? Response[]
        : R[]
      : R
    : O extends { rawResponse: true }
      ? Response
      : R;

/** Key of the type-only record in {@link ResultTypes}; no such property exists at run time. */
export declare const resultTypes: unique symbol;

/**
 * Type-only record of what a call's result is computed from (the decoded response and the bar of a full
 * range), carried by {@link Call} and {@link PagedCall}: once a method's options type is erased (as a
 * mapped type does), the synchronous client still derives its result from the options with
 * {@link Result}.
 */
export interface ResultTypes<R, Bar> {
  readonly [resultTypes]?: { response: R; bar: Bar };
}

/** What a non-paged operation returns for the options `O`: a promise of {@link Result}. */
export type Call<R, O, Bar = FullRangeBar> = Promise<Result<R, O, Bar>> & ResultTypes<R, Bar>;

/** What an operation paged by `next_url` returns for the options `O`; `Item` is what `for await` yields. */
export type PagedCall<R, O, Item, Bar = FullRangeBar> = PagePromise<Result<R, O, Bar>, Item> &
  ResultTypes<R, Bar>;

/** A decoded response, or a response object from `rawResponse`: what the pagination helpers take. */
export type AnyPage = object | Response | SyncRawResponse;

interface Fetched {
  data: unknown;
  http: HttpResponse;
}

const decodedOfResponse = new WeakMap<object, unknown>();

/**
 * The request core every asset-class client is built on: validation from the operation declarations,
 * one transport (timeouts, retries, auth), pagination, full-range aggregates and the pagination
 * helpers of SPEC 4.2. Resource clients declare one-line methods over `call`.
 */
export abstract class BaseClient {
  /** Options in force, defaults applied. The key is not enumerable. */
  readonly options: Omit<ResolvedClientOptions, 'apiKey'>;
  readonly #transport: Transport;
  #capture: { line: string; explicit: boolean }[] | undefined;
  #closed = false;
  /** Time zone of the market's day boundaries (full-range chunking). */
  protected abstract readonly timeZone: string;

  constructor(apiKey?: string | null, options?: ClientOptions) {
    const resolved = resolveClientOptions(apiKey, options);
    this.#transport = new Transport(resolved);
    const { apiKey: _key, ...rest } = resolved;
    this.options = rest;
  }

  /**
   * Calls an operation: validates the arguments, sends the request and decodes the answer, following
   * pages or fetching chunks when asked to.
   */
  protected call(op: OperationSpec, positional: readonly unknown[], options?: object): any {
    const opts = (options ?? {}) as Record<string, unknown>;
    const keys = callOptionKeys(op);
    // Validate now: a bad argument is an error before any request, even if the result is never awaited.
    const built = buildRequest(op, positional, opts, keys);
    if (opts.rawResponse !== undefined && typeof opts.rawResponse !== 'boolean') {
      throw new InvalidParameterError('rawResponse', opts.rawResponse, 'expected true or false');
    }
    if (op.fullRange) validateFullRange(opts);
    if (op.fullRange && opts.fullRange === true) return this.#fullRange(op, positional, opts);
    if (op.paging !== 'next_url') return this.#single(built.target, opts);
    validatePagination(opts);
    return new PagePromise(
      () => (opts.allPages === true ? this.#allPages(built.target, opts) : this.#single(built.target, opts)),
      () => this.#walk(built.target, opts),
    );
  }

  async #single(target: string, opts: Record<string, unknown>): Promise<unknown> {
    const fetched = await this.#fetch(target, opts.signal as AbortSignal | undefined);
    return opts.rawResponse === true ? toResponse(fetched) : fetched.data;
  }

  async #allPages(target: string, opts: Record<string, unknown>): Promise<unknown> {
    const maxPages = opts.maxPages as number | undefined;
    const signal = opts.signal as AbortSignal | undefined;
    const fetched: Fetched[] = [await this.#fetch(target, signal)];
    const onPage = opts.onPage as ((p: PageProgress) => void) | undefined;
    let items = pageItems(fetched[0]?.data).length;
    onPage?.({ pages: 1, items });
    if (opts.verbose === true) {
      this.#emit(`Fetched page 1${maxPages === undefined ? '' : ` of at most ${maxPages}`}`, true);
    }
    let link = pageLink(fetched[0]?.data, 'next');
    while (link && (maxPages === undefined || fetched.length < maxPages)) {
      fetched.push(await this.#fetch(link, signal));
      items += pageItems(fetched[fetched.length - 1]?.data).length;
      onPage?.({ pages: fetched.length, items });
      if (opts.verbose === true) this.#emit(`Fetched page ${fetched.length}`, true);
      link = pageLink(fetched[fetched.length - 1]?.data, 'next');
    }
    if (opts.verbose === true) {
      this.#emit(
        link
          ? `Stopped at maxPages (${maxPages}); more pages remain`
          : `No more pages: ${fetched.length} fetched`,
        true,
      );
    }
    if (opts.mergeAllPages === false) {
      return opts.rawPageResponses === true ? fetched.map(toResponse) : fetched.map((f) => f.data);
    }
    return mergePages(fetched.map((f) => f.data));
  }

  async *#walk(target: string, opts: Record<string, unknown>): AsyncGenerator<unknown> {
    const maxPages = opts.maxPages as number | undefined;
    const maxItems = opts.maxItems as number | undefined;
    const signal = opts.signal as AbortSignal | undefined;
    let link: string | undefined = target;
    let pages = 0;
    let items = 0;
    while (link && (maxPages === undefined || pages < maxPages)) {
      const { data } = await this.#fetch(link, signal);
      pages++;
      (opts.onPage as ((p: PageProgress) => void) | undefined)?.({
        pages,
        items: items + pageItems(data).length,
      });
      if (opts.verbose === true) this.#emit(`Fetched page ${pages}`, true);
      for (const item of pageItems(data)) {
        if (maxItems !== undefined && items >= maxItems) return;
        items++;
        yield item;
      }
      link = pageLink(data, 'next');
    }
  }

  async #fullRange(
    op: OperationSpec,
    positional: readonly unknown[],
    opts: Record<string, unknown>,
  ): Promise<unknown> {
    const [symbol, from, to] = positional;
    const signal = opts.signal as AbortSignal | undefined;
    const params: Record<string, unknown> = {};
    for (const p of op.params) if (!p.required && opts[p.name] !== undefined) params[p.name] = opts[p.name];
    const multiplier = (params.multiplier as number | undefined) ?? 1;
    const timespanDefault = op.params.find((p) => p.name === 'timespan')?.default;
    const timespan = (params.timespan as string | undefined) ?? (timespanDefault as string);
    const sort = (params.sort as 'asc' | 'desc' | undefined) ?? 'asc';
    const info = opts.info !== false;
    const warnings = opts.warnings !== false;
    return fetchFullRange(
      {
        from: from as never,
        to: to as never,
        timespan,
        multiplier,
        sort,
        runParallel: opts.runParallel !== false,
        maxConcurrentWorkers: (opts.maxConcurrentWorkers as number | undefined) ?? 10,
        highVolatility: opts.highVolatility === true,
        info,
        warnings,
        timeZone: this.timeZone,
        log: (level, message) => {
          if ((level === 'info' && info) || (level === 'warn' && warnings)) this.#emit(message, false);
        },
        ...(opts.onProgress ? { onProgress: opts.onProgress as never } : {}),
        ...(signal ? { signal } : {}),
      },
      async (fromMs, toMs, chunkSignal) => {
        // Each chunk asks for the most bars one page can hold and follows next_url, so a chunk that hits
        // the cap loses nothing.
        const chunkOptions = { ...params, sort: 'asc', limit: 50000 };
        let { target } = buildRequest(op, [symbol, fromMs, toMs], chunkOptions, EMPTY_KEYS);
        let bars: FullRangeBar[] = [];
        let status: string | undefined;
        let response: unknown;
        for (let link: string | undefined = target; link; link = pageLink(response, 'next')) {
          ({ data: response } = await this.#fetch(link, chunkSignal));
          target = link;
          status = (response as { status?: string }).status;
          const items = pageItems(response) as FullRangeBar[];
          if (bars.length === 0) bars = items;
          else for (const bar of items) bars.push(bar);
        }
        return { bars, ...(status !== undefined ? { status } : {}), response };
      },
    );
  }

  /** GETs a target, decodes the JSON; a body that does not decode is fetched again, within `maxRetries`. */
  async #fetch(target: string, signal: AbortSignal | undefined): Promise<Fetched> {
    if (this.#closed) throw new MdqError('This client is closed');
    for (let attempt = 0; ; attempt++) {
      const http = await this.#transport.get(target, signal ? { signal } : undefined);
      try {
        return { data: parseJson(http.body), http };
      } catch {
        // No `cause`: the parser's message can quote the body, which may echo the key.
        if (attempt >= this.options.maxRetries) {
          throw new DecodeError(
            `The response to ${stripQuery(http.url)} is not valid JSON (${http.body.length} characters; ${jsonSyntaxProblem(http.body)})`,
            http.status,
          );
        }
        this.#emit(`Response to ${stripQuery(http.url)} was not valid JSON; fetching it again`, false);
      }
    }
  }

  #emit(line: string, explicit: boolean): void {
    if (this.#capture) this.#capture.push({ line, explicit });
    else if (this.options.logger) this.options.logger(line);
    else if (explicit) process.stderr.write(`${line}\n`);
  }

  /**
   * Fetches a page by its URL (a `next_url` or `previous_url` value). The URL must be on the client's
   * base URL: a link to another origin is refused and never receives the key.
   */
  getPageByUrl<const O extends RequestOptions>(url: string, options?: O): Call<any, O> {
    if (typeof url !== 'string' || !url)
      throw new InvalidParameterError('url', url, 'expected a next_url or previous_url string');
    return this.#single(url, (options ?? {}) as Record<string, unknown>) as Call<any, O>;
  }

  /** The page after `oldResponse`, or `false` when there is none (or the operation does not page). */
  async getNextPage(oldResponse: AnyPage, options?: RequestOptions): Promise<any> {
    const link = await linkOf(oldResponse, 'next');
    return link ? this.getPageByUrl(link, options) : false;
  }

  /** The page before `oldResponse`, or `false` when there is none. */
  async getPreviousPage(oldResponse: AnyPage, options?: RequestOptions): Promise<any> {
    const link = await linkOf(oldResponse, 'previous');
    return link ? this.getPageByUrl(link, options) : false;
  }

  /**
   * Every page from `oldResponse` on, in order, `oldResponse` first (decoded). `maxPages` counts it.
   * `direction: 'previous'` follows `previous_url` instead.
   */
  async getAllPages(
    oldResponse: AnyPage,
    options: {
      maxPages?: number;
      direction?: 'next' | 'previous' | 'prev';
      verbose?: boolean;
      rawResponses?: boolean;
      signal?: AbortSignal;
    } = {},
  ): Promise<any[]> {
    validatePagination({ maxPages: options.maxPages });
    const direction = options.direction ?? 'next';
    if (!['next', 'previous', 'prev'].includes(direction)) {
      throw new InvalidParameterError('direction', direction, "expected 'next' or 'previous'");
    }
    const dir = direction === 'next' ? 'next' : 'previous';
    const first = await decodedOf(oldResponse);
    const pages: unknown[] = [options.rawResponses ? oldResponse : first];
    let link = pageLink(first, dir);
    while (link && (options.maxPages === undefined || pages.length < options.maxPages)) {
      const fetched = await this.#fetch(link, options.signal);
      pages.push(options.rawResponses ? toResponse(fetched) : fetched.data);
      if (options.verbose) this.#emit(`Fetched page ${pages.length}`, true);
      link = pageLink(fetched.data, dir);
    }
    return pages;
  }

  /**
   * Runs one method for the synchronous client's worker: log lines are collected and returned with the
   * result (the caller's logger runs on its own thread), and responses become plain objects.
   * @internal
   */
  async invokeForSync(
    method: string,
    args: unknown[],
  ): Promise<{ result: unknown; logs: { line: string; explicit: boolean }[] }> {
    const fn = (this as unknown as Record<string, unknown>)[method];
    if (typeof fn !== 'function' || method.startsWith('#') || method === 'invokeForSync') {
      throw new InvalidParameterError('method', method, 'not an operation of this client');
    }
    const logs: { line: string; explicit: boolean }[] = [];
    this.#capture = logs;
    try {
      const result = await (fn as (...a: unknown[]) => unknown).apply(this, args);
      return { result: await toSyncValue(result), logs };
    } finally {
      this.#capture = undefined;
    }
  }

  /** Releases the connections. Calls after `close()` fail. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#transport.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

const EMPTY_KEYS: ReadonlySet<string> = new Set();
const keysCache = new WeakMap<OperationSpec, ReadonlySet<string>>();
function callOptionKeys(op: OperationSpec): ReadonlySet<string> {
  let keys = keysCache.get(op);
  if (!keys) {
    keys = new Set<string>([
      ...REQUEST_KEYS,
      ...(op.paging === 'next_url' ? PAGINATION_KEYS : []),
      ...(op.fullRange ? FULL_RANGE_KEYS : []),
    ]);
    keysCache.set(op, keys);
  }
  return keys;
}

function validatePagination(opts: Record<string, unknown>): void {
  for (const key of ['maxPages', 'maxItems']) {
    const v = opts[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 1)) {
      throw new InvalidParameterError(
        key,
        v,
        'expected a whole number of at least 1, or undefined for no limit',
      );
    }
  }
  for (const key of ['allPages', 'mergeAllPages', 'verbose', 'rawPageResponses', 'rawResponse']) {
    const v = opts[key];
    if (v !== undefined && typeof v !== 'boolean')
      throw new InvalidParameterError(key, v, 'expected true or false');
  }
  if (opts.onPage !== undefined && typeof opts.onPage !== 'function') {
    throw new InvalidParameterError('onPage', opts.onPage, 'expected a function');
  }
}

function validateFullRange(opts: Record<string, unknown>): void {
  for (const key of ['fullRange', 'runParallel', 'warnings', 'info', 'highVolatility']) {
    const v = opts[key];
    if (v !== undefined && typeof v !== 'boolean')
      throw new InvalidParameterError(key, v, 'expected true or false');
  }
  const workers = opts.maxConcurrentWorkers;
  if (
    workers !== undefined &&
    (typeof workers !== 'number' || !Number.isSafeInteger(workers) || workers < 1)
  ) {
    throw new InvalidParameterError('maxConcurrentWorkers', workers, 'expected a positive integer');
  }
  if (opts.onProgress !== undefined && typeof opts.onProgress !== 'function') {
    throw new InvalidParameterError('onProgress', opts.onProgress, 'expected a function');
  }
}

function toResponse(f: Fetched): Response {
  const response = new Response(f.http.body, { status: f.http.status, headers: f.http.headers });
  Object.defineProperty(response, 'url', { value: f.http.url });
  decodedOfResponse.set(response, f.data);
  return response;
}

function isSyncRaw(x: unknown): x is SyncRawResponse {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as SyncRawResponse).body === 'string' &&
    typeof (x as SyncRawResponse).status === 'number'
  );
}

async function decodedOf(page: AnyPage): Promise<unknown> {
  if (page instanceof Response) {
    if (decodedOfResponse.has(page)) return decodedOfResponse.get(page);
    return parseJson(await page.clone().text());
  }
  if (isSyncRaw(page)) return parseJson(page.body);
  if (typeof page !== 'object' || page === null) {
    throw new InvalidParameterError('oldResponse', page, 'expected a response returned by this client');
  }
  return page;
}

async function linkOf(page: AnyPage, direction: 'next' | 'previous'): Promise<string | undefined> {
  return pageLink(await decodedOf(page), direction);
}

async function toSyncValue(value: unknown): Promise<unknown> {
  if (value instanceof Response) {
    return {
      status: value.status,
      headers: Object.fromEntries(value.headers),
      body: await value.clone().text(),
      url: value.url,
    } satisfies SyncRawResponse;
  }
  if (Array.isArray(value) && value.some((v) => v instanceof Response))
    return Promise.all(value.map(toSyncValue));
  return value;
}

/** The parser's complaints, by the start of its message, in words of our own. */
const JSON_PROBLEMS: readonly [RegExp, string][] = [
  [/^Unexpected end of JSON input/, 'unexpected end of input'],
  [/^Unterminated string/, 'unterminated string'],
  [/^Bad control character/, 'control character in a string'],
  [/^Bad (escaped character|Unicode escape)/, 'bad escape in a string'],
  [/^Unexpected non-whitespace character after JSON/, 'text after the JSON value'],
  [
    /^(No number after minus sign|Exponent part is missing|Unterminated fractional number)/,
    'malformed number',
  ],
  [/^Expected/, 'missing or misplaced punctuation'],
  [/^Unexpected/, 'unexpected character'],
];

/**
 * Where and why `text` is not JSON, as `<reason> at position <n>`, quoting none of it: V8's own messages
 * can quote the text (`Unexpected token 'x', "..." is not valid JSON`), which may echo the key. Parsed
 * again with plain `JSON.parse` so that the position is that of `text` (`parseJson` may rewrite it).
 */
function jsonSyntaxProblem(text: string): string {
  let message: string;
  try {
    JSON.parse(text);
    return 'unsupported content';
  } catch (error) {
    message = error instanceof Error ? error.message : '';
  }
  const reason = JSON_PROBLEMS.find(([pattern]) => pattern.test(message))?.[1] ?? 'syntax error';
  const position =
    /at position (\d+)/.exec(message)?.[1] ??
    (/^Unexpected end/.test(message) ? String(text.length) : undefined);
  return position === undefined ? reason : `${reason} at position ${position}`;
}

function stripQuery(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? url : url.slice(0, i);
}
