/** Real tables, with header cells, written as text (never as markup: values come from data). */

export interface Column<T> {
  label: string;
  value: (row: T) => unknown;
}

/** A cell's text: bigints exactly, lists joined, objects as JSON, absent values empty. */
export function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(cellText).join(', ');
  if (typeof v === 'object') return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
  return String(v);
}

/** Replaces the table's head and body with `rows` under `columns`. */
export function renderTable<T>(
  table: HTMLTableElement,
  columns: readonly Column<T>[],
  rows: readonly T[],
): void {
  const head = document.createElement('thead');
  const tr = head.insertRow();
  for (const c of columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = c.label;
    tr.append(th);
  }
  const body = document.createElement('tbody');
  for (const row of rows) {
    const r = body.insertRow();
    for (const c of columns) r.insertCell().textContent = cellText(c.value(row));
  }
  table.replaceChildren(head, body);
}
