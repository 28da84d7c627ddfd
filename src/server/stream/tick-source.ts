import type { StreamMarket } from '../../stream/channels.js';
import { isFuturesSql } from '../market/futures-tickers.js';
import type { SqlDialect, SqlValue, Store } from '../store/store.js';
import type { QuoteRow, TradeRow } from '../store/tick-rows.js';
import type { HistoryBounds, TradesBefore } from './aggregator.js';
import { type BarFilters, BarSource, type BarTick } from './bar-source.js';
import type { Feed } from './feeds.js';

/**
 * Which table a replayed tick comes from: -2 and -1 are second and minute bars (at their window's end),
 * 0 a trade, 1 a quote; of the same nanosecond, bars come first, then trades, then quotes.
 */
export type TickKind = -2 | -1 | 0 | 1;

/** A stored tick with its table: `kind` 0 is a trade, 1 a quote, -2 and -1 a bar. */
export type Tick = ({ kind: 0 } & TradeRow) | ({ kind: 1 } & QuoteRow) | BarTick;

/** Where a replay stands: the key of the last tick sent. Ticks are ordered by (time, kind, ticker, sequence). */
export interface TickKey {
  ts: bigint;
  kind: TickKind;
  ticker: string;
  seq: bigint;
}

/** The tickers a replay reads from one table: a list, or every ticker of the market (`all`). */
export interface TickerFilter {
  all: boolean;
  tickers: readonly string[];
}

/** How a market's tickers look in the store (the wildcard's predicate). */
export function marketTickers(d: SqlDialect, market: StreamMarket): string {
  const prefixed: Record<Exclude<StreamMarket, 'stocks' | 'futures'>, string> = {
    options: "ticker LIKE 'O:%'",
    forex: "ticker LIKE 'C:%'",
    crypto: "ticker LIKE 'X:%'",
    indices: "ticker LIKE 'I:%'",
  };
  if (market === 'stocks') return `ticker NOT LIKE '%:%' AND NOT ${isFuturesSql(d)}`;
  return market === 'futures' ? isFuturesSql(d) : prefixed[market];
}

/** Orders two ticks as the replay sends them. */
export function compareTicks(a: TickKey, b: TickKey): number {
  if (a.ts !== b.ts) return a.ts < b.ts ? -1 : 1;
  if (a.kind !== b.kind) return a.kind - b.kind;
  if (a.ticker !== b.ticker) return a.ticker < b.ticker ? -1 : 1;
  return a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1;
}

/** The key of a tick. */
export function tickKey(t: Tick): TickKey {
  return { ts: t.sip_timestamp, kind: t.kind, ticker: t.ticker, seq: t.sequence_number };
}

/** Two lists of ticks, each in replay order, as one. */
function mergeTicks(a: Tick[], b: Tick[]): Tick[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: Tick[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x && (!y || compareTicks(tickKey(x), tickKey(y)) < 0)) {
      out.push(x);
      i++;
    } else {
      out.push(y as Tick);
      j++;
    }
  }
  return out;
}

/** Where a session's ticks come from: the store ({@link TickSource}) or the live simulated market. */
export interface TickReader {
  /**
   * Up to about `limit` ticks after `after` (or at or after `fromNs`), in replay order, of the tickers
   * of each filter (and the bars of `bars`, where the source has them). An empty result means nothing
   * further will come for these filters.
   */
  next(
    trades: TickerFilter | undefined,
    quotes: TickerFilter | undefined,
    fromNs: bigint,
    after: TickKey | undefined,
    limit: number,
    bars?: BarFilters,
  ): Promise<Tick[]>;
  /** What precedes the trade `key` of `ticker` in its day and open windows (for the aggregates). */
  tradesBefore(ticker: string, key: TickKey, bounds: HistoryBounds): Promise<TradesBefore>;
}

/**
 * Reads the stored trades and quotes of a market in replay order, a batch at a time: the ticks after
 * `after` (or from `fromNs` on), of the tickers of each filter, merged across both tables.
 */
export class TickSource implements TickReader {
  private readonly bars: BarSource | undefined;

  constructor(
    private readonly store: Store,
    readonly market: StreamMarket,
    feed?: Feed,
  ) {
    this.bars = feed?.bars ? new BarSource(store, market, feed.bars) : undefined;
  }

  /**
   * Up to about `limit` ticks after `after` (or at or after `fromNs`), in replay order, with the bars of
   * `bars` merged in by their window's end. An empty result means the store holds nothing further for
   * these filters.
   */
  async next(
    trades: TickerFilter | undefined,
    quotes: TickerFilter | undefined,
    fromNs: bigint,
    after: TickKey | undefined,
    limit: number,
    bars?: BarFilters,
  ): Promise<Tick[]> {
    const [t, q] = await Promise.all([
      trades ? this.read('trades', 0, trades, fromNs, after, limit) : [],
      quotes ? this.read('quotes', 1, quotes, fromNs, after, limit) : [],
    ]);
    // A full batch may stop before ticks of the other table with later keys: merge only up to the
    // earlier of the two batches' last keys.
    let bound: TickKey | undefined;
    for (const batch of [t, q]) {
      const last = batch[batch.length - 1];
      if (batch.length >= limit && last) {
        const key = tickKey(last);
        if (!bound || compareTicks(key, bound) < 0) bound = key;
      }
    }
    const out: Tick[] = [];
    let i = 0;
    let j = 0;
    while (i < t.length || j < q.length) {
      const a = t[i];
      const b = q[j];
      const take = a && (!b || compareTicks(tickKey(a), tickKey(b)) < 0) ? a : (b as Tick);
      if (bound && compareTicks(tickKey(take), bound) > 0) break;
      out.push(take);
      if (take === a) i++;
      else j++;
    }
    if (!this.bars || !bars || (!bars.second && !bars.minute)) return out;
    // Bars a UTC day at a time, and the ticks of that day with them; a day without either is passed.
    let beyond: bigint | undefined;
    for (;;) {
      const chunk = await this.bars.chunk(bars, fromNs, after, beyond);
      if (!chunk) return out;
      const cut: TickKey = { ts: chunk.endNs, kind: -1, ticker: '\uffff', seq: 0n };
      const ticks = out.filter((k) => compareTicks(tickKey(k), cut) <= 0);
      const barTicks = bound ? chunk.ticks.filter((k) => compareTicks(tickKey(k), bound) <= 0) : chunk.ticks;
      if (ticks.length + barTicks.length > 0) return mergeTicks(ticks, barTicks);
      beyond = chunk.endNs;
    }
  }

  private async read(
    table: 'trades' | 'quotes',
    kind: TickKind,
    filter: TickerFilter,
    fromNs: bigint,
    after: TickKey | undefined,
    limit: number,
  ): Promise<Tick[]> {
    if (!filter.all && filter.tickers.length === 0) return [];
    const params: SqlValue[] = [];
    const where: string[] = [];
    if (filter.all) where.push(marketTickers(this.store.dialect, this.market));
    else {
      const marks = filter.tickers.map((ticker) => {
        params.push(ticker);
        return `$${params.length}`;
      });
      where.push(`ticker IN (${marks.join(', ')})`);
    }
    if (!after) {
      params.push(fromNs);
      where.push(`sip_timestamp >= $${params.length}`);
    } else if (after.kind < kind) {
      params.push(after.ts);
      where.push(`sip_timestamp >= $${params.length}`);
    } else if (after.kind > kind) {
      params.push(after.ts);
      where.push(`sip_timestamp > $${params.length}`);
    } else {
      params.push(after.ts, after.ts, after.ticker, after.seq);
      const n = params.length;
      where.push(
        `sip_timestamp >= $${n - 3} AND (sip_timestamp, ticker, sequence_number) > ($${n - 2}, $${n - 1}, $${n})`,
      );
    }
    params.push(BigInt(limit));
    const rows = await this.store.all<TradeRow & QuoteRow>(
      `SELECT * FROM ${table} WHERE ${where.join(' AND ')}
        ORDER BY sip_timestamp, ticker, sequence_number LIMIT $${params.length}`,
      params,
    );
    for (const row of rows) (row as unknown as Tick).kind = kind;
    return rows as unknown as Tick[];
  }

  /**
   * What the store holds of `ticker`'s trades before the trade `key` (same day, in (time, sequence)
   * order): the day's totals and first price, and the trades of the minute and second that contain it.
   */
  async tradesBefore(ticker: string, key: TickKey, bounds: HistoryBounds): Promise<TradesBefore> {
    const ns = (ms: number) => BigInt(ms) * 1_000_000n;
    const d = this.store.dialect;
    const win = (p: string, n: number) => {
      const from = `sip_timestamp >= $${n}`;
      return `${d.aggWhere(d.argMin('price', 'sequence_number'), from)} AS ${p}o,
       ${d.aggWhere('max(price)', from)} AS ${p}h,
       ${d.aggWhere('min(price)', from)} AS ${p}l,
       ${d.aggWhere(d.argMax('price', 'sequence_number'), from)} AS ${p}c,
       coalesce(${d.aggWhere('sum(size)', from)}, 0) AS ${p}v,
       coalesce(${d.aggWhere('sum(price * size)', from)}, 0) AS ${p}pv,
       ${d.double(`coalesce(${d.aggWhere('sum(1)', from)}, 0)`)} AS ${p}n`;
    };
    type Row = Record<string, number | null>;
    const rows = await this.store.all<Row>(
      `SELECT coalesce(sum(size), 0) AS v, coalesce(sum(price * size), 0) AS pv,
              ${d.argMin('price', 'sequence_number')} AS op, ${win('m', 5)}, ${win('s', 6)}
         FROM trades WHERE ticker = $1 AND sip_timestamp >= $2
          AND (sip_timestamp, sequence_number) < ($3, $4)`,
      [ticker, ns(bounds.day), key.ts, key.seq, ns(bounds.minute), ns(bounds.second)],
    );
    const r = rows[0] ?? {};
    const window = (p: string) => ({
      o: r[`${p}o`] ?? 0,
      h: r[`${p}h`] ?? 0,
      l: r[`${p}l`] ?? 0,
      c: r[`${p}c`] ?? 0,
      v: r[`${p}v`] ?? 0,
      pv: r[`${p}pv`] ?? 0,
      n: r[`${p}n`] ?? 0,
    });
    return {
      dayV: r.v ?? 0,
      dayPv: r.pv ?? 0,
      dayOpen: r.op ?? null,
      second: window('s'),
      minute: window('m'),
    };
  }

  /**
   * The latest tick time of the market (Unix ns); for a market without ticks whose channels replay
   * bars (indices), the latest second or minute bar's; undefined when it has neither.
   */
  async latest(): Promise<bigint | undefined> {
    const where = marketTickers(this.store.dialect, this.market);
    const rows = await this.store.all<{ m: bigint | null }>(
      `SELECT max(m) AS m FROM (SELECT max(sip_timestamp) AS m FROM trades WHERE ${where}
        UNION ALL SELECT max(sip_timestamp) AS m FROM quotes WHERE ${where})`,
    );
    // ClickHouse's max over no rows is 0, not NULL; no tick or bar is stamped 0.
    const m = rows[0]?.m;
    const ticks = m === null || m === undefined || m === 0n ? undefined : m;
    if (ticks !== undefined || !this.bars) return ticks;
    const bars = await this.store.all<{ m: number | bigint | null }>(
      `SELECT max(t) AS m FROM bars WHERE ${where} AND resolution IN ('second', 'minute')`,
    );
    const b = bars[0]?.m;
    return b === null || b === undefined || Number(b) === 0 ? undefined : BigInt(b) * 1_000_000n;
  }
}
