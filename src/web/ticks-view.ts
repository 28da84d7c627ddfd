/** The trades or quotes of the chosen days, a page at a time by `next_url`. */
import { pathOf } from './api.js';
import type { AssetClass } from './markets.js';
import { futuresOperations, tickOperations } from './operations.js';
import { type Page, Pager } from './pager.js';
import type { PageState } from './state.js';
import { type Column, renderTable } from './table.js';
import { nanosIn, nextDay } from './times.js';

/** The first page's path, or the reason the class has none of this kind. */
export function ticksPath(s: PageState, cls: AssetClass, limit: number): string | { none: string } {
  if (cls === 'indices') return { none: 'An index has no trades or quotes, only values.' };
  if (cls === 'fx' && s.kind === 'trades') return { none: 'Forex has quotes, no trades: choose quotes.' };
  const range = { timestampGte: s.from, timestampLt: s.to ? nextDay(s.to) : undefined, limit };
  if (cls === 'futures') {
    const op = s.kind === 'trades' ? futuresOperations.getTrades : futuresOperations.getQuotes;
    return pathOf(op, [s.ticker], { ...range, sort: 'timestamp.asc' });
  }
  return pathOf(tickOperations[s.kind], [s.ticker], { ...range, sort: 'timestamp', order: 'asc' });
}

const TIME_KEYS = ['sip_timestamp', 'timestamp', 'participant_timestamp'];

/** Columns for the rows at hand: their time in the zone first, then every field in the order met. */
function columnsOf(
  rows: readonly Record<string, unknown>[],
  zone: string,
): Column<Record<string, unknown>>[] {
  const keys: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  const timeKey = TIME_KEYS.find((k) => keys.includes(k));
  const cols: Column<Record<string, unknown>>[] = [];
  if (timeKey) {
    cols.push({
      label: `Time (${zone === 'UTC' ? 'UTC' : 'New York'})`,
      value: (r) => (r[timeKey] === undefined ? '' : nanosIn(r[timeKey] as bigint | number, zone)),
    });
  }
  for (const k of keys) cols.push({ label: k, value: (r) => r[k] });
  return cols;
}

export class TicksView {
  readonly pager: Pager;
  private zone = 'UTC';

  constructor(
    private readonly table: HTMLTableElement,
    private readonly caption: HTMLElement,
    private readonly prev: HTMLButtonElement,
    private readonly next: HTMLButtonElement,
  ) {
    this.pager = new Pager((page, index, hasNext) => this.render(page, index, hasNext));
    prev.disabled = true;
    next.disabled = true;
  }

  /** Loads the first page; resolves once it is shown (or says why there is none). */
  async load(s: PageState, cls: AssetClass, zone: string, limit: number): Promise<void> {
    this.zone = zone;
    const path = ticksPath(s, cls, limit);
    if (typeof path !== 'string') {
      this.table.replaceChildren();
      this.caption.textContent = path.none;
      this.prev.disabled = true;
      this.next.disabled = true;
      return;
    }
    await this.pager.start(path);
  }

  private render(page: Page, index: number, hasNext: boolean): void {
    const rows = page.results ?? [];
    renderTable(this.table, columnsOf(rows, this.zone), rows);
    this.caption.textContent = `page ${index + 1}: ${rows.length} rows${hasNext ? '' : ', the last page'}`;
    this.prev.disabled = !this.pager.hasPrevious;
    this.next.disabled = !hasNext;
  }
}
