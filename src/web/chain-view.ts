/** The option chain of an underlying at the server's "now", with greeks, a page at a time. */
import { pathOf } from './api.js';
import { optionsChainSnapshot } from './operations.js';
import { type Page, Pager } from './pager.js';
import { type Column, renderTable } from './table.js';

const fixed = (digits: number) => (v: unknown) => (typeof v === 'number' ? v.toFixed(digits) : '');

const COLUMNS: Column<any>[] = [
  { label: 'Contract', value: (r) => r.details?.ticker },
  { label: 'Type', value: (r) => r.details?.contract_type },
  { label: 'Expiration', value: (r) => r.details?.expiration_date },
  { label: 'Strike', value: (r) => r.details?.strike_price },
  { label: 'Bid', value: (r) => r.last_quote?.bid },
  { label: 'Ask', value: (r) => r.last_quote?.ask },
  { label: 'Last close', value: (r) => r.day?.close },
  { label: 'Volume', value: (r) => r.day?.volume },
  { label: 'Open interest', value: (r) => r.open_interest },
  { label: 'Implied volatility', value: (r) => fixed(4)(r.implied_volatility) },
  { label: 'Delta', value: (r) => fixed(4)(r.greeks?.delta) },
  { label: 'Gamma', value: (r) => fixed(4)(r.greeks?.gamma) },
  { label: 'Theta', value: (r) => fixed(4)(r.greeks?.theta) },
  { label: 'Vega', value: (r) => fixed(4)(r.greeks?.vega) },
];

export class ChainView {
  readonly pager: Pager;

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

  async load(underlying: string, expiration: string): Promise<void> {
    await this.pager.start(
      pathOf(optionsChainSnapshot, [underlying], { expirationDate: expiration, limit: 100 }),
    );
  }

  private render(page: Page, index: number, hasNext: boolean): void {
    const rows = page.results ?? [];
    renderTable(this.table, COLUMNS, rows);
    const underlying = rows[0]?.underlying_asset;
    const price =
      underlying?.price === undefined ? '' : `, underlying ${underlying.ticker} at ${underlying.price}`;
    this.caption.textContent = rows.length
      ? `page ${index + 1}: ${rows.length} contracts${price}${hasNext ? '' : ', the last page'}`
      : 'no option contracts of this underlying in the store';
    this.prev.disabled = !this.pager.hasPrevious;
    this.next.disabled = !hasNext;
  }
}
