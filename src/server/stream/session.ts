import type WebSocket from 'ws';
import { NEW_YORK } from '../../dates/time-zone.js';
import { STREAM_CHANNELS, type StreamMarket, splitChannel } from '../../stream/channels.js';
import { formatTime } from '../../table/time-format.js';
import { Aggregator } from './aggregator.js';
import type { Feed } from './feeds.js';
import { type Tick, type TickerFilter, type TickKey, type TickReader, tickKey } from './tick-source.js';

/** How fast a replay runs: a multiple of real time, or as fast as the client reads. */
export type ReplaySpeed = number | 'max';

/** What a session sends: ticks of `source` from `fromNs` on, at `speed`. */
export interface ReplayPlan {
  source: TickReader;
  /** Unix ns. */
  fromNs: bigint;
  speed: ReplaySpeed;
  /**
   * Whether the replay's clock starts at the first tick the subscriptions bring (at or after `fromNs`)
   * instead of at `fromNs`: no wait for the data to begin.
   */
  atFirst?: boolean;
}

/** What every session of one server shares. */
export interface SessionOptions {
  market: StreamMarket;
  feed: Feed;
  /** Whether a key is accepted. */
  accepts(key: string): boolean;
  /**
   * What the session sends; resolved when the first channel is subscribed. `stopped` aborts when the
   * session stops: the plan's queries still waiting for the store are then dropped.
   */
  plan(stopped: AbortSignal): Promise<ReplayPlan>;
  log(line: string): void;
}

/** Ticks read per query. */
const BATCH = 5_000;
/** Events sent per message at most. */
const FRAME = 500;
/** Bytes queued on the socket beyond which the replay waits for them to be written. */
const HIGH_WATER = 1 << 20;
/**
 * A wait for the first tick longer than this (wall ms) is announced, and one for a later tick longer
 * than `GAP_NOTICE_MS`: the replay would look stuck (sparse hours have gaps of seconds).
 */
const NOTICE_MS = 10_000;
const GAP_NOTICE_MS = 60_000;

/** `4 h 0 min`, `2 min 5 s`, `3 d 1 h`: a wall-clock wait, to the unit a reader cares about. */
export function waitSpan(ms: number): string {
  const s = Math.ceil(ms / 1000);
  const [d, h, m] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60)];
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return m > 0 ? `${m} min ${s % 60} s` : `${s} s`;
}

const status = (s: string, message: string) => ({ ev: 'status', status: s, message });

/**
 * One client connection: the service's protocol (status `connected`, then `auth`, then `subscribe` and
 * `unsubscribe` with comma-separated channels, each acknowledged) and its own replay of the ticks of
 * its plan (stored, or the live simulated market), which starts when the first channel is subscribed
 * and runs in (time, trades before quotes, ticker, sequence) order across the subscribed tickers.
 */
export class StreamSession {
  private authed = false;
  /** Subscribed store tickers by channel prefix; `*` for every ticker. */
  private readonly subs = new Map<string, Set<string>>();
  private stopped = false;
  private readonly stopping = new AbortController();
  /** Settles on `stop()`: a replay waiting for a client that no longer reads stops waiting. */
  private readonly halted: Promise<void>;
  private halt!: () => void;
  /** Set when the subscriptions change: the replay re-reads from where it stands. */
  private changed = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly o: SessionOptions,
  ) {
    this.halted = new Promise((resolve) => {
      this.halt = resolve;
    });
  }

  start(): void {
    this.sendJson([status('connected', 'Connected Successfully')]);
    this.ws.on('message', (data: WebSocket.RawData) => this.receive(data.toString()));
    this.ws.on('close', () => this.stop());
    this.ws.on('error', () => this.stop());
  }

  /** Ends the replay; resolves once its query in flight (if any) is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.halt();
    this.wake?.();
    await this.loop;
  }

  private sendJson(value: unknown): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(value));
  }

  private receive(text: string): void {
    let msg: { action?: unknown; params?: unknown };
    try {
      msg = JSON.parse(text);
    } catch {
      this.sendJson([
        status('error', 'invalid message: expected JSON such as {"action":"auth","params":"<key>"}'),
      ]);
      return;
    }
    const action = typeof msg === 'object' && msg !== null ? msg.action : undefined;
    const params = typeof msg?.params === 'string' ? msg.params : '';
    if (action === 'auth') {
      if (this.o.accepts(params)) {
        this.authed = true;
        this.sendJson([status('auth_success', 'authenticated')]);
      } else {
        this.authed = false;
        this.sendJson([status('auth_failed', 'authentication failed')]);
        this.ws.close(1008, 'authentication failed');
      }
    } else if (action === 'subscribe' || action === 'unsubscribe') {
      if (!this.authed) {
        this.sendJson([status('error', 'not authorized: send {"action":"auth","params":"<key>"} first')]);
        return;
      }
      this.change(action, params);
    } else {
      this.sendJson([
        status('error', `unknown action: ${JSON.stringify(action)}; expected auth, subscribe or unsubscribe`),
      ]);
    }
  }

  private change(action: 'subscribe' | 'unsubscribe', params: string): void {
    const replies: unknown[] = [];
    for (const raw of params.split(',')) {
      const channel = raw.trim();
      if (channel === '') continue;
      const parsed = splitChannel(channel);
      // A channel the service has and this server cannot serve is named as such, not as unknown.
      const unavailable = parsed && this.o.feed.unavailable?.[parsed.prefix];
      if (!parsed || (!STREAM_CHANNELS[this.o.market].includes(parsed.prefix) && unavailable === undefined)) {
        replies.push(
          status(
            'error',
            `unknown channel: ${channel}; ${this.o.market} channels are ${STREAM_CHANNELS[this.o.market].join(', ')}, as <channel>.<ticker> or <channel>.*`,
          ),
        );
        continue;
      }
      if (unavailable !== undefined && action === 'subscribe') {
        replies.push(
          status(
            'error',
            `not available: ${channel}: this server does not serve ${parsed.prefix}: ${unavailable}`,
          ),
        );
        continue;
      }
      const ticker = parsed.ticker === '*' ? '*' : this.o.feed.storeTicker(parsed.ticker);
      let set = this.subs.get(parsed.prefix);
      if (action === 'subscribe') {
        if (!set) {
          set = new Set();
          this.subs.set(parsed.prefix, set);
        }
        set.add(ticker);
        replies.push(status('success', `subscribed to: ${channel}`));
      } else {
        set?.delete(ticker);
        replies.push(status('success', `unsubscribed to: ${channel}`));
      }
    }
    this.sendJson(replies);
    this.changed = true;
    this.wake?.();
    this.loop ??= this.replay().catch((e) => {
      if (this.stopped) return; // its queries were dropped: nobody is left to tell
      this.o.log(`stream replay failed: ${e instanceof Error ? e.message : String(e)}`);
      this.ws.close(1011, 'replay failed');
    });
  }

  private wants(prefix: string | undefined, ticker: string): boolean {
    if (!prefix) return false;
    const set = this.subs.get(prefix);
    return set !== undefined && (set.has('*') || set.has(ticker));
  }

  private filter(prefixes: (string | undefined)[]): TickerFilter | undefined {
    const tickers = new Set<string>();
    let all = false;
    for (const p of prefixes) {
      const set = p ? this.subs.get(p) : undefined;
      if (!set) continue;
      for (const t of set) {
        if (t === '*') all = true;
        else tickers.add(t);
      }
    }
    return all || tickers.size > 0 ? { all, tickers: [...tickers] } : undefined;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /**
   * Says, on the connection (a status `waiting`) and in the server's log, that the replay waits `wait`
   * wall ms for the tick at `tickNs` while its clock stands at `clockNs`, and how not to wait.
   */
  private announceWait(tick: Tick, clockNs: bigint, wait: number, speed: number, first: boolean): void {
    const zone = this.o.market === 'forex' || this.o.market === 'crypto' ? 'UTC' : NEW_YORK;
    const at = (ns: bigint) => formatTime(Number(ns / 1_000_000n), zone);
    const what = first ? 'the first event' : 'the next event';
    const message =
      `replay at ${speed}x real time stands at ${at(clockNs)}; ${what} (${tick.ticker}) is at ` +
      `${at(tick.sip_timestamp)}, ${waitSpan(wait)} from now; the server's ` +
      `${first ? '--replay-from first starts at the first event, ' : ''}--replay-speed max sends without waiting`;
    this.sendJson([status('waiting', message)]);
    this.o.log(`stream ${this.o.market}: ${message}`);
  }

  private async replay(): Promise<void> {
    const { feed } = this.o;
    const { source, fromNs, speed, atFirst = false } = await this.o.plan(this.stopping.signal);
    let startWall = Date.now();
    /** The replay time at `startWall` (Unix ns). */
    let clockNs = fromNs;
    let sent = false;
    const aggregator = new Aggregator(feed);
    let after: TickKey | undefined;
    let frame: unknown[] = [];
    const flush = async () => {
      if (frame.length === 0) return;
      const text = JSON.stringify(frame);
      frame = [];
      if (this.ws.readyState !== this.ws.OPEN) return;
      const sent = new Promise<void>((resolve) => {
        this.ws.send(text, () => resolve());
        // Below the mark the replay goes on at once; above, it waits for the socket to take the bytes,
        // which is how a slow reader holds back a replay at 'max' speed.
        if (this.ws.bufferedAmount < HIGH_WATER) resolve();
      });
      await Promise.race([sent, this.halted]);
    };
    const closeUntil = (tMs: number) => {
      for (const a of aggregator.close(tMs)) if (this.wants(a.channel, a.ticker)) frame.push(a.event);
    };
    while (!this.stopped) {
      this.changed = false;
      const trades = this.filter([feed.trade, feed.second, feed.minute]);
      const quotes = this.filter([feed.quote]);
      const bars = {
        second: this.filter([...(feed.bars?.second ?? [])]),
        minute: this.filter([...(feed.bars?.minute ?? [])]),
      };
      const batch =
        trades || quotes || bars.second || bars.minute
          ? await source.next(trades, quotes, fromNs, after, BATCH, bars)
          : [];
      if (batch.length === 0) {
        // The end of the data (or nothing subscribed): the open windows close, then wait for a change.
        closeUntil(Number.POSITIVE_INFINITY);
        await flush();
        if (!this.changed && !this.stopped) await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      for (const tick of batch) {
        if (this.stopped || this.changed) break;
        const tMs = Number(tick.sip_timestamp / 1_000_000n);
        if (speed !== 'max') {
          if (atFirst && !sent) {
            startWall = Date.now();
            clockNs = tick.sip_timestamp;
          }
          const due = startWall + Number(tick.sip_timestamp - clockNs) / 1e6 / speed;
          const wait = due - Date.now();
          if (wait > 0) {
            await flush();
            if (wait > (sent ? GAP_NOTICE_MS : NOTICE_MS)) {
              const now = clockNs + BigInt(Math.round((Date.now() - startWall) * speed * 1e6));
              this.announceWait(tick, now, wait, speed, !sent);
            }
            await this.sleep(wait);
            if (this.stopped || this.changed) break;
          }
        }
        sent = true;
        closeUntil(tMs);
        if (tick.kind === 0) {
          if ((feed.second || feed.minute) && aggregator.needsHistory(tick.ticker, tMs)) {
            const bounds = aggregator.historyBounds(tick.ticker, tMs);
            aggregator.begin(tick.ticker, tMs, await source.tradesBefore(tick.ticker, tickKey(tick), bounds));
          }
          aggregator.add(tick, tMs);
          if (this.wants(feed.trade, tick.ticker) && feed.tradeEvent) frame.push(feed.tradeEvent(tick));
        } else if (tick.kind === 1) {
          if (this.wants(feed.quote, tick.ticker) && feed.quoteEvent) frame.push(feed.quoteEvent(tick));
        } else if (feed.bars) {
          for (const channel of (tick.kind === -2 ? feed.bars.second : feed.bars.minute) ?? []) {
            if (this.wants(channel, tick.ticker)) frame.push(feed.bars.event(channel, tick));
          }
        }
        after = tickKey(tick);
        if (frame.length >= FRAME) await flush();
      }
      await flush();
    }
  }
}
