import { stringifyJson } from '../core/json.js';
import { columnsOf, itemsOf, type Row, rowsOf } from './rows.js';
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
  /**
   * Columns of a table or CSV, in this order (`--columns`); a name also selects the columns under it
   * (`day` → `day.o`, `day.c`, …). Every column when absent.
   */
  select?: readonly string[] | undefined;
}

/**
 * Renders a result: `json` is the response exactly (bigint nanoseconds included), `ndjson` one JSON
 * line per item (nested objects kept), `csv` one line per flattened row, `table` aligned columns with
 * readable times.
 */
export function render(value: unknown, format: OutputFormat, options: RenderOptions): string {
  if (format === 'json') return `${stringifyJson(value, 2)}\n`;
  // One JSON line per item, as the response holds it: nested objects and lists stay JSON.
  if (format === 'ndjson')
    return itemsOf(value)
      .map((item) => `${stringifyJson(item)}\n`)
      .join('');
  const rows = rowsOf(value);
  const cols = selectColumns(columnsOf(rows), options.select);
  if (format === 'csv') return csv(rows, cols);
  return table(rows, options.timeZone, cols);
}

/** `--columns a,b,c` as a list of names. */
export function parseColumns(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(',').map((n) => n.trim());
  if (names.some((n) => n === '')) {
    throw new UsageError(
      `Invalid --columns: ${JSON.stringify(value)}; expected column names separated by commas`,
    );
  }
  return names;
}

/** The columns `select` names, in its order; a name no row has is a usage error listing what there is. */
function selectColumns(all: readonly string[], select: readonly string[] | undefined): string[] {
  if (select === undefined || all.length === 0) return [...all];
  const out: string[] = [];
  for (const name of select) {
    const matched = all.filter((c) => c === name || c.startsWith(`${name}.`));
    if (matched.length === 0) {
      throw new UsageError(
        `Invalid --columns: ${JSON.stringify(name)} is not a column of this result; columns: ${all.join(', ')}`,
      );
    }
    for (const c of matched) if (!out.includes(c)) out.push(c);
  }
  return out;
}

function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return stringifyJson(v);
}

function csv(rows: readonly Row[], cols: readonly string[]): string {
  const cell = (v: unknown) => {
    const s = scalarText(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [cols.map(cell).join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))];
  return rows.length === 0 ? '' : `${lines.join('\n')}\n`;
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
