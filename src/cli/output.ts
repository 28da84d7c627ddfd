import { BAR_COLUMN_FIELDS, barsOfColumns, isBarColumns } from '../core/bar-columns.js';
import { stringifyJson } from '../core/json.js';
import { columnsOf, itemsOf, type Row, rowsOf } from '../table/rows.js';
import { scalarText, table } from '../table/table.js';
import { UsageError } from './usage-error.js';

/** The output formats of `--output`. */
export const OUTPUT_FORMATS = ['table', 'json', 'csv', 'ndjson', 'parquet'] as const;
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
  if (format === 'parquet') throw new Error('Parquet is binary: written by writeParquet, not rendered');
  if (format === 'json') return `${stringifyJson(plainColumns(value), 2)}\n`;
  // Columnar bars are printed as the bars they hold in every format but JSON.
  if (isBarColumns(value)) return render([...barsOfColumns(value)], format, options);
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

/** Columnar bars as JSON can hold them: `length` and one array per field (`NaN` as `null`). */
function plainColumns(value: unknown): unknown {
  if (!isBarColumns(value)) return value;
  const out: Record<string, unknown> = { length: value.length };
  for (const field of BAR_COLUMN_FIELDS) {
    out[field] = Array.from(value[field], (v) => (Number.isNaN(v) ? null : v));
  }
  return out;
}

/** The items of a result as Parquet rows: bars for columnar bars, else the items tables show. */
export function parquetItems(value: unknown): Iterable<unknown> {
  return isBarColumns(value) ? barsOfColumns(value) : itemsOf(value);
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

function csv(rows: readonly Row[], cols: readonly string[]): string {
  const cell = (v: unknown) => {
    const s = scalarText(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [cols.map(cell).join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))];
  return rows.length === 0 ? '' : `${lines.join('\n')}\n`;
}
