import { addDays } from '../../dates/calendar.js';
import { dayOf, startOfDay } from '../../dates/time-zone.js';
import type { StreamMarket } from '../../stream/channels.js';
import type { Bar } from '../market/bars.js';
import { marketTimeZone } from '../market/time-zone.js';
import type { SqlValue, Store } from '../store/store.js';
import type { BarFeed } from './feeds.js';
import { compareTicks, marketTickers, type TickerFilter, type TickKey } from './tick-source.js';

/** The window sizes a replay sends bars of. */
export type BarSize = 'second' | 'minute';

/** The tickers wanted for the bars of each window size. */
export interface BarFilters {
  second?: TickerFilter | undefined;
  minute?: TickerFilter | undefined;
}

/**
 * A bar replayed when the replay reaches its window's end: its key is (end, kind, ticker), kind -2 for
 * a second and -1 for a minute, so that a window is sent before the ticks of the instant it ends, seconds
 * before minutes, as the aggregates computed from trades are.
 */
export interface BarTick {
  kind: -2 | -1;
  ticker: string;
  /** The window's end, Unix ns. */
  sip_timestamp: bigint;
  sequence_number: bigint;
  bar: Bar;
  /** The first price of the bar's day (for the events that carry it), when the feed asks for it. */
  dayOpen?: number;
  /** The bar's day so far, this bar included, when the feed asks for it (`BarFeed.daySoFar`). */
  day?: DaySoFar;
}

/** A ticker's day (in its market's time zone) up to a bar, from the bars of that day. */
export interface DaySoFar {
  /** The open of the day's first bar. */
  open: number;
  volume: number;
  /** Σ vw × v / Σ v of the bars (the bar's own vw while the day has no volume). */
  vwap: number;
}

/** The bars of one stretch of a replay, and the end of that stretch (Unix ns). */
export interface BarChunk {
  ticks: BarTick[];
  endNs: bigint;
}

const DAY = 86_400_000;
const SIZE: Record<BarSize, number> = { second: 1_000, minute: 60_000 };
const ns = (ms: number) => BigInt(ms) * 1_000_000n;

/**
 * Reads the bars of the channels a market replays from its aggregates rather than its ticks (forex
 * `CA`, crypto `XA`/`XAS` and options `AM` on days without trade ticks, index `A`/`AM`/`V`, futures
 * `AM`), a UTC day at a time: each bar is what the REST aggregates answer for its window (the feed's
 * `read`, asked once a day for every ticker of a window size), so a replayed bar equals the REST bar of
 * the same window.
 */
export class BarSource {
  private readonly tickerLists = new Map<string, Promise<string[]>>();

  constructor(
    private readonly store: Store,
    private readonly market: StreamMarket,
    private readonly feed: BarFeed,
  ) {}

  /** Every ticker of the market with bars of the resolutions that `size` windows come from. */
  private allTickers(size: BarSize): Promise<string[]> {
    let list = this.tickerLists.get(size);
    if (!list) {
      const sources = this.feed.sources[size] ?? [];
      list = this.store
        .all<{ ticker: string }>(
          `SELECT DISTINCT ticker FROM bars WHERE ${marketTickers(this.store.dialect, this.market)}
            AND resolution IN (${sources.map((s) => `'${s}'`).join(', ') || "''"}) ORDER BY ticker`,
        )
        .then((rows) => rows.map((r) => r.ticker));
      this.tickerLists.set(size, list);
    }
    return list;
  }

  private async tickers(size: BarSize, filter: TickerFilter | undefined): Promise<string[]> {
    if (!filter || !this.feed.sources[size]) return [];
    return filter.all ? this.allTickers(size) : [...filter.tickers];
  }

  /**
   * The bars whose windows end after `after` (or after `fromNs`) and after `beyondNs` (a stretch already
   * read), up to the end of the UTC day of the first window ending after them, in replay order;
   * undefined when the store holds no further bars for these tickers. Two queries find and read the
   * stretch (one more for a feed that leaves out the days with trade ticks).
   */
  async chunk(
    filters: BarFilters,
    fromNs: bigint,
    after: TickKey | undefined,
    beyondNs: bigint | undefined,
  ): Promise<BarChunk | undefined> {
    const lists = {
      second: await this.tickers('second', filters.second),
      minute: await this.tickers('minute', filters.minute),
    };
    const sizes = (['second', 'minute'] as const).filter((s) => lists[s].length > 0);
    if (sizes.length === 0) return undefined;
    const startNs =
      beyondNs !== undefined && beyondNs > (after?.ts ?? fromNs) ? beyondNs : (after?.ts ?? fromNs);
    const startMs = Number(startNs / 1_000_000n);
    const params: SqlValue[] = [];
    const mark = (v: SqlValue) => {
      params.push(v);
      return `$${params.length}`;
    };
    const tickers = [...new Set(sizes.flatMap((s) => lists[s]))];
    const sources = [...new Set(sizes.flatMap((s) => this.feed.sources[s] ?? []))];
    // A bar from `next` on makes a window ending after the start (its window of the longest size ends
    // after it); one before, from a minute before the start, only windows ending at the start, which
    // follow the last tick sent when it is a bar of the same instant and an earlier ticker.
    const longest = SIZE[sizes.includes('minute') ? 'minute' : 'second'];
    const next = Math.floor(startMs / longest) * longest;
    const d = this.store.dialect;
    // Not `AS t`: ClickHouse would read the alias in WHERE. Its min over no rows is 0, not NULL (no bar
    // starts at 1970-01-01T00:00Z).
    const rows = await this.store.all<{ first_t: number | bigint | null; next_t: number | bigint | null }>(
      `SELECT ${d.minOrNull('t')} AS first_t, ${d.aggWhere('min(t)', `t >= ${mark(BigInt(next))}`)} AS next_t
         FROM bars WHERE ticker IN (${tickers.map(mark).join(', ')})
        AND resolution IN (${sources.map(mark).join(', ')}) AND t >= ${mark(BigInt(startMs - SIZE.minute))}`,
      params,
    );
    const stored = (v: number | bigint | null | undefined) =>
      v === null || v === undefined || Number(v) === 0 ? undefined : Number(v);
    const first = stored(rows[0]?.first_t);
    if (first === undefined) return undefined;
    // The stretch runs to the end of the UTC day of the first window ending after the start, and holds
    // the windows ending at the start too: a replay that stopped at the end of a day's bars goes on with
    // the next day's in one stretch, not with an empty one of the windows it already sent.
    const firstEnd = Math.max((stored(rows[0]?.next_t) ?? first) + SIZE.second, startMs + 1);
    const endMs = Math.floor((firstEnd - 1) / DAY) * DAY + DAY;
    const out: BarTick[] = [];
    // The UTC day of a window is that of its last instant. The stretch's windows end on its last day,
    // but for those ending at the start, on an earlier day when the next bars come days later.
    const lastDay = endMs / DAY - 1;
    const firstDay = first < next ? Math.min(lastDay, Math.floor((startMs - 1) / DAY)) : lastDay;
    const dayOfEnd = (end: number) => Math.floor((end - 1) / DAY);
    /** `ticker|day` of the days with trade ticks, whose windows come from the trades. */
    const skip = new Set<string>();
    if (this.feed.skipTradeDays) {
      const traded = await this.store.all<{ ticker: string; day: number | bigint }>(
        `SELECT DISTINCT ticker, ${d.intDiv('sip_timestamp', String(ns(DAY)))} AS day FROM trades
          WHERE ticker IN (${tickers.map((_, i) => `$${i + 3}`).join(', ')})
          AND sip_timestamp >= $1 AND sip_timestamp < $2`,
        [ns(firstDay * DAY), ns(endMs), ...tickers],
      );
      for (const r of traded) skip.add(`${r.ticker}|${Number(r.day)}`);
    }
    for (const size of sizes) {
      const len = SIZE[size];
      const wanted = lists[size].filter(
        (ticker) => !skip.has(`${ticker}|${lastDay}`) || !skip.has(`${ticker}|${firstDay}`),
      );
      if (wanted.length === 0) continue;
      const fromMs = Math.max(startMs - len, first);
      // The days so far need the bars of their days before the stretch: read from those days' start.
      const readFrom = this.feed.daySoFar ? dayStartOf(wanted, fromMs) : fromMs;
      const read = await this.feed.read(this.store, wanted, size, readFrom, endMs - 1);
      const firstWindow = fromMs - (fromMs % len);
      for (const ticker of wanted) {
        const dayOfBar = this.feed.daySoFar ? daySoFar(marketTimeZone(ticker)) : undefined;
        for (const bar of read.get(ticker) ?? []) {
          const day = dayOfBar?.(bar);
          const end = bar.t + len;
          if (end > endMs || bar.t < firstWindow || skip.has(`${ticker}|${dayOfEnd(end)}`)) continue;
          const tick: BarTick = {
            kind: size === 'second' ? -2 : -1,
            ticker,
            sip_timestamp: ns(end),
            sequence_number: 0n,
            bar,
            ...(day && { day }),
          };
          const key = { ts: tick.sip_timestamp, kind: tick.kind, ticker, seq: 0n };
          if (after ? compareTicks(key, after) <= 0 : tick.sip_timestamp <= fromNs) continue;
          out.push(tick);
        }
      }
    }
    if (this.feed.dayOpen) await this.addDayOpens(out);
    out.sort((a, b) =>
      compareTicks(
        { ts: a.sip_timestamp, kind: a.kind, ticker: a.ticker, seq: 0n },
        { ts: b.sip_timestamp, kind: b.kind, ticker: b.ticker, seq: 0n },
      ),
    );
    return { ticks: out, endNs: ns(endMs) };
  }

  /** The first price of each bar's day in its market's time zone, as the REST day bar of that day opens. */
  private async addDayOpens(ticks: BarTick[]): Promise<void> {
    const opens = new Map<string, number | undefined>();
    for (const tick of ticks) {
      const zone = marketTimeZone(tick.ticker);
      const day = dayOf(tick.bar.t, zone);
      const key = `${tick.ticker}|${day}`;
      if (!opens.has(key)) {
        const start = startOfDay(day, zone);
        const bars = await this.feed.read(this.store, [tick.ticker], 'day', start, start);
        opens.set(key, bars.get(tick.ticker)?.[0]?.o);
      }
      const open = opens.get(key);
      if (open !== undefined) tick.dayOpen = open;
    }
  }
}

/** The earliest start of the day holding `ms` in the time zones of `tickers`' markets. */
function dayStartOf(tickers: readonly string[], ms: number): number {
  const zones = new Set(tickers.map((ticker) => marketTimeZone(ticker)));
  return Math.min(ms, ...[...zones].map((zone) => startOfDay(dayOf(ms, zone), zone)));
}

/**
 * Adds a ticker's bars, in time order, to their day in `zone`: each call answers the day so far, the
 * bar included.
 */
function daySoFar(zone: string): (bar: Bar) => DaySoFar {
  let nextDay = Number.NEGATIVE_INFINITY;
  let open = 0;
  let volume = 0;
  let pv = 0;
  return (bar) => {
    if (bar.t >= nextDay) {
      nextDay = startOfDay(addDays(dayOf(bar.t, zone), 1), zone);
      open = bar.o;
      volume = 0;
      pv = 0;
    }
    const vw = bar.vw ?? bar.c;
    volume += bar.v;
    pv += vw * bar.v;
    return { open, volume, vwap: volume > 0 ? pv / volume : vw };
  };
}
