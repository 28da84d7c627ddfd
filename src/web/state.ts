/** The page's state, kept in its address so that a view can be bookmarked, shared and opened directly. */

export const VIEWS = ['chart', 'trades', 'chain', 'stream'] as const;
export type View = (typeof VIEWS)[number];

export interface PageState {
  ticker: string;
  from: string;
  to: string;
  multiplier: number;
  timespan: string;
  view: View;
  /** Trades or quotes, in the trades view. */
  kind: 'trades' | 'quotes';
}

/** The state of the current address; absent or unknown values take the defaults. */
export function readState(): PageState {
  const q = new URLSearchParams(location.search);
  const view = q.get('view');
  const multiplier = Number(q.get('multiplier') ?? 1);
  return {
    ticker: (q.get('ticker') ?? '').trim(),
    from: q.get('from') ?? '',
    to: q.get('to') ?? q.get('from') ?? '',
    multiplier: Number.isInteger(multiplier) && multiplier > 0 ? multiplier : 1,
    timespan: q.get('timespan') ?? 'minute',
    view: VIEWS.includes(view as View) ? (view as View) : 'chart',
    kind: q.get('kind') === 'quotes' ? 'quotes' : 'trades',
  };
}

/** Writes the state into the address (a new history entry unless `replace`), keeping the key. */
export function writeState(s: PageState, replace = false): void {
  const q = new URLSearchParams();
  const key = new URLSearchParams(location.search).get('apiKey');
  if (s.ticker) q.set('ticker', s.ticker);
  if (s.from) q.set('from', s.from);
  if (s.to) q.set('to', s.to);
  q.set('timespan', s.timespan);
  if (s.multiplier !== 1) q.set('multiplier', String(s.multiplier));
  q.set('view', s.view);
  if (s.view === 'trades') q.set('kind', s.kind);
  if (key) q.set('apiKey', key);
  const url = `${location.pathname}?${q}`;
  if (url === `${location.pathname}${location.search}`) return;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
}
