import {
  AggregateDecoder,
  AggregateOrText,
  type AggregatePage,
  aggregatePageOf,
  type DecodedAggregates,
} from './aggregate-columns.js';
import { type BarColumnField, type BarColumns, concatColumns, toColumns } from './bar-columns.js';
import { barObjects } from './bar-objects.js';
import {
  type FullRangeOptions,
  fullRangeOptionGroup,
  type PageProgress,
  type PaginationOptions,
  paginationOptionGroup,
  type RequestOptions,
  requestOptionGroup,
} from './call-options.js';
import {
  type ClientOptions,
  type LogLevel,
  type ResolvedClientOptions,
  resolveClientOptions,
} from './client-options.js';
import { DecodeError, InvalidParameterError, MdqError } from './errors.js';
import { type FullRangeBar, fetchFullRange, fetchFullRangeColumns } from './full-range.js';
import { parseJson } from './json.js';
import type { OperationSpec, ParamOptions } from './operation.js';
import { groupKeys, validateGroup } from './option-group.js';
import { PagePromise } from './page-promise.js';
import { LinkTrail, mergePages, pageItems, pageLink, repeatedLinkWarning } from './pages.js';
import { withPartialPages } from './partial-pages.js';
import { buildRequest } from './request.js';
import type { SyncRawResponse } from './sync/bridge.js';
import { type LentSocket, lendSocket, returnSocket } from './sync/lent-sockets.js';
import { type TextAnswer, textAnswer } from './sync/protocol.js';
import { type HttpResponse, Transport } from './transport.js';

export type {
  FullRangeOptions,
  PageProgress,
  PaginationOptions,
  RequestOptions,
} from './call-options.js';

/** The options of one operation: its parameters plus the groups it supports. */
export type CallOptions<O extends OperationSpec> = ParamOptions<O> &
  RequestOptions &
  (O['paging'] extends 'next_url' ? PaginationOptions : unknown) &
  (O extends { fullRange: true } ? FullRangeOptions : unknown);

/** What an operation resolves to for the given options. */
export type Result<R, O, Bar = FullRangeBar> = O extends { fullRange: true }
  ? O extends { columnar: true }
    ? BarColumns
    : Bar[]
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
export interface ResultTypes<R, Bar, Implied = unknown> {
  readonly [resultTypes]?: { response: R; bar: Bar; implied: Implied };
}

/**
 * What a non-paged operation returns for the options `O`: a promise of {@link Result}. `Implied` are
 * options the method sets itself (`fullRange: true`), for the synchronous client's result type.
 */
export type Call<R, O, Bar = FullRangeBar, Implied = unknown> = Promise<Result<R, O, Bar>> &
  ResultTypes<R, Bar, Implied>;

/** What an operation paged by `next_url` returns for the options `O`; `Item` is what `for await` yields. */
export type PagedCall<R, O, Item, Bar = FullRangeBar> = PagePromise<Result<R, O, Bar>, Item> &
  ResultTypes<R, Bar>;

/** Where the synchronous client's worker sends each log line of a call. @internal */
export type SyncLogSink = (line: string, explicit: boolean, level: LogLevel) => void;

/** A decoded response, or a response object from `rawResponse`: what the pagination helpers take. */
export type AnyPage = object | Response | SyncRawResponse;

/** Key of {@link SyncBars} in a result. @internal */
export const SYNC_BARS = '__mdqSyncBars';

/**
 * Full-range bars as the synchronous client's worker answers them: columns, moved to the calling
 * thread without a copy, and the keys the bars had on the wire, in order, with which the calling thread
 * rebuilds the same objects (`barObjects`). @internal
 */
export interface SyncBars {
  [SYNC_BARS]: { columns: BarColumns; keys: readonly BarColumnField[] };
}

/** The keys the bars of a full range had, page after page, and whether columns hold them exactly. */
interface PageShape {
  keys: readonly BarColumnField[] | undefined;
  exact: boolean;
}

export interface Fetched {
  data: unknown;
  http: HttpResponse;
}

const decodedOfResponse = new WeakMap<object, unknown>();
/** The text each response decoded in the synchronous client's worker came from. */
const syncText = new WeakMap<object, string>();

/**
 * The request core every asset-class client is built on: validation from the operation declarations,
 * one transport (timeouts, retries, auth), pagination, full-range aggregates and the pagination
 * helpers of SPEC 4.2. Resource clients declare one-line methods over `call`.
 */
export abstract class BaseClient {
  /** Options in force, defaults applied. The key is not enumerable. */
  readonly options: Omit<ResolvedClientOptions, 'apiKey'>;
  readonly #transport: Transport;
  /** Where log lines go while the synchronous client's worker runs a call (see `invokeForSync`). */
  #capture: SyncLogSink | undefined;
  /** The synchronous client's log sink, given with its first call and kept for the others. */
  #syncSink: SyncLogSink | undefined;
  /**
   * Set while the synchronous client's worker runs a call: full ranges are answered as {@link SyncBars},
   * and responses keep their text (`syncText`).
   */
  #syncBars = false;
  /** What the first operation a method called in the synchronous client's worker returned. */
  #firstCall: unknown;
  #closed = false;
  /** Connections lent to the synchronous client's calling thread, by descriptor. */
  readonly #lent = new Set<number>();
  /** Time zone of the market's day boundaries (full-range chunking). */
  protected abstract readonly timeZone: string;

  constructor(apiKey?: string | null, options?: ClientOptions) {
    const resolved = resolveClientOptions(apiKey, options);
    // The transport logs only retries: warnings, routed like every other line.
    this.#transport = new Transport({ ...resolved, logger: (line) => this.#emit(line, false, 'warn') });
    const { apiKey: _key, ...rest } = resolved;
    this.options = rest;
  }

  /**
   * Calls an operation: validates the arguments, sends the request and decodes the answer, following
   * pages or fetching chunks when asked to.
   */
  protected call(op: OperationSpec, positional: readonly unknown[], options?: object): any {
    const { target, opts, way } = prepareCall(op, positional, options);
    if (way === 'fullRange') return this.#fullRange(op, positional, opts);
    if (way === 'single') return this.#first(this.#single(target, opts));
    return this.#first(
      new PagePromise(
        () => (opts.allPages === true ? this.#allPages(target, opts) : this.#single(target, opts)),
        () => this.#walk(target, opts),
      ),
    );
  }

  /** Notes the first operation a method calls in the synchronous client's worker (see `invokeForSync`). */
  #first<T>(call: T): T {
    if (this.#syncBars && this.#firstCall === undefined) this.#firstCall = call;
    return call;
  }

  async #single(target: string, opts: Record<string, unknown>): Promise<unknown> {
    const fetched = await this.#fetch(target, opts.signal as AbortSignal | undefined);
    if (opts.rawResponse === true) return toResponse(fetched);
    const data = fetched.data;
    if (this.#syncBars && typeof data === 'object' && data !== null) syncText.set(data, fetched.http.body);
    return data;
  }

  async #allPages(target: string, opts: Record<string, unknown>): Promise<unknown> {
    const maxPages = (opts.maxPages ?? undefined) as number | undefined;
    const signal = opts.signal as AbortSignal | undefined;
    const fetched: Fetched[] = [await this.#fetch(target, signal)];
    const onPage = opts.onPage as ((p: PageProgress) => void) | undefined;
    let items = pageItems(fetched[0]?.data).length;
    onPage?.({ pages: 1, items });
    if (opts.verbose === true) {
      this.#emit(`Fetched page 1${maxPages === undefined ? '' : ` of at most ${maxPages}`}`, true);
    }
    const trail = new LinkTrail(target);
    let link = pageLink(fetched[0]?.data, 'next');
    let looped = false;
    while (link && (maxPages === undefined || fetched.length < maxPages)) {
      if (trail.repeats(link)) {
        looped = true;
        this.#emit(repeatedLinkWarning(link, fetched.length), true, 'warn');
        break;
      }
      try {
        fetched.push(await this.#fetch(link, signal));
      } catch (error) {
        throw withPartialPages(
          error,
          fetched.map((f) => f.data),
          opts.mergeAllPages !== false,
        );
      }
      items += pageItems(fetched[fetched.length - 1]?.data).length;
      onPage?.({ pages: fetched.length, items });
      if (opts.verbose === true) this.#emit(`Fetched page ${fetched.length}`, true);
      link = pageLink(fetched[fetched.length - 1]?.data, 'next');
    }
    if (opts.verbose === true && !looped) {
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
    const merged = mergePages(fetched.map((f) => f.data));
    // A link that only repeats pages leads nowhere new: the merged response does not offer it.
    if (looped && typeof merged === 'object' && merged !== null)
      delete (merged as { next_url?: unknown }).next_url;
    return merged;
  }

  async *#walk(target: string, opts: Record<string, unknown>): AsyncGenerator<unknown> {
    const maxPages = (opts.maxPages ?? undefined) as number | undefined;
    const maxItems = (opts.maxItems ?? undefined) as number | undefined;
    const signal = opts.signal as AbortSignal | undefined;
    let link: string | undefined = target;
    let pages = 0;
    let items = 0;
    const trail = new LinkTrail();
    while (link && (maxPages === undefined || pages < maxPages)) {
      if (trail.repeats(link)) {
        this.#emit(repeatedLinkWarning(link, pages), true, 'warn');
        return;
      }
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
    if (opts.columnar === true || !this.#syncBars) return this.#range(op, positional, opts);
    // In the synchronous client's worker, bar objects would be copied one by one to the calling thread:
    // the bars go as columns instead (moved, not copied) with their keys, and the calling thread makes
    // the objects. When the columns cannot hold them exactly (other fields or key orders), the range is
    // fetched again as objects, quietly (its progress and messages were reported the first time).
    const shape: PageShape = { keys: undefined, exact: true };
    const columns = (await this.#range(op, positional, { ...opts, columnar: true }, shape)) as BarColumns;
    if (shape.exact) return { [SYNC_BARS]: { columns, keys: shape.keys ?? [] } } satisfies SyncBars;
    return this.#range(op, positional, { ...opts, onProgress: undefined, info: false, warnings: false });
  }

  async #range(
    op: OperationSpec,
    positional: readonly unknown[],
    opts: Record<string, unknown>,
    shape?: PageShape,
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
    const columnar = opts.columnar === true;
    const fetch = columnar ? fetchFullRangeColumns : fetchFullRange;
    return fetch(
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
          // Shown by default (SPEC 4.1 A: printed): standard error when no logger is set.
          if ((level === 'info' && info) || (level === 'warn' && warnings)) this.#emit(message, true, level);
        },
        ...(opts.onProgress ? { onProgress: opts.onProgress as never } : {}),
        ...(signal ? { signal } : {}),
      },
      async (fromMs, toMs, chunkSignal) => {
        // Each chunk asks for the most bars one page can hold and follows next_url, so a chunk that hits
        // the cap loses nothing.
        const chunkOptions = { ...params, sort: 'asc', limit: 50000 };
        let { target } = buildRequest(op, [symbol, fromMs, toMs], chunkOptions, EMPTY_KEYS);
        if (columnar) return this.#chunkColumns(target, chunkSignal, warnings, shape);
        let bars: FullRangeBar[] = [];
        let status: string | undefined;
        let response: unknown;
        const trail = new LinkTrail();
        let pages = 0;
        for (let link: string | undefined = target; link; link = pageLink(response, 'next')) {
          if (trail.repeats(link)) {
            if (warnings) this.#emit(repeatedLinkWarning(link, pages), true, 'warn');
            break;
          }
          const page = await this.#fetchBars(link, chunkSignal);
          response = page.response;
          pages++;
          target = link;
          status = (response as { status?: string }).status;
          const items = page.bars;
          if (bars.length === 0) bars = items;
          else for (const bar of items) bars.push(bar);
        }
        return { bars, ...(status !== undefined ? { status } : {}), response };
      },
    );
  }

  /**
   * The bars of a full-range chunk as columns, each page decoded straight into columns (its text let go
   * once decoded), following `next_url`.
   */
  async #chunkColumns(
    target: string,
    signal: AbortSignal,
    warnings: boolean,
    shape: PageShape | undefined,
  ): Promise<{ columns: BarColumns; status?: string; response: unknown }> {
    let columns: BarColumns | undefined;
    let response: Record<string, unknown> = {};
    const trail = new LinkTrail();
    let pages = 0;
    for (let link: string | undefined = target; link; link = pageLink(response, 'next')) {
      if (trail.repeats(link)) {
        if (warnings) this.#emit(repeatedLinkWarning(link, pages), true, 'warn');
        break;
      }
      const page = await this.#fetchColumns(link, signal);
      pages++;
      response = page.response;
      if (shape && page.columns.length > 0) {
        if (page.keys === undefined) shape.exact = false;
        else if (shape.keys === undefined) shape.keys = page.keys;
        else if (shape.keys.join() !== page.keys.join()) shape.exact = false;
      }
      columns = columns ? concatColumns([columns, page.columns]) : page.columns;
    }
    const status = response.status;
    return {
      columns: columns ?? toColumns([]),
      ...(typeof status === 'string' ? { status } : {}),
      response,
    };
  }

  /**
   * A page of aggregate bars as columns, decoded as its body arrives (`AggregateDecoder`), so neither
   * the body nor its bars are ever held whole as text or objects. A page the decoder gives up on (another
   * shape, or not JSON) is fetched again and decoded by `parseJson`, with its retries.
   */
  async #fetchColumns(target: string, signal: AbortSignal): Promise<AggregatePage> {
    if (this.#closed) throw new MdqError('This client is closed');
    const http = await this.#transport.get(target, {
      signal,
      decoder: (length) => new AggregateDecoder(length),
    });
    const decoded = http.decoded as DecodedAggregates | undefined;
    if (decoded) this.#refuseError(decoded, http);
    return decoded ?? aggregatePageOf((await this.#fetch(target, signal)).data);
  }

  /**
   * A page of aggregate bars as objects, decoded as its body arrives: the decoder's columns made into
   * the objects `JSON.parse` gives (`barObjects`), which costs less than parsing the text and overlaps
   * the transfer. The body's pieces are kept too, so that a page the decoder gives up on (other fields
   * such as `otc`, other values) is parsed from them by `parseJson`, never fetched twice.
   */
  async #fetchBars(
    target: string,
    signal: AbortSignal,
  ): Promise<{ response: Record<string, unknown>; bars: FullRangeBar[] }> {
    if (this.#closed) throw new MdqError('This client is closed');
    const http = await this.#transport.get(target, {
      signal,
      decoder: (length) => new AggregateOrText(length),
    });
    const decoded = http.decoded as DecodedAggregates | string;
    if (typeof decoded !== 'string') {
      this.#refuseError(decoded, http);
      return { response: decoded.response, bars: barObjects(decoded.columns, decoded.keys) };
    }
    const { data } = await this.#fetch(target, signal, { ...http, body: decoded });
    return { response: data as Record<string, unknown>, bars: pageItems(data) as FullRangeBar[] };
  }

  /**
   * GETs a target, decodes the JSON; a body that does not decode is fetched again, within `maxRetries`.
   * `first` is the first attempt's response when it was already received.
   */
  async #fetch(target: string, signal: AbortSignal | undefined, first?: HttpResponse): Promise<Fetched> {
    if (this.#closed) throw new MdqError('This client is closed');
    for (let attempt = 0; ; attempt++) {
      const http =
        attempt === 0 && first ? first : await this.#transport.get(target, signal ? { signal } : undefined);
      const decoded = jsonOf(
        http,
        attempt,
        this.options.maxRetries,
        (line) => this.#emit(line, false, 'warn'),
        (data, res) => this.#transport.answerError(data, res),
      );
      if (decoded) return decoded;
    }
  }

  /** Throws the error a page of bars decoded as columns reports in its other members, if any. */
  #refuseError(decoded: DecodedAggregates, http: HttpResponse): void {
    // The columns stand for the page's `results`: a page with bars is data.
    const body = decoded.columns.length > 0 ? { ...decoded.response, results: [] } : decoded.response;
    const error = this.#transport.answerError(body, http);
    if (error) throw error;
  }

  /**
   * Hands a line to the logger; without one, a line the caller asked for (`explicit`: verbose pages,
   * full-range messages) goes to standard error and the others (retries) are dropped.
   */
  #emit(line: string, explicit: boolean, level: LogLevel = 'info'): void {
    if (this.#capture) this.#capture(line, explicit, level);
    else if (this.options.logger) this.options.logger(line, level);
    else if (explicit) process.stderr.write(`${line}\n`);
  }

  /**
   * Fetches a page by its URL (a `next_url` or `previous_url` value). The URL must be on the client's
   * base URL: a link to another origin is refused and never receives the key.
   */
  getPageByUrl<const O extends RequestOptions>(url: string, options?: O): Call<any, O> {
    if (typeof url !== 'string' || !url)
      throw new InvalidParameterError('url', url, 'expected a next_url or previous_url string');
    return this.#first(this.#single(url, (options ?? {}) as Record<string, unknown>)) as Call<any, O>;
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
    options: Pick<PaginationOptions, 'maxPages' | 'verbose'> &
      Pick<RequestOptions, 'signal'> & {
        direction?: 'next' | 'previous' | 'prev';
        rawResponses?: boolean;
      } = {},
  ): Promise<any[]> {
    validateGroup(paginationOptionGroup, { maxPages: options.maxPages, verbose: options.verbose });
    validateGroup(requestOptionGroup, { signal: options.signal });
    const direction = options.direction ?? 'next';
    if (!['next', 'previous', 'prev'].includes(direction)) {
      throw new InvalidParameterError('direction', direction, "expected 'next' or 'previous'");
    }
    const dir = direction === 'next' ? 'next' : 'previous';
    const first = await decodedOf(oldResponse);
    const pages: unknown[] = [options.rawResponses ? oldResponse : first];
    // The pages as data, kept on an error that stops the walk (raw responses may not cross threads).
    const data: unknown[] = [first];
    const trail = new LinkTrail();
    let link = pageLink(first, dir);
    const maxPages = options.maxPages ?? undefined;
    while (link && (maxPages === undefined || pages.length < maxPages)) {
      if (trail.repeats(link)) {
        this.#emit(repeatedLinkWarning(link, pages.length), true, 'warn');
        break;
      }
      let fetched: Fetched;
      try {
        fetched = await this.#fetch(link, options.signal);
      } catch (error) {
        throw withPartialPages(error, data, false);
      }
      data.push(fetched.data);
      pages.push(options.rawResponses ? toResponse(fetched) : fetched.data);
      if (options.verbose) this.#emit(`Fetched page ${pages.length}`, true);
      link = pageLink(fetched.data, dir);
    }
    return pages;
  }

  /**
   * Runs one method for the synchronous client's worker: log lines go to `sink` (the caller's thread
   * runs it while it waits, so a failing call keeps its lines; given once, it is kept for the calls
   * after, which saves passing a function across threads on every call), and responses become plain
   * objects.
   * `paged` tells whether the operation pages by `next_url` (its result can be walked).
   * A method that returns what its operation decoded from one response, as it was (no other method
   * made or changed it), answers that response's text instead (a {@link TextAnswer}, tagged 1 when it
   * pages): the calling thread decodes it with `parseJson`, as this thread did, rather than receiving a
   * clone of the objects.
   * @internal
   */
  async invokeForSync(
    method: string,
    args: unknown[],
    sink?: SyncLogSink,
  ): Promise<{ result: unknown; paged: boolean } | TextAnswer> {
    if (sink) this.#syncSink = sink;
    const fn = (this as unknown as Record<string, unknown>)[method];
    if (typeof fn !== 'function' || method.startsWith('#') || method === 'invokeForSync') {
      throw new InvalidParameterError('method', method, 'not an operation of this client');
    }
    this.#capture = this.#syncSink;
    this.#syncBars = true;
    this.#firstCall = undefined;
    try {
      const call = (fn as (...a: unknown[]) => unknown).apply(this, args);
      // A method that only returns its operation's call (the one-line methods) leaves its result as decoded.
      const direct = call === this.#firstCall;
      this.#firstCall = undefined;
      const value = await call;
      const paged = call instanceof PagePromise;
      const text = direct && typeof value === 'object' && value !== null ? syncText.get(value) : undefined;
      if (text !== undefined) return textAnswer(text, paged ? 1 : 0);
      return { result: await toSyncValue(value), paged };
    } finally {
      this.#capture = undefined;
      this.#syncBars = false;
    }
  }

  /**
   * Opens a connection to the client's `http:` origin and lends it to the synchronous client's calling
   * thread, which sends its requests on it itself (see `DirectTransport`).
   * @internal
   */
  openSocketForSync(): Promise<LentSocket> {
    if (this.#closed) return Promise.resolve({ failure: { message: 'the client is closed' } });
    return lendSocket(this.#transport.origin, this.options.connectTimeout * 1000).then((socket) => {
      if ('fd' in socket) this.#lent.add(socket.fd);
      return socket;
    });
  }

  /** Closes a connection lent by `openSocketForSync`. @internal */
  closeSocketForSync(fd: number): void {
    if (this.#lent.delete(fd)) returnSocket(fd);
  }

  /** Releases the connections. Calls after `close()` fail; closing again does nothing. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const fd of this.#lent) returnSocket(fd);
    this.#lent.clear();
    await this.#transport.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** A call of an operation, its arguments validated: its request target and how it is answered. */
export interface PreparedCall {
  readonly target: string;
  readonly opts: Record<string, unknown>;
  /** `fullRange`: chunks of a range; `pages`: a paged operation; `single`: one response. */
  readonly way: 'fullRange' | 'pages' | 'single';
}

/**
 * Validates a call of `op` (its positional arguments and options) and builds its request: a bad argument
 * is an error now, before any request, even if the result is never awaited.
 */
export function prepareCall(
  op: OperationSpec,
  positional: readonly unknown[],
  options?: object,
): PreparedCall {
  const opts = (options ?? {}) as Record<string, unknown>;
  const built = buildRequest(op, positional, opts, callOptionKeys(op));
  validateGroup(requestOptionGroup, opts);
  if (op.fullRange) validateGroup(fullRangeOptionGroup, opts);
  if (op.paging === 'next_url') validateGroup(paginationOptionGroup, opts);
  if (op.fullRange && opts.columnar === true && opts.fullRange !== true) {
    throw new InvalidParameterError(
      'columnar',
      true,
      'only with fullRange: true (columns hold a full range)',
    );
  }
  const way =
    op.fullRange && opts.fullRange === true ? 'fullRange' : op.paging === 'next_url' ? 'pages' : 'single';
  return { target: built.target, opts, way };
}

/**
 * The JSON of a response as `{ data }`; `undefined` when its body does not decode and it may be fetched
 * again (attempt `attempt` of `maxRetries` retries: `warn` is told), a `DecodeError` when it may not.
 * A body that reports an error (`"status": "NOT_AUTHORIZED"`: what `refuse` returns for it) is thrown
 * as that error, never returned as data.
 */
export function jsonOf(
  http: HttpResponse,
  attempt: number,
  maxRetries: number,
  warn: (line: string) => void,
  refuse: (data: unknown, http: HttpResponse) => Error | undefined,
): Fetched | undefined {
  let data: unknown;
  try {
    data = parseJson(http.body);
  } catch {
    // No `cause`: the parser's message can quote the body, which may echo the key.
    if (attempt >= maxRetries) {
      throw new DecodeError(
        `The response to ${stripQuery(http.url)} is not valid JSON (${http.body.length} characters; ${jsonSyntaxProblem(http.body)})`,
        http.status,
      );
    }
    warn(`Response to ${stripQuery(http.url)} was not valid JSON; fetching it again`);
    return undefined;
  }
  const error = refuse(data, http);
  if (error) throw error;
  return { data, http };
}

const EMPTY_KEYS: ReadonlySet<string> = new Set();
const keysCache = new WeakMap<OperationSpec, ReadonlySet<string>>();
function callOptionKeys(op: OperationSpec): ReadonlySet<string> {
  let keys = keysCache.get(op);
  if (!keys) {
    keys = new Set<string>([
      ...groupKeys(requestOptionGroup),
      ...(op.paging === 'next_url' ? groupKeys(paginationOptionGroup) : []),
      ...(op.fullRange ? groupKeys(fullRangeOptionGroup) : []),
    ]);
    keysCache.set(op, keys);
  }
  return keys;
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
