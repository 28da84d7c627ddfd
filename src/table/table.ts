import { stringifyJson } from '../core/json.js';
import { columnsOf, type Row } from './rows.js';
import { readableCell } from './time-format.js';

/** A cell's text: strings as they are, numbers and booleans as written, anything else as JSON. */
export function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return stringifyJson(v);
}

/** Aligned columns (every column, or `cols`); numbers right-aligned, timestamps as readable times in `timeZone`. */
export function table(
  rows: readonly Row[],
  timeZone: string,
  cols: readonly string[] = columnsOf(rows),
): string {
  if (rows.length === 0) return '(no rows)\n';
  const cells = rows.map((r) => cols.map((c) => scalarText(tableCell(c, r[c], timeZone))));
  const numeric = cols.map((c) =>
    rows.every((r) => r[c] === undefined || typeof r[c] === 'number' || typeof r[c] === 'bigint'),
  );
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => (row[i] as string).length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i] as number) : v.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  const header = line(cols);
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  return `${[header, rule, ...cells.map(line)].join('\n')}\n`;
}

/** A cell as a table shows it: readable times, and at most 8 significant digits (JSON stays exact). */
function tableCell(column: string, value: unknown, timeZone: string): unknown {
  const readable = readableCell(column, value, timeZone);
  if (typeof readable === 'number' && !Number.isInteger(readable)) return Number(readable.toPrecision(8));
  return readable;
}
