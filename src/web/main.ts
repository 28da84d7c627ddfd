/**
 * The local server's web page: pick a ticker and a range, then a chart, the trades and quotes, the
 * option chain or a live stream. Its state lives in the address (see state.ts); it calls only this
 * server's REST routes and WebSocket streams.
 */
import { getJson, pathOf } from './api.js';
import { fetchBars } from './bars.js';
import { ChainView } from './chain-view.js';
import { CandleChart } from './chart.js';
import { latestRange } from './latest-range.js';
import {
  type AssetClass,
  assetClassOf,
  defaultChannels,
  streamMarketOf,
  underlyingOf,
  zoneOf,
} from './markets.js';
import { futuresOperations, optionContracts, tickers } from './operations.js';
import { type PageState, readState, VIEWS, type View, writeState } from './state.js';
import { StreamView } from './stream-view.js';
import { TicksView } from './ticks-view.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const form = $<HTMLFormElement>('pick');
const fields = {
  ticker: $<HTMLInputElement>('ticker'),
  from: $<HTMLInputElement>('from'),
  to: $<HTMLInputElement>('to'),
  multiplier: $<HTMLInputElement>('multiplier'),
  timespan: $<HTMLSelectElement>('timespan'),
};
const statusLine = $<HTMLParagraphElement>('status');
const sections = Object.fromEntries(VIEWS.map((v) => [v, $<HTMLElement>(`view-${v}`)])) as Record<
  View,
  HTMLElement
>;

const chart = new CandleChart($('chart'));
const ticks = new TicksView($('tick-table'), $('tick-page'), $('tick-prev'), $('tick-next'));
const chain = new ChainView($('chain-table'), $('chain-page'), $('chain-prev'), $('chain-next'));
const streamChart = new CandleChart($('stream-chart'));
const stream = new StreamView($('stream-table'), $('stream-state'), streamChart, (s) => say(s));

/** Futures contracts the store holds (their tickers have no prefix to tell them from stocks). */
const futures = new Set<string>();
let state = readState();
/** The chart's load in flight, aborted by a newer one. */
let chartLoad: AbortController | undefined;
/** What each view last loaded, so that switching views does not reload an unchanged one. */
const loadedFor = new Map<View, string>();

function say(text: string, error = false): void {
  statusLine.textContent = text;
  statusLine.classList.toggle('error', error);
}

/** Marks a view's progress on its section (`data-status`: loading, ready, error); tests wait on it. */
function mark(view: View, status: 'loading' | 'ready' | 'error'): void {
  sections[view].dataset.status = status;
}

function fillForm(s: PageState): void {
  fields.ticker.value = s.ticker;
  fields.from.value = s.from;
  fields.to.value = s.to;
  fields.multiplier.value = String(s.multiplier);
  fields.timespan.value = s.timespan;
  $<HTMLSelectElement>('tick-kind').value = s.kind;
}

function classOf(ticker: string): AssetClass {
  return assetClassOf(ticker, futures);
}

async function showChart(s: PageState, signal: AbortSignal): Promise<void> {
  const cls = classOf(s.ticker);
  const { zone, label } = zoneOf(cls);
  const { bars, truncated } = await fetchBars({ ...s, cls }, signal);
  if (signal.aborted) return;
  chart.setBars(bars, zone);
  $('chart-caption').textContent =
    `${s.ticker}: ${bars.length} bars of ${s.multiplier} ${s.timespan}, ${s.from} to ${s.to}, times in ${label}` +
    (truncated ? ' (the first pages only: choose a shorter range or longer bars for all)' : '') +
    '. Drag to pan, scroll to zoom.';
}

async function showView(): Promise<void> {
  const s = state;
  for (const v of VIEWS) {
    sections[v].hidden = v !== s.view;
    document
      .querySelector(`nav button[data-view="${v}"]`)
      ?.setAttribute('aria-pressed', String(v === s.view));
  }
  if (s.view !== 'stream') stream.stop();
  if (!s.ticker) {
    say('Choose a ticker and a range.');
    return;
  }
  const cls = classOf(s.ticker);
  if ((!s.from || !s.to) && s.view !== 'chain' && s.view !== 'stream') {
    const range = await latestRange(s.ticker, cls, s.timespan, zoneOf(cls).zone).catch(() => undefined);
    if (range && state === s) {
      state = { ...s, ...range };
      writeState(state, true);
      fillForm(state);
      return showView();
    }
  }
  const key = JSON.stringify({
    ...s,
    view: undefined,
    limit: $<HTMLInputElement>('tick-limit').value,
    chainExp: $<HTMLInputElement>('chain-expiration').value,
  });
  if (loadedFor.get(s.view) === key) return;
  loadedFor.set(s.view, key);
  mark(s.view, 'loading');
  say(`loading ${s.ticker}…`);
  // A newer load of the chart supersedes one still running: its bars must not land over the newer ones.
  if (s.view === 'chart') chartLoad?.abort();
  const controller = new AbortController();
  if (s.view === 'chart') chartLoad = controller;
  try {
    switch (s.view) {
      case 'chart':
        if (!s.from || !s.to)
          throw new Error(`No bars of ${s.ticker} in the store: choose the range, From and To.`);
        await showChart(s, controller.signal);
        break;
      case 'trades':
        await ticks.load(s, cls, zoneOf(cls).zone, Number($<HTMLInputElement>('tick-limit').value) || 100);
        break;
      case 'chain':
        await chain.load(underlyingOf(s.ticker), $<HTMLInputElement>('chain-expiration').value);
        break;
      case 'stream': {
        stream.stop();
        const channels = defaultChannels(s.ticker, cls);
        $<HTMLInputElement>('stream-channels').value = channels;
        say(`Connect to stream ${channels}.`);
        break;
      }
    }
    mark(s.view, 'ready');
    if (s.view !== 'stream') say('');
  } catch (e) {
    if (controller.signal.aborted) return;
    loadedFor.delete(s.view);
    mark(s.view, 'error');
    say(e instanceof Error ? e.message : String(e), true);
  }
}

/** Suggestions for the ticker field: the store's tickers of every class, futures contracts included. */
async function suggest(text: string): Promise<void> {
  const q = text.trim();
  if (!q) return;
  const list = $('ticker-list');
  const found: { ticker: string; label: string }[] = [];
  try {
    if (q.toUpperCase().startsWith('O:')) {
      const root = /^O:([A-Z.]+)/i.exec(q)?.[1]?.toUpperCase();
      if (root) {
        const body = await getJson(pathOf(optionContracts, [], { underlyingTicker: root, limit: 1000 }));
        for (const c of body.results ?? [])
          if (c.ticker.startsWith(q.toUpperCase()))
            found.push({
              ticker: c.ticker,
              label: `${c.contract_type} ${c.strike_price} ${c.expiration_date}`,
            });
      }
    } else {
      const body = await getJson(pathOf(tickers, [], { search: q, limit: 50 }));
      for (const t of body.results ?? []) found.push({ ticker: t.ticker, label: `${t.name} (${t.market})` });
      for (const f of futures)
        if (f.startsWith(q.toUpperCase())) found.push({ ticker: f, label: `${f} (futures)` });
    }
  } catch {
    return;
  }
  list.replaceChildren(
    ...found.slice(0, 100).map((f) => {
      const o = document.createElement('option');
      o.value = f.ticker;
      o.label = f.label;
      return o;
    }),
  );
}

function readForm(): PageState {
  return {
    ...state,
    ticker: fields.ticker.value.trim(),
    from: fields.from.value,
    to: fields.to.value || fields.from.value,
    multiplier: Number(fields.multiplier.value) || 1,
    timespan: fields.timespan.value,
    kind: $<HTMLSelectElement>('tick-kind').value === 'quotes' ? 'quotes' : 'trades',
  };
}

function go(next: PageState): void {
  if (next.from && next.to && next.from > next.to) {
    say(`From (${next.from}) is after To (${next.to}): choose a From on or before To.`, true);
    return;
  }
  state = next;
  writeState(state);
  void showView();
}

async function start(): Promise<void> {
  fillForm(state);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    go(readForm());
  });
  for (const b of document.querySelectorAll<HTMLButtonElement>('nav button[data-view]')) {
    b.addEventListener('click', () => go({ ...readForm(), view: b.dataset.view as View }));
  }
  let typing: ReturnType<typeof setTimeout> | undefined;
  fields.ticker.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => void suggest(fields.ticker.value), 150);
  });
  $('tick-kind').addEventListener('change', () => go(readForm()));
  $('tick-limit').addEventListener('change', () => void showView());
  $('chain-expiration').addEventListener('change', () => void showView());
  const paged = (pager: { next(): Promise<void>; previous(): void }, prev: string, next: string) => {
    $(next).addEventListener('click', () => pager.next().catch((e) => say(String(e.message ?? e), true)));
    $(prev).addEventListener('click', () => pager.previous());
  };
  paged(ticks.pager, 'tick-prev', 'tick-next');
  paged(chain.pager, 'chain-prev', 'chain-next');
  $('stream-start').addEventListener('click', () => {
    const cls = classOf(state.ticker);
    stream.start(streamMarketOf(cls), $<HTMLInputElement>('stream-channels').value, zoneOf(cls).zone);
  });
  $('stream-stop').addEventListener('click', () => stream.stop());
  addEventListener('popstate', () => {
    state = readState();
    fillForm(state);
    void showView();
  });
  try {
    const body = await getJson(pathOf(futuresOperations.getContracts, [], { limit: 1000 }));
    for (const c of body.results ?? []) futures.add(c.ticker);
  } catch {
    // A store without futures: every unprefixed ticker is a stock.
  }
  writeState(state, true);
  await showView();
}

/** What tests read back: the chart's bars, view and labels, and the stream's event count. */
(window as unknown as { mdqPage: unknown }).mdqPage = {
  chartBars: () => chart.bars(),
  chartRange: () => chart.visibleRange(),
  chartTimeLabel: (seconds: number) => chart.timeLabel(seconds),
  streamBars: () => streamChart.bars(),
  streamEvents: () => stream.received,
};

void start();
