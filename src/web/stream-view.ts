/**
 * A live view of the server's stream (a replay of stored ticks, or the simulated market): the browser
 * speaks the service's WebSocket protocol itself (`connected`, `auth`, `subscribe`), shows the newest
 * events in a table and draws the minute aggregates as they come.
 */
import { apiKey } from './api.js';
import type { Bar } from './bars.js';
import type { CandleChart } from './chart.js';
import { renderTable } from './table.js';
import { dateTimeIn } from './times.js';

/** Rows kept in the table: the newest first. */
const SHOWN = 100;
const AGGREGATES = new Set(['AM', 'A', 'XA', 'XAS', 'CA', 'CAS']);

type StreamEvent = Record<string, any>;

const time = (e: StreamEvent): number | undefined =>
  AGGREGATES.has(e.ev) ? e.s : typeof e.t === 'number' ? e.t : undefined;

/** The event's ticker: `sym`, or a pair (`pair`, or a forex quote's `p`). */
const tickerOf = (e: StreamEvent): string => e.sym ?? e.pair ?? (typeof e.p === 'string' ? e.p : '');

export class StreamView {
  private ws: WebSocket | undefined;
  private events: StreamEvent[] = [];
  private counts = new Map<string, number>();
  private zone = 'America/New_York';
  private drawPending = false;
  /** Events received since Connect (a test reads it). */
  received = 0;

  constructor(
    private readonly table: HTMLTableElement,
    private readonly state: HTMLElement,
    private readonly chart: CandleChart,
    private readonly onStatus: (status: string) => void,
  ) {}

  /** Connects to `/<market>` and subscribes to `channels` once authenticated. */
  start(market: string, channels: string, zone: string): void {
    this.stop();
    this.zone = zone;
    this.events = [];
    this.counts.clear();
    this.received = 0;
    this.chart.setBars([], zone);
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/${market}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.say(`connecting to ${url}`);
    ws.onmessage = (m) => {
      if (ws !== this.ws) return;
      let batch: StreamEvent[];
      try {
        batch = JSON.parse(String(m.data));
      } catch {
        return;
      }
      for (const e of batch) this.take(ws, e, channels);
      this.scheduleDraw();
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      this.ws = undefined;
      this.say(`disconnected${e.reason ? `: ${e.reason}` : ''}`);
    };
    ws.onerror = () => this.say('connection error');
  }

  stop(): void {
    const ws = this.ws;
    this.ws = undefined;
    ws?.close(1000);
    if (ws) this.say('disconnected');
  }

  get connected(): boolean {
    return this.ws !== undefined;
  }

  private take(ws: WebSocket, e: StreamEvent, channels: string): void {
    if (e.ev === 'status') {
      this.say(`${e.status}: ${e.message ?? ''}`);
      // The server needs a key only when it was given some; the page then has one (`/?apiKey=…`).
      if (e.status === 'connected') ws.send(JSON.stringify({ action: 'auth', params: apiKey ?? 'local' }));
      if (e.status === 'auth_success') ws.send(JSON.stringify({ action: 'subscribe', params: channels }));
      return;
    }
    this.received++;
    this.counts.set(e.ev, (this.counts.get(e.ev) ?? 0) + 1);
    this.events.push(e);
    if (this.events.length > SHOWN * 2) this.events.splice(0, this.events.length - SHOWN);
    if ((e.ev === 'AM' || e.ev === 'XA' || e.ev === 'CA') && typeof e.s === 'number') {
      const bar: Bar = {
        time: Math.floor(e.s / 1000),
        open: e.o,
        high: e.h,
        low: e.l,
        close: e.c,
        volume: e.v ?? 0,
      };
      try {
        this.chart.update(bar, this.zone);
      } catch {
        // A bar older than the last drawn (another ticker's): the table still shows it.
      }
    }
  }

  /** Redraws at most once a frame, however fast events come. */
  private scheduleDraw(): void {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      const newest = this.events.slice(-SHOWN).reverse();
      renderTable(
        this.table,
        [
          { label: `Time (${this.zone === 'UTC' ? 'UTC' : 'New York'})`, value: (e) => this.when(e) },
          { label: 'Event', value: (e) => e.ev },
          { label: 'Ticker', value: tickerOf },
          { label: 'Price', value: (e) => (typeof e.p === 'number' ? e.p : (e.val ?? e.c)) },
          { label: 'Size', value: (e) => (AGGREGATES.has(e.ev) ? e.v : e.s) },
          { label: 'Bid', value: (e) => e.bp ?? e.b },
          { label: 'Ask', value: (e) => e.ap ?? e.a },
        ],
        newest,
      );
      const counts = [...this.counts].map(([ev, n]) => `${ev} ${n}`).join(', ');
      this.onStatus(`${this.received} events (${counts})`);
    });
  }

  private when(e: StreamEvent): string {
    const t = time(e);
    return t === undefined ? '' : `${dateTimeIn(t, this.zone)}.${String(t % 1000).padStart(3, '0')}`;
  }

  private say(text: string): void {
    this.state.textContent = text;
  }
}
