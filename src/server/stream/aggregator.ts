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

/**
 * Per-second and per-minute aggregates of replayed trades, as the REST aggregates compute them from the
 * same ticks (first and last price by sequence, Σ size, Σ price × size / Σ size). A window closes when
 * the replay reaches its end (a tick of any ticker at or after it) or the data ends. `av`, `a` and
 * `op` count the day's trades seen by the replay, so a replay that starts mid-day counts from its start.
 */
export class Aggregator {
  private readonly tickers = new Map<string, TickerState>();
  /** The earliest end of any open window: nothing closes before the replay reaches it. */
  private nextEnd = Number.POSITIVE_INFINITY;

  constructor(private readonly feed: Feed) {}

  /** Adds a trade (its time in Unix ms). */
  add(row: TradeRow, tMs: number): void {
    let st = this.tickers.get(row.ticker);
    if (!st || tMs >= st.dayEnd) {
      const zone = marketTimeZone(row.ticker);
      const day = dayOf(tMs, zone);
      const next = new Date(`${day}T00:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      const dayEnd = startOfDay(next.toISOString().slice(0, 10), zone);
      st = { ...st, dayEnd, dayV: 0, dayPv: 0, dayOpen: row.price };
      this.tickers.set(row.ticker, st);
    }
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
