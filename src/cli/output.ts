import { stringifyJson } from '../core/json.js';
import { columnsOf, type Row, rowsOf } from './rows.js';
import { readableCell } from './time-format.js';
import { UsageError } from './usage-error.js';

/** The output formats of `--output`. */
export const OUTPUT_FORMATS = ['table', 'json', 'csv', 'ndjson'] as const;
/** One of {@link OUTPUT_FORMATS}. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `--output`, else a table on a terminal and JSON when piped. */
export function resolveOutputFormat(value: string | undefined, isTTY: boolean): OutputFormat {
  if (value === undefined) return isTTY ? 'table' : 'json';
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`Invalid --output: ${JSON.stringify(value)}; allowed: ${OUTPUT_FORMATS.join(', ')}`);
}

/** How to render one result. */
export interface RenderOptions {
  /** Time zone of readable times in tables. */
  timeZone: string;
  /** Terminal width for tables. */
  columns?: number;
}

/**
 * Renders a result: `json` is the response exactly (bigint nanoseconds included), `ndjson` and `csv`
 * one line per row, `table` aligned columns with readable times.
 */
export function render(value: unknown, format: OutputFormat, options: RenderOptions): string {
  if (format === 'json') return `${stringifyJson(value, 2)}\n`;
  const rows = rowsOf(value);
  if (format === 'ndjson') return rows.map((r) => `${stringifyJson(r)}\n`).join('');
  if (format === 'csv') return csv(rows);
  return table(rows, options.timeZone);
}

function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return stringifyJson(v);
}

function csv(rows: readonly Row[]): string {
  const cols = columnsOf(rows);
  const cell = (v: unknown) => {
    const s = scalarText(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [cols.map(cell).join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))];
  return rows.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Aligned columns; numbers right-aligned, timestamps as readable times in `timeZone`. */
export function table(rows: readonly Row[], timeZone: string): string {
  if (rows.length === 0) return '(no rows)\n';
  const cols = columnsOf(rows);
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
