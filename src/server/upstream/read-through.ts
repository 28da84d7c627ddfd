import type { Context, Hono, Next } from 'hono';
import { resolveClientOptions } from '../../core/client-options.js';
import { isAPIError, isConnectionError, isDecodeError, isTimeoutError } from '../../core/errors.js';
import { parseJson, stringifyJson } from '../../core/json.js';
import { Transport } from '../../core/transport.js';
import { type AppEnv, errorBody, jsonResponse, notFound, originOf } from '../http.js';
import { marketTimeZone } from '../market/time-zone.js';
import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import { routePattern } from '../validate.js';
import type { CachedKind } from './cached-kind.js';
import { cachedKind, SNAPSHOTS } from './cached-kinds.js';
import {
  ALL_DAYS,
  type CoverageKind,
  coverageRows,
  type DayRange,
  dayNumber,
  dayText,
  missingRanges,
} from './coverage.js';
import { type Need, ROUTE_PLANS, type RoutePlan } from './route-plans.js';
import { firstOpenDay } from './session-end.js';
import { isNotStorable } from './store-listing.js';
import { snapshotRows, storeSnapshotRows } from './store-snapshots.js';
import { upstreamJson } from './upstream-json.js';
import {
  DEFAULT_UPSTREAM_URL,
  parseRate,
  UPSTREAM_MAX_AGE_SECONDS,
  UPSTREAM_TOTAL_TIMEOUT,
  type UpstreamOptions,
} from './upstream-options.js';

/** Paths of the service's REST API (not the WebSocket feeds or anything else the server answers). */
const API_PATH = /^\/(v\d+|vX|stocks|futures)\//;

/** The declaration of a kind the layer names (every name a route plan gives is declared). */
const kindOf = (name: CoverageKind): CachedKind => cachedKind(name) as CachedKind;

/** Counts of what a {@link ReadThrough} did, for `mdq cache status` and tests. */
export interface ReadThroughStats {
  /** Requests sent upstream (pages included). */
  upstreamRequests: number;
  /** Requests whose needs were all stored already. */
  answeredFromStore: number;
}

/**
 * The read-through layer of a caching server. In front of the local routes it decides, per request,
 * whether the store covers it completely; if not, it fetches the missing days from upstream (every
 * page), stores them as data with their coverage (`storeFetched`), and lets the local route answer
 * from the store. Requests it cannot describe as stored data (trades without a time range, a
 * listing's foreign cursor) are passed upstream as they are, their `next_url` pointed back here.
 *
 * Identical fetches in flight are made once; upstream requests go through the one request core
 * (`Transport`: retries, `Retry-After`, the rate limit, the key as a header, never in a URL).
 */
export class ReadThrough {
  readonly stats: ReadThroughStats = { upstreamRequests: 0, answeredFromStore: 0 };
  readonly #store: Store;
  readonly #transport: Transport | undefined;
  readonly #offline: boolean;
  readonly #recorded: boolean;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  readonly #log: (line: string) => void;
  readonly #flights = new Map<string, Promise<void>>();
  readonly #rowFlights = new Map<string, Promise<Record<string, unknown>>>();
  /** Writes wait for the answers being read to finish, and answers wait for a write. */
  #readers = 0;
  #writing: Promise<void> | undefined;
  #idle: (() => void) | undefined;

  /**
   * @param store - The store to read through into; opened writable.
   * @param options - The upstream, see {@link UpstreamOptions}.
   * @param log - Where a line per upstream fetch goes (never the key).
   * @param now - The clock that decides which sessions have ended (tests give their own).
   * @param mode - `recorded`: no upstream at all (a server without `--upstream` over a store a caching
   *   server filled): what was stored as answers and snapshot rows is answered, however old, and
   *   everything else by the local routes from what is stored, exactly as without this layer.
   * @throws InvalidParameterError for a bad `rate`, `maxAgeSeconds`, `totalTimeout` or `url`; MissingApiKeyError
   *   without a key for a remote upstream.
   */
  constructor(
    store: Store,
    options: UpstreamOptions,
    log: (line: string) => void = () => {},
    now: () => number = Date.now,
    mode: 'read-through' | 'recorded' = 'read-through',
  ) {
    this.#store = store;
    this.#recorded = mode === 'recorded';
    this.#offline = options.offline === true || this.#recorded;
    const age = options.maxAgeSeconds ?? UPSTREAM_MAX_AGE_SECONDS;
    if (!(age >= 0) || !Number.isFinite(age)) {
      throw new Error(`Invalid upstream maxAgeSeconds: ${String(age)}; expected seconds ≥ 0`);
    }
    this.#maxAgeMs = age * 1000;
    this.#now = now;
    this.#log = log;
    if (!this.#offline) {
      const rate = typeof options.rate === 'string' ? parseRate(options.rate) : options.rate;
      this.#transport = new Transport(
        resolveClientOptions(options.apiKey, {
          baseUrl: options.url ?? DEFAULT_UPSTREAM_URL,
          maxRetries: options.maxRetries ?? 2,
          totalTimeout: options.totalTimeout ?? UPSTREAM_TOTAL_TIMEOUT,
          ...(rate !== undefined && { rateLimit: rate }),
        }),
      );
    }
  }

  /**
   * Whether `store` holds anything a caching server stored as an answer or a snapshot row: a server
   * without an upstream over it answers those (see the `recorded` mode).
   */
  static async hasRecorded(store: Store): Promise<boolean> {
    const kinds = await store.all<{ kind: string }>('SELECT DISTINCT kind FROM coverage');
    return kinds.some((k) => cachedKind(k.kind)?.answer === true);
  }

  /** Mounts the layer's handlers on `app`, before the local routes (each calls on to them). */
  mount(app: Hono<AppEnv>): void {
    const planned = ROUTE_PLANS.map((p) => new RegExp(`^${routePattern(p.op).replace(/:[^/]+/g, '[^/]+')}$`));
    // What the layer does not store (gainers and losers, other listings, ...) is answered by the
    // service while online, and from what the store holds offline.
    app.use('*', async (c, next) => {
      const path = c.req.path;
      if (
        this.#offline ||
        c.req.method !== 'GET' ||
        !API_PATH.test(path) ||
        planned.some((p) => p.test(path))
      ) {
        return next();
      }
      try {
        return await this.#passThrough(c);
      } catch (e) {
        const answer = upstreamFailure(c, e);
        if (answer) return answer;
        throw e;
      }
    });
    for (const plan of ROUTE_PLANS) app.get(routePattern(plan.op), (c, next) => this.#serve(c, next, plan));
  }

  /** Closes the upstream connections. */
  async close(): Promise<void> {
    await this.#transport?.close();
  }

  /**
   * Fetches again every stored kind of `ticker` over `range` (corrections), replacing what is stored.
   * @returns The kinds and ranges fetched.
   */
  async refresh(ticker: string, range: DayRange): Promise<{ kind: CoverageKind; range: DayRange }[]> {
    const done: { kind: CoverageKind; range: DayRange }[] = [];
    const stored = await coverageRows(this.#store, ticker);
    const kinds = new Set(stored.map((r) => r.kind));
    for (const name of kinds) {
      const kind = cachedKind(name);
      // A kind this version does not store stays as it is.
      if (!kind) continue;
      const r = kind.span === 'whole' ? ALL_DAYS : range;
      // An answer about a period that had ended stays final: the period has not come back.
      const settlesAt =
        kind.span === 'whole' && stored.some((s) => s.kind === name && s.final) ? 0 : undefined;
      if (kind.dayAtATime) {
        for (let d = dayNumber(r.first); d <= dayNumber(r.last); d++) {
          await this.#fetch(ticker, kind, { first: dayText(d), last: dayText(d) });
        }
      } else await this.#fetch(ticker, kind, r, settlesAt);
      done.push({ kind: name, range: r });
    }
    return done;
  }

  async #serve(c: Context<AppEnv>, next: Next, plan: RoutePlan): Promise<Response | undefined> {
    let needs: Need[] | 'upstream';
    try {
      needs = plan.needs(c, this.#now());
    } catch (e) {
      // Without an upstream, the local route answers a request as it would without this layer.
      if (this.#recorded) {
        await this.#read(next);
        return undefined;
      }
      // A cursor the local routes cannot read came from the service: it pages upstream.
      if (new URL(c.req.url).searchParams.has('cursor') && !this.#offline) needs = 'upstream';
      else throw e;
    }
    const answered = needs !== 'upstream' && needs.length === 1 && needs[0] && kindOf(needs[0].kind).answer;
    try {
      const rows = needs !== 'upstream' && needs.length === 1 ? needs[0] : undefined;
      if (rows?.rows) return await this.#fromRows(c, next, rows);
      if (this.#recorded && !answered) {
        await this.#read(next);
        return undefined;
      }
      if (needs === 'upstream') {
        if (this.#offline) {
          await this.#read(next);
          return undefined;
        }
        return await this.#passThrough(c);
      }
      // Offline, a current state never fetched is computed by the local route from the stored data.
      if (!(answered && this.#offline)) {
        let fetched = false;
        for (const need of needs) fetched = (await this.#ensure(need)) || fetched;
        if (!fetched) this.stats.answeredFromStore++;
      }
    } catch (e) {
      if (isNotStorable(e)) {
        this.#log(`upstream: not stored, passed through: ${e.message}`);
        return this.#passThrough(c).catch((f: unknown) => {
          const answer = upstreamFailure(c, f);
          if (answer) return answer;
          throw f;
        });
      }
      const answer = upstreamFailure(c, e);
      if (answer) return answer;
      throw e;
    }
    if (answered) return this.#stored(c, next, needs[0] as Need);
    await this.#read(next);
    return undefined;
  }

  /**
   * An answer stored as fetched (a ticker's current state, a snapshot of many tickers, ...) answered as
   * stored; when none was ever fetched, the local route computes it from the stored data.
   */
  async #stored(c: Context<AppEnv>, next: Next, need: Need): Promise<Response | undefined> {
    const stored = await this.#read(() =>
      this.#store.all<{ body: string }>('SELECT body FROM reference_records WHERE kind = $1 AND id = $2', [
        need.kind,
        need.ticker,
      ]),
    );
    if (!stored[0]) {
      await this.#read(next);
      return undefined;
    }
    const id = c.get('requestId');
    const body = parseJson(stored[0].body) as Record<string, unknown>;
    if ('request_id' in body) body.request_id = id;
    for (const link of answerLinks(body)) link.set(`${originOf(c)}${link.url}`);
    return jsonResponse(stringifyJson(body), 200, id);
  }

  /**
   * A snapshot request answered from the rows of the tickers it names when all are stored and fresh
   * (offline: however old); otherwise fetched as it is, its snapshot objects stored as rows, and
   * answered as the service answered it. Offline, a request none of whose tickers is stored is computed
   * by the local route; one with some stored answers a 404 naming the others.
   */
  async #fromRows(c: Context<AppEnv>, next: Next, need: Need): Promise<Response | undefined> {
    const ask = need.rows as NonNullable<Need['rows']>;
    const kind = kindOf(need.kind);
    const freshSince = this.#offline ? 0 : this.#now() - this.#maxAgeMs;
    const stored = await this.#read(() => snapshotRows(this.#store, kind.name, ask.tickers, freshSince));
    for (const [ticker, item] of stored)
      if (ask.fits && !ask.fits(parseJson(item) as Record<string, unknown>)) stored.delete(ticker);
    const missing = ask.tickers.filter((t) => !stored.has(t));
    const id = c.get('requestId');
    if (missing.length === 0) {
      this.stats.answeredFromStore++;
      return jsonResponse(
        ask.answer(
          ask.tickers.map((t) => stored.get(t) as string),
          id,
        ),
        200,
        id,
      );
    }
    if (this.#offline) {
      if (stored.size === 0 || this.#recorded) {
        await this.#read(next);
        return undefined;
      }
      throw notFound(
        `Not stored: ${kind.label} of ${missing.join(', ')}; this server is offline and fetches nothing upstream.`,
      );
    }
    const body = { ...(await this.#fetchRows(need)) };
    if ('request_id' in body) body.request_id = id;
    for (const link of answerLinks(body)) link.set(`${originOf(c)}${link.url}`);
    return jsonResponse(stringifyJson(body), 200, id);
  }

  /**
   * Fetches a snapshot request as it is (one page, its links kept as paths of this server's) and stores
   * its snapshot objects as rows; an identical fetch in flight is joined.
   * @returns The answer.
   */
  #fetchRows(need: Need): Promise<Record<string, unknown>> {
    const key = JSON.stringify([need.ticker, need.kind, 'rows']);
    let flight = this.#rowFlights.get(key);
    if (!flight) {
      flight = (async () => {
        const transport = this.#transport as Transport;
        const fetchedAt = this.#now();
        this.stats.upstreamRequests++;
        const body = upstreamJson(await transport.get(need.ticker), transport);
        for (const link of answerLinks(body)) link.set(this.#localPath(link.url));
        const kind = SNAPSHOTS.find((s) => s.name === need.kind) as (typeof SNAPSHOTS)[number];
        const rows = await this.#writing$(() =>
          storeSnapshotRows(this.#store, kind.name, kind.items, [body], fetchedAt),
        );
        this.#log(`upstream: stored ${rows} ${kind.label}${rows === 1 ? '' : 's'} of ${need.ticker}`);
        return body;
      })().finally(() => this.#rowFlights.delete(key));
      this.#rowFlights.set(key, flight);
    }
    return flight;
  }

  /** Fetches what `need` lacks; true when anything was fetched. */
  async #ensure(need: Need): Promise<boolean> {
    const missing = await missingRanges(
      this.#store,
      need.ticker,
      need.accepts,
      need.range,
      // Offline, whatever is stored answers, however old.
      this.#offline ? 0 : this.#now() - this.#maxAgeMs,
    );
    if (missing.length === 0) return false;
    const kind = kindOf(need.kind);
    if (this.#offline) {
      const days =
        kind.span === 'whole' ? '' : ` for ${missing.map((r) => `${r.first}..${r.last}`).join(', ')}`;
      throw notFound(
        `Not stored: ${kind.label} ${need.ticker === '' ? 'with no filters' : `of ${need.ticker}`}${days}; this server is offline and fetches nothing upstream.`,
      );
    }
    for (const gap of missing) await this.#fetch(need.ticker, kind, gap, need.settlesAt);
    return true;
  }

  /**
   * Fetches one kind and range whole and stores it; an identical fetch in flight is joined, not repeated.
   * @param settlesAt - See {@link Need.settlesAt}.
   */
  #fetch(ticker: string, kind: CachedKind, range: DayRange, settlesAt?: number): Promise<void> {
    const key = JSON.stringify([ticker, kind.name, range.first, range.last]);
    let flight = this.#flights.get(key);
    if (!flight) {
      flight = this.#fetchNow(ticker, kind, range, settlesAt).finally(() => this.#flights.delete(key));
      this.#flights.set(key, flight);
    }
    return flight;
  }

  async #fetchNow(ticker: string, kind: CachedKind, range: DayRange, settlesAt?: number): Promise<void> {
    const transport = this.#transport as Transport;
    const tz = marketTimeZone(ticker);
    const fetchedAt = this.#now();
    const pages: Record<string, unknown>[] = [];
    let target: string | undefined = kind.first(ticker, range, tz);
    while (target !== undefined) {
      this.stats.upstreamRequests++;
      const res = await transport.get(target);
      const body = upstreamJson(res, transport);
      pages.push(body);
      target = typeof body.next_url === 'string' && body.next_url !== '' ? body.next_url : undefined;
      // An answer is stored as one page, its links kept as paths of this server's (see #stored).
      if (kind.answer) {
        for (const link of answerLinks(body)) link.set(this.#localPath(link.url));
        target = undefined;
      }
    }
    // Only a complete fetch is stored: an error above leaves the store as it was.
    const rows = await this.#writing$(() =>
      kind.storage.write(this.#store, {
        ticker,
        kind,
        range,
        tz,
        pages,
        fetchedAt,
        today: firstOpenDay(ticker, kind.name, fetchedAt),
        settled: settlesAt !== undefined && fetchedAt >= settlesAt,
      }),
    );
    this.#log(
      `upstream: stored ${rows} ${kind.label} of ${ticker}${kind.span === 'whole' ? '' : ` for ${range.first}..${range.last}`} (${pages.length} page${pages.length === 1 ? '' : 's'})`,
    );
  }

  /** Sends the request upstream as it is and answers with the service's body, links pointed here. */
  async #passThrough(c: Context<AppEnv>): Promise<Response> {
    const url = new URL(c.req.url);
    url.searchParams.delete('apiKey');
    const transport = this.#transport as Transport;
    this.stats.upstreamRequests++;
    const res = await transport.get(`${url.pathname}${url.search}`);
    const body = upstreamJson(res, transport);
    if (typeof body.next_url === 'string') body.next_url = `${originOf(c)}${this.#localPath(body.next_url)}`;
    if (typeof body.request_id === 'string') body.request_id = c.get('requestId');
    return new Response(stringifyJson(body), {
      status: res.status,
      headers: { 'content-type': 'application/json', 'x-request-id': c.get('requestId') },
    });
  }

  /** The path and query on this server of an upstream link, without any key. */
  #localPath(link: string): string {
    const transport = this.#transport as Transport;
    const next = new URL(link, transport.origin);
    next.searchParams.delete('apiKey');
    return `${next.pathname.slice(new URL(transport.origin).pathname.length - 1)}${next.search}`;
  }

  /** Runs a read of the store (a local answer) while no write is under way. */
  async #read<T>(read: () => Promise<T>): Promise<T> {
    while (this.#writing) await this.#writing;
    this.#readers++;
    try {
      return await read();
    } finally {
      if (--this.#readers === 0) this.#idle?.();
    }
  }

  /** Runs a write once the answers being read have finished; one write at a time. */
  async #writing$<T>(write: () => Promise<T>): Promise<T> {
    while (this.#writing) await this.#writing;
    let done: () => void = () => {};
    this.#writing = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      if (this.#readers > 0) {
        await new Promise<void>((resolve) => {
          this.#idle = resolve;
        });
        this.#idle = undefined;
      }
      return await write();
    } finally {
      this.#writing = undefined;
      done();
    }
  }
}

/**
 * The links of an answer to the service's own routes, which a stored answer keeps as paths of the
 * local server: its next page, and the aggregates an indicator was computed from.
 */
function answerLinks(body: Record<string, unknown>): { url: string; set: (url: string) => void }[] {
  const out: { url: string; set: (url: string) => void }[] = [];
  if (typeof body.next_url === 'string' && body.next_url !== '') {
    out.push({ url: body.next_url, set: (url) => (body.next_url = url) });
  }
  const results = body.results as { underlying?: Record<string, unknown> } | undefined;
  const underlying = results?.underlying;
  if (underlying && typeof underlying.url === 'string') {
    out.push({ url: underlying.url, set: (url) => (underlying.url = url) });
  }
  return out;
}

/**
 * The answer to an upstream failure, in the service's error shape: the service's own status and
 * message (a 429 with its `Retry-After`), 504 when it did not answer in time, or 502 when it could not
 * be reached. Undefined for any other error.
 */
function upstreamFailure(c: Context<AppEnv>, e: unknown): Response | undefined {
  const id = c.get('requestId');
  let status: number;
  let message: string;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': id };
  if (isAPIError(e)) {
    status = e.status;
    // The service's sentence ends where this one goes on.
    const said = e.apiMessage?.replace(/[.\s]+$/, '');
    // An error reported in a 200 body is answered with the status it stands for, and named as answered.
    const bodyStatus = typeof e.body === 'object' ? e.body.status : undefined;
    const answered =
      e.httpStatus === undefined || e.httpStatus === e.status
        ? `${e.status}`
        : `${e.httpStatus} with ${typeof bodyStatus === 'string' ? `status ${bodyStatus}` : 'an error in its body'}`;
    message = `The upstream service answered ${answered}${said ? `: ${said}` : ''}; nothing of this request was stored.`;
    const retryAfter = e.headers['retry-after'];
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  } else if (isTimeoutError(e) && e.name !== 'ConnectTimeout') {
    status = 504;
    message = `The upstream service did not answer in time (${e.name}); nothing of this request was stored.`;
  } else if (isConnectionError(e)) {
    status = 502;
    message = `The upstream service could not be reached (${e.name}); nothing of this request was stored.`;
  } else if (isDecodeError(e)) {
    status = 502;
    message = `${e.message}; nothing of this request was stored.`;
  } else return undefined;
  return new Response(stringifyJson(errorBody(status, id, message)), { status, headers });
}
