import { dayOf, startOfDay } from '../../dates/time-zone.js';
import { marketTimeZone } from '../market/time-zone.js';
import type { TradeRow } from '../store/tick-rows.js';
import type { Feed } from './feeds.js';

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** One open window of trades. */
interface Window {
  s: number;
  e: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  pv: number;
  n: number;
}

/** A ticker's open windows and its day so far (in its market's time zone). */
interface TickerState {
  second?: Window | undefined;
  minute?: Window | undefined;
  dayEnd: number;
  dayV: number;
  dayPv: number;
  dayOpen: number;
}

/** A closed aggregate with what decides its place in the stream. */
export interface ClosedAggregate {
  channel: string;
  ticker: string;
  e: number;
  event: Record<string, unknown>;
}

/** The trades of one window so far. */
export interface WindowSoFar {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  pv: number;
  n: number;
}

/** What the store holds of a ticker's day before the replay's first trade of it that day. */
export interface TradesBefore {
  dayV: number;
  dayPv: number;
  /** The day's first price, null when the day has no earlier trade. */
  dayOpen: number | null;
  /** The trades of the open second and minute windows (n = 0: none). */
  second: WindowSoFar;
  minute: WindowSoFar;
}

/** Where the history of a ticker's trade begins: its day, minute and second (Unix ms). */
export interface HistoryBounds {
  day: number;
  minute: number;
  second: number;
}

/**
 * Per-second and per-minute aggregates of replayed trades, as the REST aggregates compute them from the
 * same ticks (first and last price by sequence, Σ size, Σ price × size / Σ size). A window closes when
 * the replay reaches its end (a tick of any ticker at or after it) or the data ends. The replay's first
 * trade of a ticker on a day comes with what the store holds before it (`begin`), so that a replay
 * starting mid-window or mid-day, or a ticker subscribed late, still gets whole windows and day totals
 * (`av`, `a`, `op`).
 */
export class Aggregator {
  private readonly tickers = new Map<string, TickerState>();
  /** The earliest end of any open window: nothing closes before the replay reaches it. */
  private nextEnd = Number.POSITIVE_INFINITY;

  constructor(private readonly feed: Feed) {}

  /** Whether a trade of `ticker` at `tMs` is its first of a day here: `begin` must come before `add`. */
  needsHistory(ticker: string, tMs: number): boolean {
    const st = this.tickers.get(ticker);
    return !st || tMs >= st.dayEnd;
  }

  /** The bounds of the history `begin` needs for a trade of `ticker` at `tMs`. */
  historyBounds(ticker: string, tMs: number): HistoryBounds {
    const day = startOfDay(dayOf(tMs, marketTimeZone(ticker)), marketTimeZone(ticker));
    return { day, minute: tMs - (tMs % 60_000), second: tMs - (tMs % 1_000) };
  }

  /** Starts a ticker's day at `tMs` from what the store holds before it. */
  begin(ticker: string, tMs: number, before: TradesBefore): void {
    const zone = marketTimeZone(ticker);
    const next = new Date(`${dayOf(tMs, zone)}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    const b = this.historyBounds(ticker, tMs);
    const open = (w: WindowSoFar, s: number, size: number): Window | undefined => {
      if (w.n === 0) return undefined;
      if (s + size < this.nextEnd) this.nextEnd = s + size;
      return { ...w, s, e: s + size };
    };
    this.tickers.set(ticker, {
      dayEnd: startOfDay(next.toISOString().slice(0, 10), zone),
      dayV: before.dayV,
      dayPv: before.dayPv,
      dayOpen: before.dayOpen ?? Number.NaN,
      second: this.feed.second ? open(before.second, b.second, 1_000) : undefined,
      minute: this.feed.minute ? open(before.minute, b.minute, 60_000) : undefined,
    });
  }

  /** Adds a trade (its time in Unix ms); `begin` came first for its ticker's day. */
  add(row: TradeRow, tMs: number): void {
    const st = this.tickers.get(row.ticker);
    if (!st) return;
    if (Number.isNaN(st.dayOpen)) st.dayOpen = row.price;
    st.dayV += row.size;
    st.dayPv += row.price * row.size;
    if (this.feed.second) st.second = this.extend(st.second, row, tMs, 1_000);
    if (this.feed.minute) st.minute = this.extend(st.minute, row, tMs, 60_000);
  }

  private extend(w: Window | undefined, row: TradeRow, tMs: number, size: number): Window {
    if (!w) {
      const s = tMs - (((tMs % size) + size) % size);
      if (s + size < this.nextEnd) this.nextEnd = s + size;
      w = { s, e: s + size, o: row.price, h: row.price, l: row.price, c: row.price, v: 0, pv: 0, n: 0 };
    } else {
      if (row.price > w.h) w.h = row.price;
      if (row.price < w.l) w.l = row.price;
      w.c = row.price;
    }
    w.v += row.size;
    w.pv += row.price * row.size;
    w.n++;
    return w;
  }

  /**
   * Closes the windows that end at or before `tMs` (every window when `tMs` is infinite), in the order
   * of their end, seconds before minutes, then ticker.
   */
  close(tMs: number): ClosedAggregate[] {
    if (tMs < this.nextEnd) return [];
    const out: ClosedAggregate[] = [];
    let nextEnd = Number.POSITIVE_INFINITY;
    for (const [ticker, st] of this.tickers) {
      for (const which of ['second', 'minute'] as const) {
        const w = st[which];
        if (!w) continue;
        if (w.e <= tMs) {
          out.push(this.event(ticker, st, w, which));
          st[which] = undefined;
        } else if (w.e < nextEnd) nextEnd = w.e;
      }
    }
    this.nextEnd = nextEnd;
    out.sort((a, b) =>
      a.e !== b.e
        ? a.e - b.e
        : a.channel !== b.channel
          ? a.channel === this.feed.second
            ? -1
            : 1
          : a.ticker < b.ticker
            ? -1
            : a.ticker > b.ticker
              ? 1
              : 0,
    );
    return out;
  }

  private event(ticker: string, st: TickerState, w: Window, which: 'second' | 'minute'): ClosedAggregate {
    const channel = (which === 'second' ? this.feed.second : this.feed.minute) as string;
    // Rounded to 4 decimals, as the REST aggregates write it.
    const vw = round4(w.v > 0 ? w.pv / w.v : w.c);
    const z = w.n > 0 ? Math.round(w.v / w.n) : 0;
    const name = this.feed.aggregateName(ticker);
    const event: Record<string, unknown> = name.sym
      ? {
          ev: channel,
          ...name,
          v: w.v,
          av: st.dayV,
          op: st.dayOpen,
          vw,
          o: w.o,
          c: w.c,
          h: w.h,
          l: w.l,
          a: round4(st.dayV > 0 ? st.dayPv / st.dayV : w.c),
          z,
          s: w.s,
          e: w.e,
        }
      : { ev: channel, ...name, o: w.o, c: w.c, h: w.h, l: w.l, v: w.v, vw, z, s: w.s, e: w.e };
    return { channel, ticker, e: w.e, event };
  }
}
