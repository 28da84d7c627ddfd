import { listValue } from '@duckdb/node-api';
import { expandPath } from '../../core/path.js';
import { aggregateBars, groupedDaily } from '../../operations/aggregates.js';
import { lastQuote, lastTrade } from '../../operations/last.js';
import {
  dividends,
  ipos,
  iposV1,
  optionContracts,
  relatedCompanies,
  splits,
  stockFinancials,
  tickerDetails,
  tickerEvents,
  tickerNews,
  tickers,
} from '../../operations/reference.js';
import {
  indicesSnapshot,
  optionContractSnapshot,
  snapshotTicker,
  universalSnapshot,
} from '../../operations/snapshots.js';
import { quotesV3, tradesV3 } from '../../operations/trades-quotes.js';
import type { JsonKind } from '../ingest/json-kinds.js';
import { TICKER_RECORD_COLUMNS } from '../ingest/ticker-records.js';
import { dayStartNs } from '../validate.js';
import type { CachedKind } from './cached-kind.js';
import { FUTURES_KINDS } from './futures-kinds.js';
import {
  answerStorage,
  groupedStorage,
  list,
  num,
  recordStorage,
  tableStorage,
  text,
} from './store-fetched.js';
import { listingStorage, recordListingStorage } from './store-listing.js';
import { isRequest, optionItems, resultItems, snapshotStorage, v2Items } from './store-snapshots.js';
import { V2_MARKETS } from './v2-markets.js';

/**
 * Every kind of data the caching server stores, one declaration each (see {@link CachedKind}); the
 * `coverage` table names them. Adding a kind is one more entry in `CACHED_KINDS`.
 */

type Json = Record<string, unknown>;

/** Most records a page may hold upstream: fewer pages for a whole range. */
const PAGE_LIMIT = { bars: 50_000, ticks: 50_000 };

const aggregatesOp = aggregateBars();

/** Unadjusted base bars of one resolution, by day. */
const bars = (resolution: 'second' | 'minute' | 'day', label: string): CachedKind => ({
  name: `bars:${resolution}`,
  label,
  span: 'day',
  first: (ticker, range) =>
    `${expandPath(aggregatesOp.path, { ticker, multiplier: '1', timespan: resolution, from: range.first, to: range.last })}?adjusted=false&sort=asc&limit=${PAGE_LIMIT.bars}`,
  storage: tableStorage({
    table: 'bars',
    time: 't',
    resolution,
    timeMs: (b) => Number(b.t),
    // Index bars carry no volume.
    line: (t, b) =>
      `${t}\t${resolution}\t${num(b.t)}\t${num(b.o)}\t${num(b.h)}\t${num(b.l)}\t${num(b.c)}\t${num(b.v) || '0'}\t${num(b.vw)}\t${num(b.n)}`,
  }),
});

/** The v3 listing's first page of a ticker's ticks over whole days, oldest first. */
const ticksOf =
  (path: string): CachedKind['first'] =>
  (ticker, range, tz) =>
    `${expandPath(path, { ticker })}?${new URLSearchParams({
      'timestamp.gte': String(dayStartNs(range.first, tz, 0)),
      'timestamp.lt': String(dayStartNs(range.last, tz, 1)),
      order: 'asc',
      sort: 'timestamp',
      limit: String(PAGE_LIMIT.ticks),
    })}`;
// Forex quotes and crypto ticks carry one timestamp, the participant's: the store keeps it as the SIP
// time, as an ingest of their files does.
const tickNs = (r: Json) => r.sip_timestamp ?? r.participant_timestamp;
const tickMs = (r: Json) => Number(tickNs(r)) / 1e6;

// Crypto ticks carry no sequence number: their order in the answer stands in for one.
const trades: CachedKind = {
  name: 'trades',
  label: 'trades',
  span: 'day',
  first: ticksOf(tradesV3({ name: 'listTrades' }).path),
  storage: tableStorage({
    table: 'trades',
    time: 'sip_timestamp',
    timeMs: tickMs,
    line: (t, r, i) =>
      `${t}\t${num(tickNs(r))}\t${num(r.participant_timestamp)}\t${num(r.sequence_number) || i}\t${num(r.price)}\t${num(r.size)}\t${num(r.exchange)}\t${list(r.conditions)}\t${text(r.id)}\t${num(r.tape)}\t${num(r.correction)}\t${num(r.trf_id)}\t${num(r.trf_timestamp)}`,
  }),
};

const quotes: CachedKind = {
  name: 'quotes',
  label: 'quotes',
  span: 'day',
  first: ticksOf(quotesV3({ name: 'listQuotes' }).path),
  storage: tableStorage({
    table: 'quotes',
    time: 'sip_timestamp',
    timeMs: tickMs,
    line: (t, r, i) =>
      `${t}\t${num(tickNs(r))}\t${num(r.participant_timestamp)}\t${num(r.sequence_number) || i}\t${num(r.bid_price)}\t${num(r.bid_size)}\t${num(r.bid_exchange)}\t${num(r.ask_price)}\t${num(r.ask_size)}\t${num(r.ask_exchange)}\t${list(r.conditions)}\t${list(r.indicators)}\t${num(r.tape)}`,
  }),
};

/**
 * Grouped daily bars of the markets whose answer daily bars make whole, and the ticker pattern their
 * coverage is stored under. Crypto's stamps each bar with the day's last minute of trading, which
 * daily bars do not hold: it goes upstream.
 */
export const GROUPED = [
  { op: groupedDaily('us/market/stocks'), pattern: '*' },
  { op: groupedDaily('global/market/fx'), pattern: 'C:*' },
] as const;

const grouped: CachedKind = {
  name: 'grouped',
  label: 'grouped daily bars',
  span: 'day',
  dayAtATime: true,
  first: (pattern, range) => {
    const g = GROUPED.find((x) => x.pattern === pattern) as (typeof GROUPED)[number];
    return `${expandPath(g.op.path, { date: range.first })}?adjusted=false`;
  },
  storage: groupedStorage,
};

/** A ticker's whole listing of reference records, `limit` a page. */
const records = (kind: JsonKind, label: string, path: string, limit: number): CachedKind => ({
  name: kind,
  label,
  span: 'whole',
  first: (ticker) => `${path}?${new URLSearchParams({ ticker, limit: String(limit) })}`,
  storage: recordStorage(kind),
});

const details: CachedKind = {
  name: 'ticker_details',
  label: 'ticker details',
  span: 'whole',
  first: (ticker) => expandPath(tickerDetails.path, { ticker }),
  storage: recordStorage('ticker_details'),
};

/** A ticker's related companies, one record. */
const related: CachedKind = {
  name: 'related_companies',
  label: 'related companies',
  span: 'whole',
  first: (ticker) => expandPath(relatedCompanies.path, { ticker }),
  storage: recordStorage('related_companies'),
};

/** A company's events (by ticker, CUSIP or FIGI) of every type, one record; the local route filters them. */
const events: CachedKind = {
  name: 'ticker_events',
  label: 'ticker events',
  span: 'whole',
  first: (id) => expandPath(tickerEvents.path, { id }),
  storage: recordStorage('ticker_events'),
};

/** Routes of a ticker's current state, stored as the answer that brought them: its last trade and quote. */
export const LIVE = [
  { kind: 'last_trade', prefix: '', op: lastTrade() },
  { kind: 'last_quote', prefix: '', op: lastQuote },
] as const;

/** A ticker's current state of a kind, as its route answered it last. */
const live = (kind: (typeof LIVE)[number]['kind'], label: string): CachedKind => ({
  name: kind,
  label,
  span: 'whole',
  answer: true,
  first: (ticker) => {
    const l = LIVE.find((x) => x.kind === kind && ticker.startsWith(x.prefix)) as (typeof LIVE)[number];
    return expandPath(l.op.path, { ticker });
  },
  storage: answerStorage(kind),
});

/**
 * An answer stored as fetched under its request (path and query, see `requestKey`): gainers and
 * losers, indicators, the v1 last forex quote and crypto trade, ...
 */
const storedAnswer: CachedKind = {
  name: 'answer',
  label: 'answer',
  span: 'whole',
  answer: true,
  first: (request) => request,
  storage: answerStorage('answer'),
};

/**
 * Snapshots, one kind per market or family, stored as data (see `store-snapshots.ts`): every
 * ticker's snapshot object of any answer of theirs is a row, covered as the ticker's; a request the
 * rows cannot answer keeps its answer too, under the request. `one` asks for one ticker's snapshot
 * (a refresh of its row).
 */
export const SNAPSHOTS = [
  ...V2_MARKETS.map((m) => {
    const op = snapshotTicker(m.path);
    return {
      name: m.kind,
      label: `${m.market} snapshot`,
      items: v2Items,
      one: (ticker: string) => expandPath(op.path, { ticker }),
    };
  }),
  {
    name: 'snapshot:options',
    label: 'option contract snapshot',
    items: optionItems,
    one: (contract: string) =>
      expandPath(optionContractSnapshot.path, {
        underlyingAsset: /^O:([A-Z.]+)\d{6}[CP]\d{8}$/.exec(contract)?.[1] ?? '',
        optionContract: contract,
      }),
  },
  {
    name: 'snapshot:indices',
    label: 'index snapshot',
    items: resultItems,
    one: (ticker: string) => `${indicesSnapshot.path}?${new URLSearchParams({ 'ticker.any_of': ticker })}`,
  },
  {
    name: 'snapshot:universal',
    label: 'universal snapshot',
    items: resultItems,
    one: (ticker: string) => `${universalSnapshot.path}?${new URLSearchParams({ 'ticker.any_of': ticker })}`,
  },
] as const;

const snapshot = (s: (typeof SNAPSHOTS)[number]): CachedKind => ({
  name: s.name,
  label: s.label,
  span: 'whole',
  answer: true,
  first: (ticker) => (isRequest(ticker) ? ticker : s.one(ticker)),
  storage: snapshotStorage(s.name, s.items),
});

const textOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The tickers listing of one set of filters (the canonical query of its coverage's ticker, see
 * `listingFilters`), every page of 1000, as rows of the `tickers` table with every field the service
 * gives (as `mdq ingest json` stores them).
 */
const tickerListing: CachedKind = {
  name: 'tickers',
  label: 'tickers listing',
  span: 'whole',
  first: (filters) => `${tickers.path}?${filters}${filters === '' ? '' : '&'}limit=1000`,
  storage: listingStorage('tickers', { table: 'tickers', key: 'ticker', columns: TICKER_RECORD_COLUMNS }),
};

/**
 * The option contracts listing of one set of filters, every page of 1000, as rows of the
 * `option_contracts` table. The local route tells an index underlying (its `cfi`) by the index's
 * ticker in the `tickers` table: a listing of an index's contracts the store does not know as one is
 * not stored.
 */
const contractListing: CachedKind = {
  name: 'option_contracts',
  label: 'option contracts listing',
  span: 'whole',
  first: (filters) => `${optionContracts.path}?${filters}${filters === '' ? '' : '&'}limit=1000`,
  storage: listingStorage('option_contracts', {
    table: 'option_contracts',
    key: 'ticker',
    columns: [
      { name: 'ticker', value: (r) => textOrNull(r.ticker) },
      ...(['underlying_ticker', 'contract_type', 'exercise_style'] as const).map((name) => ({
        name,
        value: (r: Json) => textOrNull(r[name]),
      })),
      { name: 'expiration_date', value: (r) => textOrNull(r.expiration_date), cast: 'DATE' },
      { name: 'strike_price', value: (r) => (typeof r.strike_price === 'number' ? r.strike_price : null) },
      {
        name: 'shares_per_contract',
        value: (r) => (typeof r.shares_per_contract === 'number' ? r.shares_per_contract : 100),
      },
      { name: 'primary_exchange', value: (r) => textOrNull(r.primary_exchange) },
    ],
    async unanswerable(store, records) {
      const indices = [
        ...new Set(
          records
            .filter((r) => typeof r.cfi === 'string' && r.cfi[3] === 'I')
            .map((r) => `I:${String(r.underlying_ticker)}`),
        ),
      ];
      if (indices.length === 0) return undefined;
      const known = await store.all<{ ticker: string }>(
        'SELECT ticker FROM tickers WHERE ticker IN (SELECT unnest($1::VARCHAR[]))',
        [listValue(indices)],
      );
      const unknown = indices.filter((i) => !known.some((k) => k.ticker === i));
      return unknown.length === 0
        ? undefined
        : `option contracts of ${unknown.join(', ')}, an index the store does not list`;
    },
  }),
};

/** The listings whose records are IPOs: the vX one and the v1 one. */
const IPO_LISTINGS = ['ipos', 'ipos_v1'] as const;

/**
 * An IPOs listing (vX, or v1 as `ipos_v1`) of one set of filters, every page of 1000, as records of
 * `reference_records` (as `mdq ingest json` stores them); a record stays while either listing holds it.
 */
const ipoListing = (name: (typeof IPO_LISTINGS)[number], path: string, label: string): CachedKind => ({
  name,
  label,
  span: 'whole',
  first: (filters) => `${path}?${filters}${filters === '' ? '' : '&'}limit=1000`,
  storage: recordListingStorage('ipos', name, IPO_LISTINGS),
});

/** Every kind the caching server stores. */
export const CACHED_KINDS: readonly CachedKind[] = [
  bars('second', 'second bars'),
  bars('minute', 'minute bars'),
  bars('day', 'daily bars'),
  trades,
  quotes,
  grouped,
  records('splits', 'splits', splits.path, 1000),
  records('dividends', 'dividends', dividends.path, 1000),
  records('news', 'news', tickerNews.path, 1000),
  records('financials', 'financials', stockFinancials.path, 100),
  details,
  ...SNAPSHOTS.map(snapshot),
  related,
  events,
  live('last_trade', 'last trade'),
  live('last_quote', 'last quote'),
  tickerListing,
  contractListing,
  ipoListing('ipos', ipos.path, 'IPOs listing'),
  ipoListing('ipos_v1', iposV1.path, 'IPOs listing (v1)'),
  storedAnswer,
  ...FUTURES_KINDS,
];

const BY_NAME = new Map(CACHED_KINDS.map((k) => [k.name, k]));

/** The kind of a name in the `coverage` table; undefined for one this version does not store. */
export const cachedKind = (name: string): CachedKind | undefined => BY_NAME.get(name);
