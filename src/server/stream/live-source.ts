import type { StreamMarket } from '../../stream/channels.js';
import type { Store } from '../store/store.js';
import type { QuoteRow, TradeRow } from '../store/tick-rows.js';
import type { HistoryBounds, TradesBefore, WindowSoFar } from './aggregator.js';
import {
  compareTicks,
  marketTickers,
  type Tick,
  type TickerFilter,
  type TickKey,
  type TickReader,
  tickKey,
} from './tick-source.js';

/** Whether `store` holds the demo's simulated market (then it streams live without a replay start). */
export async function isSimulatedStore(store: Store): Promise<boolean> {
  const rows = await store.all<{ n: bigint }>("SELECT count(*) AS n FROM meta WHERE key = 'simulated'");
  return Number(rows[0]?.n ?? 0) > 0;
}

/** A live instrument: where its price starts and how it trades. */
interface Instrument {
  k: number;
  ticker: string;
  p0: number;
  decimals: number;
  tick: number;
}

/** Ticks per second on average, per ticker: trades and quotes. */
const RATES: Record<StreamMarket, { trades: number; quotes: number }> = {
  stocks: { trades: 3, quotes: 2 },
  options: { trades: 0.05, quotes: 0.2 },
  forex: { trades: 0, quotes: 2 },
  crypto: { trades: 2, quotes: 2 },
  indices: { trades: 0, quotes: 0 },
  futures: { trades: 0, quotes: 0 },
};
const EXCHANGES = [4, 11, 12, 10, 8, 1, 19];
/** How far ahead of its start one read generates at most, in seconds (a sparse ticker reads further). */
const AHEAD = 60;
const NS = 1_000_000_000n;

/** A uniform draw in [0, 1): a pure function of its coordinates (a 32-bit integer hash). */
function draw(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b, 0xc2b2ae35) ^ Math.imul(c + 1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return ((h ^ (h >>> 16)) >>> 0) / 4_294_967_296;
}

/** Ticks in one second with mean `rate`: 0 … 2·rate, uniformly (a rate below 1 is a probability). */
const countOf = (rate: number, u: number) => (rate < 1 ? (u < rate ? 1 : 0) : Math.floor(u * (2 * rate + 1)));

/**
 * The simulated market, live: trades and quotes of the store's simulated instruments generated for
 * the current time, each tick a pure function of its ticker and its second, so that a session can
 * re-read from any point (after a change of subscriptions) and get the same ticks. Prices wander
 * around each instrument's last stored close (a sum of slow waves plus noise, so they never drift
 * off); the market trades around the clock. Aggregates are built from these trades as in a replay;
 * a ticker's day totals count from the first minute of its subscription.
 */
export class LiveSource implements TickReader {
  private instruments: Promise<Map<string, Instrument>> | undefined;

  constructor(
    private readonly store: Store,
    readonly market: StreamMarket,
  ) {}

  private load(): Promise<Map<string, Instrument>> {
    this.instruments ??= this.store
      .all<{ ticker: string; c: number }>(
        `SELECT ticker, ${this.store.dialect.argMax('c', 't')} AS c FROM bars
          WHERE resolution = 'minute' AND ${marketTickers(this.store.dialect, this.market)} GROUP BY ticker ORDER BY ticker`,
      )
      .then((rows) => {
        const out = new Map<string, Instrument>();
        rows.forEach(({ ticker, c }, k) => {
          const decimals = ticker.startsWith('C:') ? (c > 20 ? 3 : 5) : 2;
          out.set(ticker, { k, ticker, p0: c, decimals, tick: 10 ** -decimals });
        });
        return out;
      });
    return this.instruments;
  }

  /** The price of `x` at `ms`: slow waves of periods from minutes to a day, and a little noise. */
  private price(x: Instrument, ms: number, u: number): number {
    const phase = x.k * 1.7;
    const t = ms / 60_000;
    const wave =
      0.004 * Math.sin(t / 1.1 + phase) +
      0.006 * Math.sin(t / 6.5 + 2 * phase) +
      0.012 * Math.sin(t / 31 + 3 * phase) +
      0.02 * Math.sin(t / 229 + 5 * phase);
    const p = x.p0 * Math.exp(wave + 0.0004 * (u - 0.5));
    const f = 10 ** x.decimals;
    return Math.max(x.tick, Math.round(p * f) / f);
  }

  /** When a ticker's ticks of one kind fall in second `s` (ns into it, ascending: sequence follows time). */
  private offsets(rate: number, k: number, s: number, countDraw: number, first: number): number[] {
    const n = countOf(rate, draw(k, s, countDraw));
    const out: number[] = [];
    for (let j = 0; j < n; j++) out.push(Math.floor(draw(k, s, first + j) * 1e9));
    return out.sort((a, b) => a - b);
  }

  /** The ticks of `second` (Unix seconds) of the tickers wanted, in replay order. */
  private second(s: number, trades: Instrument[], quotes: Instrument[]): Tick[] {
    const out: Tick[] = [];
    const rates = RATES[this.market];
    const tape = this.market === 'stocks' ? 3 : null;
    for (const x of trades) {
      const offsets = this.offsets(rates.trades, x.k, s, 1, 10);
      for (const [j, off] of offsets.entries()) {
        const ts = BigInt(s) * NS + BigInt(off);
        const u = draw(x.k, s, 40 + j);
        const seq = BigInt(s) * 100n + BigInt(j);
        const row: TradeRow = {
          ticker: x.ticker,
          sip_timestamp: ts,
          participant_timestamp: ts - 100_000n,
          sequence_number: seq,
          price: this.price(x, s * 1000 + off / 1e6, u),
          size: u < 0.25 ? 1 + Math.floor(u * 396) : 100 * (1 + Math.floor(u * 4)),
          exchange: EXCHANGES[Math.floor(draw(x.k, s, 70 + j) * EXCHANGES.length)] ?? 4,
          conditions: null,
          id: String(seq),
          tape,
          correction: null,
          trf_id: null,
          trf_timestamp: null,
        };
        out.push({ kind: 0, ...row });
      }
    }
    for (const x of quotes) {
      const offsets = this.offsets(rates.quotes, x.k, s, 2, 100);
      for (const [j, off] of offsets.entries()) {
        const ts = BigInt(s) * NS + BigInt(off);
        const u = draw(x.k, s, 130 + j);
        const mid = this.price(x, s * 1000 + off / 1e6, 0.5);
        const f = 10 ** x.decimals;
        const spread = Math.max(x.tick, Math.round(mid * 0.0002 * f) / f);
        const bid = Math.max(x.tick, Math.round((mid - spread / 2) * f) / f);
        const exchange = [12, 11, 19][Math.floor(u * 3)] ?? 12;
        const row: QuoteRow = {
          ticker: x.ticker,
          sip_timestamp: ts,
          participant_timestamp: ts - 150_000n,
          sequence_number: BigInt(s) * 100n + BigInt(j),
          bid_price: bid,
          bid_size: 100 * (1 + Math.floor(u * 8)),
          bid_exchange: exchange,
          ask_price: Math.round((bid + spread) * f) / f,
          ask_size: 100 * (1 + Math.floor(draw(x.k, s, 160 + j) * 8)),
          ask_exchange: exchange,
          conditions: null,
          indicators: null,
          tape,
        };
        out.push({ kind: 1, ...row });
      }
    }
    return out.sort((a, b) => compareTicks(tickKey(a), tickKey(b)));
  }

  private pick(all: Map<string, Instrument>, filter: TickerFilter | undefined): Instrument[] {
    if (!filter) return [];
    if (filter.all) return [...all.values()];
    return filter.tickers.flatMap((t) => all.get(t) ?? []);
  }

  /**
   * About `limit` ticks after `after` (or at or after `fromNs`), at most a minute of them ahead, and at
   * least one when any ticker wanted trades (empty only when none of them exists).
   */
  async next(
    trades: TickerFilter | undefined,
    quotes: TickerFilter | undefined,
    fromNs: bigint,
    after: TickKey | undefined,
    limit: number,
  ): Promise<Tick[]> {
    const all = await this.load();
    const rates = RATES[this.market];
    const ts = rates.trades > 0 ? this.pick(all, trades) : [];
    const qs = rates.quotes > 0 ? this.pick(all, quotes) : [];
    const out: Tick[] = [];
    if (ts.length + qs.length === 0) return out;
    const start = Number((after?.ts ?? fromNs) / NS);
    // A day of seconds at most: every ticker ticks well within it.
    for (let s = start; s < start + 86_400; s++) {
      for (const tick of this.second(s, ts, qs)) {
        if (after ? compareTicks(tickKey(tick), after) > 0 : tick.sip_timestamp >= fromNs) out.push(tick);
      }
      if (out.length >= limit || (out.length > 0 && s >= start + AHEAD)) break;
    }
    return out;
  }

  /** The generated trades of `ticker` in the minute before `key`: its open windows; the day starts there. */
  async tradesBefore(ticker: string, key: TickKey, bounds: HistoryBounds): Promise<TradesBefore> {
    const x = (await this.load()).get(ticker);
    const empty = (): WindowSoFar => ({ o: 0, h: 0, l: 0, c: 0, v: 0, pv: 0, n: 0 });
    const minute = empty();
    const second = empty();
    const add = (w: WindowSoFar, p: number, size: number) => {
      if (w.n === 0) w.o = w.h = w.l = p;
      w.h = Math.max(w.h, p);
      w.l = Math.min(w.l, p);
      w.c = p;
      w.v += size;
      w.pv += p * size;
      w.n++;
    };
    if (x) {
      const from = Math.floor(bounds.minute / 1000);
      for (let s = from; s <= Number(key.ts / NS); s++) {
        for (const tick of this.second(s, [x], [])) {
          if (tick.kind !== 0 || compareTicks(tickKey(tick), key) >= 0) continue;
          add(minute, tick.price, tick.size);
          if (tick.sip_timestamp >= BigInt(bounds.second) * 1_000_000n) add(second, tick.price, tick.size);
        }
      }
    }
    return {
      dayV: minute.v,
      dayPv: minute.pv,
      dayOpen: minute.n > 0 ? minute.o : null,
      second,
      minute,
    };
  }
}
