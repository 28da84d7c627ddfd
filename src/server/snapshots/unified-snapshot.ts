import { isForexOpen, marketPhaseAt } from '../calendar/index.js';
import type { Store } from '../store/store.js';
import { indexSnapshots } from './index-snapshot.js';
import { type ContractRow, optionSnapshots } from './option-snapshot.js';
import { type V2Market, type V2Snapshot, v2Snapshots } from './v2-snapshot.js';

/** The asset classes of the snapshot across asset classes (`/v3/snapshot`), named as its `type`. */
export type AssetType = 'stocks' | 'options' | 'fx' | 'crypto' | 'indices';

/** The asset class of a ticker, by its prefix. */
export function assetTypeOf(ticker: string): AssetType {
  const prefix = ticker.slice(0, 2);
  if (prefix === 'O:') return 'options';
  if (prefix === 'C:') return 'fx';
  if (prefix === 'X:') return 'crypto';
  if (prefix === 'I:') return 'indices';
  return 'stocks';
}

/** What the snapshot of one ticker is built from: its stored name, and its contract when an option. */
export interface SnapshotSubject {
  readonly ticker: string;
  readonly name: string | null;
  readonly contract?: ContractRow;
}

const NS = 1_000_000n;
const V2: Record<'stocks' | 'fx' | 'crypto', V2Market> = { stocks: 'stocks', fx: 'forex', crypto: 'crypto' };

/** `market_status` of an asset class at `nowMs`: US hours for stocks and options, forex's week, crypto always. */
export function marketStatusAt(type: AssetType, nowMs: number): string {
  if (type === 'crypto') return 'open';
  if (type === 'fx') return isForexOpen(nowMs) ? 'open' : 'closed';
  const phase = marketPhaseAt(nowMs);
  if (phase.market === 'open' || type === 'indices') return phase.market === 'open' ? 'open' : 'closed';
  return phase.earlyHours ? 'early_trading' : phase.afterHours ? 'late_trading' : 'closed';
}

/** The error item of a ticker the store does not know, inside a 200 as the service answers it. */
export const notFoundItem = (ticker: string) => ({
  ticker,
  error: 'NOT_FOUND',
  message: 'Ticker not found.',
});

/**
 * The snapshot across asset classes of one ticker at `nowMs`, built from the asset class's own snapshot
 * (v2 for stocks, forex and crypto; the v3 option and index snapshots) in the shape of `/v3/snapshot`.
 */
export async function unifiedSnapshot(
  store: Store,
  subject: SnapshotSubject,
  nowMs: number,
): Promise<Record<string, unknown>> {
  return (await unifiedSnapshots(store, [subject], async () => nowMs))[0] as Record<string, unknown>;
}

/**
 * {@link unifiedSnapshot} of each of `subjects`, in their order, "now" of each given by `now`: the
 * subjects of one asset class and instant are snapshotted together, so that a page costs a fixed
 * number of store queries (a few per asset class), not a few per ticker.
 */
export async function unifiedSnapshots(
  store: Store,
  subjects: readonly SnapshotSubject[],
  now: (ticker: string) => Promise<number>,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = new Array(subjects.length);
  const groups = new Map<string, { type: AssetType; nowMs: number; at: number[] }>();
  for (const [i, subject] of subjects.entries()) {
    const type = assetTypeOf(subject.ticker);
    const nowMs = await now(subject.ticker);
    const key = `${type}|${nowMs}`;
    const group = groups.get(key) ?? { type, nowMs, at: [] };
    group.at.push(i);
    groups.set(key, group);
  }
  await Promise.all(
    [...groups.values()].map(async ({ type, nowMs, at }) => {
      const items = at.map((i) => subjects[i] as SnapshotSubject);
      const snaps = await groupSnapshots(store, type, items, nowMs);
      for (const [j, i] of at.entries()) out[i] = snaps[j] as Record<string, unknown>;
    }),
  );
  return out;
}

/** Snapshots of subjects of one asset class at one instant, in their order. */
async function groupSnapshots(
  store: Store,
  type: AssetType,
  subjects: readonly SnapshotSubject[],
  nowMs: number,
): Promise<Record<string, unknown>[]> {
  if (type === 'indices')
    return indexSnapshots(
      store,
      subjects.map((s) => ({ ticker: s.ticker, name: s.name })),
      nowMs,
    );
  if (type === 'options') {
    const contracts = subjects.flatMap((s) => (s.contract ? [s.contract] : []));
    const snaps = (await optionSnapshots(store, contracts, nowMs)).values();
    return subjects.map((s) =>
      s.contract ? optionItem(s.contract, snaps.next().value ?? {}, nowMs) : notFoundItem(s.ticker),
    );
  }
  const snaps = await v2Snapshots(
    store,
    subjects.map((s) => s.ticker),
    V2[type],
    nowMs,
  );
  return subjects.map((s, i) => v2Item(s, (snaps[i] as V2Snapshot).body as unknown as V2Body, type, nowMs));
}

/** An option's item from its v3 option snapshot. */
function optionItem(c: ContractRow, o: Record<string, unknown>, nowMs: number): Record<string, unknown> {
  const { day, details: _chainDetails, ...rest } = o as { day?: Record<string, number>; details?: object };
  const details = {
    contract_type: c.contract_type,
    exercise_style: c.exercise_style,
    expiration_date: c.expiration_date,
    shares_per_contract: c.shares_per_contract,
    strike_price: c.strike_price,
    underlying_ticker: c.underlying_ticker,
  };
  const name = `${c.underlying_ticker} $${c.strike_price} ${c.contract_type === 'put' ? 'Put' : 'Call'}`;
  return {
    ...rest,
    details,
    market_status: marketStatusAt('options', nowMs),
    name,
    session: day ?? {},
    ticker: c.ticker,
    type: 'options',
  };
}

/** A stock's, forex pair's or crypto pair's item from its v2 snapshot. */
function v2Item(
  subject: SnapshotSubject,
  snap: V2Body,
  type: 'stocks' | 'fx' | 'crypto',
  nowMs: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const lastTrade = tradeOf(snap, type);
  if (lastTrade) out.last_trade = lastTrade;
  const lastQuote = quoteOf(snap, type);
  if (lastQuote) out.last_quote = lastQuote;
  const m = snap.min;
  if (m?.t) {
    out.last_minute = {
      close: m.c,
      high: m.h,
      low: m.l,
      open: m.o,
      transactions: m.n ?? 0,
      volume: m.v,
      ...(m.vw !== undefined && { vwap: m.vw }),
    };
  }
  out.last_updated = type === 'stocks' ? BigInt(snap.updated) : BigInt(Math.floor(Number(snap.updated))) * NS;
  out.market_status = marketStatusAt(type, nowMs);
  if (subject.name) out.name = subject.name;
  out.session = sessionOf(snap);
  out.ticker = subject.ticker;
  out.timeframe = 'REAL-TIME';
  out.type = type;
  return out;
}

/** The v2 snapshot body as this module reads it. */
interface V2Body {
  day: { o: number; h: number; l: number; c: number; v: number; vw?: number };
  prevDay: { c: number };
  min?: { o: number; h: number; l: number; c: number; v: number; t: number; n?: number; vw?: number };
  lastTrade?: { c: number[]; i: string; p: number; s: number; t: bigint | number; x: number };
  lastQuote?: {
    P?: number;
    S?: number;
    p?: number;
    s?: number;
    a?: number;
    b?: number;
    t: bigint | number;
    x?: number;
  };
  todaysChange: number;
  todaysChangePerc: number;
  updated: bigint | number;
}

function sessionOf(s: V2Body): Record<string, number> {
  const out: Record<string, number> = {};
  // A day of zeros is a session that has not traded yet.
  const traded = s.day.v !== 0 || s.day.c !== 0;
  if (traded) {
    Object.assign(out, {
      change: s.todaysChange,
      change_percent: s.todaysChangePerc,
      close: s.day.c,
      high: s.day.h,
      low: s.day.l,
      open: s.day.o,
    });
  }
  if (s.prevDay.c !== 0) out.previous_close = s.prevDay.c;
  if (traded) {
    out.volume = s.day.v;
    if (s.day.vw !== undefined) out.vwap = s.day.vw;
  }
  return out;
}

function tradeOf(s: V2Body, type: AssetType): Record<string, unknown> | undefined {
  const t = s.lastTrade;
  // The v2 snapshot's zeros (a crypto pair without trade ticks) say "no trade": none is sent here.
  if (!t || Number(t.t) === 0) return undefined;
  const ns = type === 'stocks' ? BigInt(t.t) : BigInt(Math.floor(Number(t.t))) * NS;
  const out: Record<string, unknown> = { conditions: t.c, exchange: t.x };
  if (t.i !== '') out.id = t.i;
  Object.assign(out, { last_updated: ns, price: t.p, sip_timestamp: ns, size: t.s, timeframe: 'REAL-TIME' });
  return out;
}

function quoteOf(s: V2Body, type: AssetType): Record<string, unknown> | undefined {
  const q = s.lastQuote;
  if (!q) return undefined;
  if (type === 'fx') {
    const ask = q.a ?? 0;
    const bid = q.b ?? 0;
    return {
      ask,
      ...(q.x !== undefined && { ask_exchange: q.x }),
      bid,
      ...(q.x !== undefined && { bid_exchange: q.x }),
      last_updated: BigInt(Math.floor(Number(q.t))) * NS,
      midpoint: (ask + bid) / 2,
      timeframe: 'REAL-TIME',
    };
  }
  const ask = q.P ?? 0;
  const bid = q.p ?? 0;
  return {
    ask,
    ask_size: q.S ?? 0,
    bid,
    bid_size: q.s ?? 0,
    last_updated: BigInt(q.t),
    midpoint: (ask + bid) / 2,
    timeframe: 'REAL-TIME',
  };
}

/**
 * The summary (`/v1/summaries`) of one ticker from its unified snapshot: price (the last trade, else
 * the forex bid, the index value or the session close), session, and for options the contract terms.
 */
export function summaryOf(snap: Record<string, unknown>): Record<string, unknown> {
  if (snap.error) return snap;
  const type = snap.type as AssetType;
  const trade = snap.last_trade as { price?: number } | undefined;
  const quote = snap.last_quote as { bid?: number } | undefined;
  const session = (snap.session ?? {}) as Record<string, number>;
  const price =
    trade?.price ??
    (type === 'fx' ? quote?.bid : undefined) ??
    (snap.value as number | undefined) ??
    session.close ??
    session.previous_close;
  const out: Record<string, unknown> = {};
  if (snap.last_updated !== undefined) out.last_updated = snap.last_updated;
  out.market_status = snap.market_status;
  if (snap.name !== undefined) out.name = snap.name;
  if (type === 'options' && snap.details) {
    out.options = snap.details;
  }
  if (price !== undefined) out.price = price;
  out.session = session;
  out.ticker = snap.ticker;
  out.type = type;
  return out;
}
