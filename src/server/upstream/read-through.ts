import type { Context, Hono, Next } from 'hono';
import { resolveClientOptions } from '../../core/client-options.js';
import { isAPIError, isConnectionError } from '../../core/errors.js';
import { parseJson, stringifyJson } from '../../core/json.js';
import type { OperationSpec } from '../../core/operation.js';
import { expandPath } from '../../core/path.js';
import { Transport } from '../../core/transport.js';
import { dayOf } from '../../dates/time-zone.js';
import { aggregateBars, dailyOpenClose, groupedDaily, previousClose } from '../../operations/aggregates.js';
import { lastQuote, lastTrade } from '../../operations/last.js';
import { dividends, splits, stockFinancials, tickerDetails, tickerNews } from '../../operations/reference.js';
import { snapshotTicker } from '../../operations/snapshots.js';
import { legacyTicks, quotesV3, tradesV3 } from '../../operations/trades-quotes.js';
import { type AppEnv, errorBody, jsonResponse, notFound, originOf } from '../http.js';
import { marketTimeZone } from '../market/time-zone.js';
import { type BarTimespan, DAY_MS, INTRADAY_MS, periodIndex, periodStartDay } from '../market/windows.js';
import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import { dayStartMs, dayStartNs, parseRequest, routePattern, timestampBounds } from '../validate.js';
import {
  ALL_DAYS,
  type CoverageKind,
  coverageRows,
  type DayRange,
  dayNumber,
  dayText,
  isLiveKind,
  isRecordKind,
  type LiveKind,
  missingRanges,
  type RecordKind,
} from './coverage.js';
import { firstOpenDay } from './session-end.js';
import { storeFetched, storeGrouped } from './store-fetched.js';
import {
  DEFAULT_UPSTREAM_URL,
  parseRate,
  UPSTREAM_MAX_AGE_SECONDS,
  type UpstreamOptions,
} from './upstream-options.js';

/** What one request needs stored before the local route can answer it. */
interface Need {
  ticker: string;
  /** The kind fetched when missing. */
  kind: CoverageKind;
  /** Kinds whose coverage answers the request too (finer bars roll up into coarser ones). */
  accepts: readonly CoverageKind[];
  range: DayRange;
}

/** Kinds that answer a bar request: its own resolution and every finer source the bars are built from. */
const BAR_SOURCES: Readonly<Record<'second' | 'minute' | 'day', readonly CoverageKind[]>> = {
  second: ['bars:second', 'trades'],
  minute: ['bars:minute', 'bars:second', 'trades'],
  day: ['bars:day', 'bars:minute', 'bars:second', 'trades'],
};

/** Most records a page may hold upstream: fewer pages for a whole range. */
const PAGE_LIMIT = { bars: 50_000, ticks: 50_000 };

const KIND_NAMES: Readonly<Record<CoverageKind, string>> = {
  'bars:second': 'second bars',
  'bars:minute': 'minute bars',
  'bars:day': 'daily bars',
  grouped: 'grouped daily bars',
  trades: 'trades',
  quotes: 'quotes',
  splits: 'splits',
  dividends: 'dividends',
  news: 'news',
  financials: 'financials',
  ticker_details: 'ticker details',
  snapshot: 'snapshot',
  last_trade: 'last trade',
  last_quote: 'last quote',
};

/**
 * Routes of a ticker's current state, stored as the answer that brought them: its snapshot (by the
 * ticker prefix of its market), its last trade and last quote.
 */
const LIVE: readonly { kind: LiveKind; prefix: string; op: OperationSpec }[] = [
  { kind: 'snapshot', prefix: 'C:', op: snapshotTicker('global/markets/forex') },
  { kind: 'snapshot', prefix: 'X:', op: snapshotTicker('global/markets/crypto') },
  { kind: 'snapshot', prefix: '', op: snapshotTicker('us/markets/stocks') },
  { kind: 'last_trade', prefix: '', op: lastTrade() },
  { kind: 'last_quote', prefix: '', op: lastQuote },
];

/** The listing of each kind of record, and the most records a page of it holds. */
const RECORD_LISTINGS: Readonly<
  Record<Exclude<RecordKind, 'ticker_details' | LiveKind>, [OperationSpec, number]>
> = {
  splits: [splits, 1000],
  dividends: [dividends, 1000],
  news: [tickerNews, 1000],
  financials: [stockFinancials, 100],
};

/** Paths of the service's REST API (not the WebSocket feeds or anything else the server answers). */
const API_PATH = /^\/(v\d+|vX|stocks|futures)\//;

const aggregatesOp = aggregateBars();
const openCloseOp = dailyOpenClose();
const prevOp = previousClose();
/**
 * Grouped daily bars of the markets whose answer daily bars make whole, and the ticker pattern their
 * coverage is stored under. Crypto's stamps each bar with the day's last minute of trading, which
 * daily bars do not hold: it goes upstream.
 */
const GROUPED = [
  { op: groupedDaily('us/market/stocks'), pattern: '*' },
  { op: groupedDaily('global/market/fx'), pattern: 'C:*' },
] as const;
const tradesOp = tradesV3({ name: 'listTrades' });
const quotesOp = quotesV3({ name: 'listQuotes' });
/** The legacy v2 ticks of one day, by the coverage kind they read. */
const LEGACY_TICKS = [
  { kind: 'trades', op: legacyTicks('trades') },
  { kind: 'quotes', op: legacyTicks('nbbo') },
] as const;

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
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  readonly #log: (line: string) => void;
  readonly #flights = new Map<string, Promise<void>>();
  /** Writes wait for the answers being read to finish, and answers wait for a write. */
  #readers = 0;
  #writing: Promise<void> | undefined;
  #idle: (() => void) | undefined;

  /**
   * @param store - The store to read through into; opened writable.
   * @param options - The upstream, see {@link UpstreamOptions}.
   * @param log - Where a line per upstream fetch goes (never the key).
   * @param now - The clock that decides which sessions have ended (tests give their own).
   * @throws InvalidParameterError for a bad `rate`, `maxAgeSeconds` or `url`; MissingApiKeyError
   *   without a key for a remote upstream.
   */
  constructor(
    store: Store,
    options: UpstreamOptions,
    log: (line: string) => void = () => {},
    now: () => number = Date.now,
  ) {
    this.#store = store;
    this.#offline = options.offline === true;
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
          ...(rate !== undefined && { rateLimit: rate }),
        }),
      );
    }
  }

  /** Mounts the layer's handlers on `app`, before the local routes (each calls on to them). */
  mount(app: Hono<AppEnv>): void {
    const planned = [
      aggregatesOp,
      openCloseOp,
      prevOp,
      ...GROUPED.map((g) => g.op),
      tradesOp,
      quotesOp,
      ...LEGACY_TICKS.map((l) => l.op),
      tickerDetails,
      ...LIVE.map((l) => l.op),
      ...Object.values(RECORD_LISTINGS).map(([op]) => op),
    ].map((op) => new RegExp(`^${routePattern(op).replace(/:[^/]+/g, '[^/]+')}$`));
    // What the layer cannot store (snapshots of many tickers, last trade and quote, other listings) is
    // answered by the service while online, and from what the store holds offline.
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
    app.get(routePattern(aggregatesOp), (c, next) => this.#serve(c, next, aggregateNeeds));
    app.get(routePattern(openCloseOp), (c, next) => this.#serve(c, next, openCloseNeeds));
    for (const g of GROUPED)
      app.get(routePattern(g.op), (c, next) => this.#serve(c, next, (cc) => groupedNeeds(cc, g)));
    app.get(routePattern(prevOp), (c, next) =>
      this.#serve(c, next, (cc) => previousCloseNeeds(cc, this.#now())),
    );
    for (const { kind, op } of LEGACY_TICKS) {
      app.get(routePattern(op), (c, next) =>
        this.#serve(c, next, (cc) => {
          const req = parseRequest(op, cc);
          const ticker = req.values.get('ticker') as string;
          const { date } = req.values.get('date') as { date: string };
          return [{ ticker, kind, accepts: [kind], range: { first: date, last: date } }];
        }),
      );
    }
    app.get(routePattern(tradesOp), (c, next) =>
      this.#serve(c, next, (cc) => tickNeeds(cc, tradesOp, 'trades')),
    );
    app.get(routePattern(quotesOp), (c, next) =>
      this.#serve(c, next, (cc) => tickNeeds(cc, quotesOp, 'quotes')),
    );
    for (const [kind, [op]] of Object.entries(RECORD_LISTINGS)) {
      app.get(routePattern(op), (c, next) =>
        this.#serve(c, next, (cc) => recordNeeds(cc, op, kind as RecordKind)),
      );
    }
    app.get(routePattern(tickerDetails), (c, next) => this.#serve(c, next, detailsNeeds));
    for (const live of LIVE) app.get(routePattern(live.op), (c, next) => this.#live(c, next, live));
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
    const kinds = new Set((await coverageRows(this.#store, ticker)).map((r) => r.kind));
    for (const kind of kinds) {
      const r = isRecordKind(kind) ? ALL_DAYS : range;
      // A market's grouped daily bars are fetched a day at a time.
      if (kind === 'grouped') {
        for (let d = dayNumber(r.first); d <= dayNumber(r.last); d++) {
          await this.#fetch(ticker, kind, { first: dayText(d), last: dayText(d) });
        }
      } else await this.#fetch(ticker, kind, r);
      done.push({ kind, range: r });
    }
    return done;
  }

  async #serve(
    c: Context<AppEnv>,
    next: Next,
    plan: (c: Context<AppEnv>) => Need[] | 'upstream',
  ): Promise<Response | undefined> {
    let needs: Need[] | 'upstream';
    try {
      needs = plan(c);
    } catch (e) {
      // A cursor the local routes cannot read came from the service: it pages upstream.
      if (new URL(c.req.url).searchParams.has('cursor') && !this.#offline) needs = 'upstream';
      else throw e;
    }
    try {
      if (needs === 'upstream') {
        if (this.#offline) {
          await this.#read(next);
          return undefined;
        }
        return await this.#passThrough(c);
      }
      let fetched = false;
      for (const need of needs) fetched = (await this.#ensure(need)) || fetched;
      if (!fetched) this.stats.answeredFromStore++;
    } catch (e) {
      const answer = upstreamFailure(c, e);
      if (answer) return answer;
      throw e;
    }
    await this.#read(next);
    return undefined;
  }

  /**
   * A ticker's current state (snapshot, last trade or quote): fetched when the stored one is older than
   * the age allowed, and answered as stored. Offline, or when none was ever fetched, the local route
   * computes it from the stored data.
   */
  async #live(
    c: Context<AppEnv>,
    next: Next,
    { kind, prefix, op }: (typeof LIVE)[number],
  ): Promise<Response | undefined> {
    const raw = String(parseRequest(op, c).values.get('ticker'));
    const ticker = raw.startsWith(prefix) ? raw : `${prefix}${raw}`;
    if (!this.#offline) {
      try {
        const fetched = await this.#ensure({ ticker, kind, accepts: [kind], range: ALL_DAYS });
        if (!fetched) this.stats.answeredFromStore++;
      } catch (e) {
        const answer = upstreamFailure(c, e);
        if (answer) return answer;
        throw e;
      }
    }
    const stored = await this.#read(() =>
      this.#store.all<{ body: string }>('SELECT body FROM reference_records WHERE kind = $1 AND id = $2', [
        kind,
        ticker,
      ]),
    );
    if (!stored[0]) {
      await this.#read(next);
      return undefined;
    }
    const id = c.get('requestId');
    const body = parseJson(stored[0].body) as Record<string, unknown>;
    body.request_id = id;
    return jsonResponse(stringifyJson(body), 200, id);
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
    if (this.#offline) {
      const days = isRecordKind(need.kind)
        ? ''
        : ` for ${missing.map((r) => `${r.first}..${r.last}`).join(', ')}`;
      throw notFound(
        `Not stored: ${KIND_NAMES[need.kind]} of ${need.ticker}${days}; this server is offline and fetches nothing upstream.`,
      );
    }
    for (const gap of missing) await this.#fetch(need.ticker, need.kind, gap);
    return true;
  }

  /** Fetches one kind and range whole and stores it; an identical fetch in flight is joined, not repeated. */
  #fetch(ticker: string, kind: CoverageKind, range: DayRange): Promise<void> {
    const key = JSON.stringify([ticker, kind, range.first, range.last]);
    let flight = this.#flights.get(key);
    if (!flight) {
      flight = this.#fetchNow(ticker, kind, range).finally(() => this.#flights.delete(key));
      this.#flights.set(key, flight);
    }
    return flight;
  }

  async #fetchNow(ticker: string, kind: CoverageKind, range: DayRange): Promise<void> {
    const transport = this.#transport as Transport;
    const tz = marketTimeZone(ticker);
    const fetchedAt = this.#now();
    const pages: Record<string, unknown>[] = [];
    let target: string | undefined = upstreamTarget(ticker, kind, range, tz);
    while (target !== undefined) {
      this.stats.upstreamRequests++;
      const res = await transport.get(target);
      const body = parseJson(res.body) as Record<string, unknown>;
      pages.push(body);
      target = typeof body.next_url === 'string' && body.next_url !== '' ? body.next_url : undefined;
    }
    // Only a complete fetch is stored: an error above leaves the store as it was.
    const rows = await this.#writing$(() =>
      (kind === 'grouped' ? storeGrouped : storeFetched)(this.#store, {
        ticker,
        kind,
        range,
        tz,
        pages,
        fetchedAt,
        today: firstOpenDay(ticker, kind, fetchedAt),
      }),
    );
    this.#log(
      `upstream: stored ${rows} ${KIND_NAMES[kind]} of ${ticker}${isRecordKind(kind) ? '' : ` for ${range.first}..${range.last}`} (${pages.length} page${pages.length === 1 ? '' : 's'})`,
    );
  }

  /** Sends the request upstream as it is and answers with the service's body, links pointed here. */
  async #passThrough(c: Context<AppEnv>): Promise<Response> {
    const url = new URL(c.req.url);
    url.searchParams.delete('apiKey');
    const transport = this.#transport as Transport;
    this.stats.upstreamRequests++;
    const res = await transport.get(`${url.pathname}${url.search}`);
    const body = parseJson(res.body) as Record<string, unknown>;
    if (typeof body.next_url === 'string') {
      const next = new URL(body.next_url);
      next.searchParams.delete('apiKey');
      body.next_url = `${originOf(c)}${next.pathname.slice(new URL(transport.origin).pathname.length - 1)}${next.search}`;
    }
    if (typeof body.request_id === 'string') body.request_id = c.get('requestId');
    return new Response(stringifyJson(body), {
      status: res.status,
      headers: { 'content-type': 'application/json', 'x-request-id': c.get('requestId') },
    });
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

/** The upstream request (first page) of one kind and range. */
function upstreamTarget(ticker: string, kind: CoverageKind, range: DayRange, tz: string): string {
  if (kind.startsWith('bars:')) {
    const path = expandPath(aggregatesOp.path, {
      ticker,
      multiplier: '1',
      timespan: kind.slice(5),
      from: range.first,
      to: range.last,
    });
    return `${path}?adjusted=false&sort=asc&limit=${PAGE_LIMIT.bars}`;
  }
  if (kind === 'grouped') {
    const g = GROUPED.find((x) => x.pattern === ticker) as (typeof GROUPED)[number];
    return `${expandPath(g.op.path, { date: range.first })}?adjusted=false`;
  }
  if (kind === 'ticker_details') return expandPath(tickerDetails.path, { ticker });
  if (isLiveKind(kind)) {
    const live = LIVE.find((l) => l.kind === kind && ticker.startsWith(l.prefix)) as (typeof LIVE)[number];
    return expandPath(live.op.path, { ticker });
  }
  if (isRecordKind(kind)) {
    const [op, limit] = RECORD_LISTINGS[kind];
    return `${op.path}?${new URLSearchParams({ ticker, limit: String(limit) })}`;
  }
  const op = kind === 'trades' ? tradesOp : quotesOp;
  const query = new URLSearchParams({
    'timestamp.gte': String(dayStartNs(range.first, tz, 0)),
    'timestamp.lt': String(dayStartNs(range.last, tz, 1)),
    order: 'asc',
    sort: 'timestamp',
    limit: String(PAGE_LIMIT.ticks),
  });
  return `${expandPath(op.path, { ticker })}?${query}`;
}

/** The days of a bar request: every day its windows touch, snapped out as the local route snaps them. */
function aggregateNeeds(c: Context<AppEnv>): Need[] {
  const req = parseRequest(aggregatesOp, c);
  const ticker = req.values.get('ticker') as string;
  const tz = marketTimeZone(ticker);
  const from = req.values.get('from') as { date: string } | { ms: number };
  const to = req.values.get('to') as { date: string } | { ms: number };
  const fromMs = 'ms' in from ? from.ms : dayStartMs(from.date, tz, 0);
  const toMs = 'ms' in to ? to.ms : dayStartMs(to.date, tz, 1) - 1;
  // Out of order: the local route answers the 400.
  if (!(fromMs <= toMs) || !Number.isFinite(fromMs) || !Number.isFinite(toMs)) return [];
  const multiplier = req.values.get('multiplier') as number;
  const timespan = req.values.get('timespan') as BarTimespan;
  let range: DayRange;
  let base: 'second' | 'minute' | 'day';
  const unit = INTRADAY_MS[timespan];
  if (unit !== undefined) {
    base = timespan === 'second' ? 'second' : 'minute';
    // Windows that divide a day start on midnight; longer ones may start on an earlier day.
    const size = unit * multiplier;
    const aligned = DAY_MS % size === 0;
    range = {
      first: dayOf(aligned ? fromMs : fromMs - size + 1, tz),
      last: dayOf(aligned ? toMs : toMs + size - 1, tz),
    };
  } else {
    base = 'day';
    const anchor = periodIndex(timespan, dayNumber(dayOf(fromMs, tz)));
    const end = periodIndex(timespan, dayNumber(dayOf(toMs, tz)));
    const windows = Math.floor((end - anchor) / multiplier) + 1;
    range = {
      first: dayText(periodStartDay(timespan, anchor)),
      last: dayText(periodStartDay(timespan, anchor + windows * multiplier) - 1),
    };
  }
  const needs: Need[] = [{ ticker, kind: `bars:${base}`, accepts: BAR_SOURCES[base], range }];
  // Adjusting reads the ticker's splits; only stocks (tickers without a class prefix) have any.
  if (!/^[A-Z]:/.test(ticker) && req.values.get('adjusted') !== false) {
    needs.push({ ticker, kind: 'splits', accepts: ['splits'], range: ALL_DAYS });
  }
  return needs;
}

/**
 * A day's open, close, pre-market and after-hours prices come from its minute bars (or finer), with the
 * stock's splits when adjusted.
 */
function openCloseNeeds(c: Context<AppEnv>): Need[] {
  const req = parseRequest(openCloseOp, c);
  const ticker = req.values.get('ticker') as string;
  const { date } = req.values.get('date') as { date: string };
  const needs: Need[] = [
    { ticker, kind: 'bars:minute', accepts: BAR_SOURCES.minute, range: { first: date, last: date } },
  ];
  if (!/^[A-Z]:/.test(ticker) && req.values.get('adjusted') !== false) {
    needs.push({ ticker, kind: 'splits', accepts: ['splits'], range: ALL_DAYS });
  }
  return needs;
}

/** Days before today a previous close looks back over: the last session is within them on any calendar. */
const PREVIOUS_CLOSE_DAYS = 7;

/**
 * A previous close is the daily bar of the last session before today: the daily bars of the week
 * before today (ended sessions, kept for good), with the stock's splits when adjusted.
 */
function previousCloseNeeds(c: Context<AppEnv>, now: number): Need[] {
  const req = parseRequest(prevOp, c);
  const ticker = req.values.get('ticker') as string;
  const today = dayNumber(dayOf(now, marketTimeZone(ticker)));
  const range = { first: dayText(today - PREVIOUS_CLOSE_DAYS), last: dayText(today - 1) };
  const needs: Need[] = [{ ticker, kind: 'bars:day', accepts: BAR_SOURCES.day, range }];
  if (!/^[A-Z]:/.test(ticker) && req.values.get('adjusted') !== false) {
    needs.push({ ticker, kind: 'splits', accepts: ['splits'], range: ALL_DAYS });
  }
  return needs;
}

/**
 * A market's daily bars of one day are stored unadjusted, whole: asked unadjusted (or for forex, which
 * has no splits), they are answered from the store. Adjusted stock bars need every
 * ticker's splits, and OTC tickers are not stored: those go upstream.
 */
function groupedNeeds(c: Context<AppEnv>, g: (typeof GROUPED)[number]): Need[] | 'upstream' {
  const req = parseRequest(g.op, c);
  const { date } = req.values.get('date') as { date: string };
  if (g.pattern === '*' && (req.values.get('adjusted') !== false || req.values.get('includeOtc') === true))
    return 'upstream';
  return [{ ticker: g.pattern, kind: 'grouped', accepts: ['grouped'], range: { first: date, last: date } }];
}

/** The days of a trades or quotes listing; one without both ends of a time range goes upstream. */
function tickNeeds(c: Context<AppEnv>, op: OperationSpec, kind: 'trades' | 'quotes'): Need[] | 'upstream' {
  const req = parseRequest(op, c);
  const ticker = req.values.get('ticker') as string;
  const tz = marketTimeZone(ticker);
  const b = timestampBounds(req.values, tz);
  if (b.gte === undefined || b.lt === undefined) return 'upstream';
  if (b.gte >= b.lt) return [];
  const ms = (ns: bigint) => Number(ns / 1_000_000n);
  return [
    { ticker, kind, accepts: [kind], range: { first: dayOf(ms(b.gte), tz), last: dayOf(ms(b.lt - 1n), tz) } },
  ];
}

/** A listing of one ticker's records is answered from its records stored whole; other listings go upstream. */
function recordNeeds(c: Context<AppEnv>, op: OperationSpec, kind: RecordKind): Need[] | 'upstream' {
  const req = parseRequest(op, c);
  const ticker = req.values.get('ticker');
  if (typeof ticker !== 'string' || ticker === '') return 'upstream';
  return [{ ticker, kind, accepts: [kind], range: ALL_DAYS }];
}

/** A ticker's details as of today are stored as a record; as of another date they go upstream. */
function detailsNeeds(c: Context<AppEnv>): Need[] | 'upstream' {
  const req = parseRequest(tickerDetails, c);
  const ticker = req.values.get('ticker');
  if (typeof ticker !== 'string' || ticker === '' || req.values.get('date') !== undefined) return 'upstream';
  return [{ ticker, kind: 'ticker_details', accepts: ['ticker_details'], range: ALL_DAYS }];
}

/**
 * The answer to an upstream failure, in the service's error shape: the service's own status and
 * message (a 429 with its `Retry-After`), or 502 when it could not be reached. Undefined for any other
 * error.
 */
function upstreamFailure(c: Context<AppEnv>, e: unknown): Response | undefined {
  const id = c.get('requestId');
  let status: number;
  let message: string;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': id };
  if (isAPIError(e)) {
    status = e.status;
    message = `The upstream service answered ${e.status}${e.apiMessage ? `: ${e.apiMessage}` : ''}; nothing of this request was stored.`;
    const retryAfter = e.headers['retry-after'];
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  } else if (isConnectionError(e)) {
    status = 502;
    message = `The upstream service could not be reached (${e.name}); nothing of this request was stored.`;
  } else return undefined;
  return new Response(stringifyJson(errorBody(status, id, message)), { status, headers });
}
