import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { maskKey } from '../core/mask-key.js';
import { type OutputFormat, parquetItems, parseColumns, render, resolveOutputFormat } from './output.js';
import { writeParquet } from './parquet.js';
import { Progress } from './progress.js';
import { UsageError } from './usage-error.js';

/** Where a command writes and what it knows of its surroundings. */
export interface CliStreams {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly env: NodeJS.ProcessEnv;
}

/** The connection settings of the client commands. */
export interface Connection {
  /** Undefined: the client's own default (`MDQ_BASE_URL`, else the public service). */
  readonly baseUrl: string | undefined;
  /** Undefined: the client reads `MASSIVE_API_KEY`, then `POLYGON_API_KEY`. */
  readonly apiKey: string | undefined;
}

/**
 * Everything a command uses to talk to the user: standard output (results), standard error (notes,
 * progress), the output format and the connection. Every write goes through `redact`, so no key given
 * on the command line or in the environment reaches either stream.
 */
export class CliContext {
  readonly output: OutputFormat;
  /** Columns of tables and CSV (`--columns`); undefined: every column. */
  readonly select: readonly string[] | undefined;
  readonly quiet: boolean;
  /** Where results go (`--out`); undefined: standard output. */
  readonly outFile: string | undefined;
  readonly connection: Connection;
  readonly #secrets: string[];

  constructor(
    readonly streams: CliStreams,
    options: {
      output?: string | undefined;
      columns?: string | undefined;
      out?: string | undefined;
      quiet: boolean;
      baseUrl?: string | undefined;
      apiKey?: string | undefined;
    },
  ) {
    this.output = resolveOutputFormat(options.output, streams.stdout.isTTY === true);
    this.select = parseColumns(options.columns);
    this.quiet = options.quiet;
    if (options.out === '') throw new UsageError('Invalid --out: ""; expected a file path');
    this.outFile = options.out;
    // Checked before any request: nothing is fetched for an answer that cannot be written.
    if (this.output === 'parquet' && this.outFile === undefined && streams.stdout.isTTY === true) {
      throw new UsageError(
        'Invalid --output parquet: Parquet is binary and standard output is a terminal; give --out FILE or redirect the output',
      );
    }
    const env = streams.env;
    const apiKey = options.apiKey ?? env.MASSIVE_API_KEY ?? env.POLYGON_API_KEY;
    this.connection = { baseUrl: options.baseUrl ?? env.MDQ_BASE_URL, apiKey: apiKey || undefined };
    // Short strings would mangle ordinary output and are no secret worth hiding.
    this.#secrets = [options.apiKey, env.MASSIVE_API_KEY, env.POLYGON_API_KEY].filter(
      (s): s is string => typeof s === 'string' && s.length >= 4,
    );
  }

  /** Replaces every known key in `text` with `***`, as a whole token, so no word around it is cut. */
  redact(text: string): string {
    let out = text;
    for (const s of this.#secrets) out = maskKey(out, s, '***');
    return out;
  }

  /** Writes results to standard output. */
  out(text: string): void {
    this.streams.stdout.write(this.redact(text));
  }

  /**
   * Writes a result in the chosen format (and columns), times in `timeZone`, to `--out` or standard
   * output. Parquet holds the items of the result (see `writeParquet`).
   */
  async print(value: unknown, timeZone: string): Promise<void> {
    if (this.output === 'parquet') return this.#printParquet(value);
    const text = render(value, this.output, { timeZone, columns: this.columns, select: this.select });
    if (this.outFile === undefined) this.out(text);
    else writeFileSync(this.outFile, this.redact(text));
  }

  async #printParquet(value: unknown): Promise<void> {
    if (this.outFile !== undefined) return writeParquet(parquetItems(value), this.outFile);
    // DuckDB writes files: a file of our own, then its bytes to standard output (a pipe or a file).
    const dir = mkdtempSync(join(tmpdir(), 'mdq-out-'));
    try {
      const file = join(dir, 'result.parquet');
      await writeParquet(parquetItems(value), file);
      await pipeline(createReadStream(file), this.streams.stdout, { end: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Writes a note line to standard error, unless `--quiet`. */
  note(line: string): void {
    if (!this.quiet) this.streams.stderr.write(this.redact(`${line}\n`));
  }

  /** Writes an error line to standard error (even with `--quiet`). */
  error(line: string): void {
    this.streams.stderr.write(this.redact(`${line}\n`));
  }

  /** True when progress bars are drawn: standard error is a terminal and `--quiet` was not given. */
  get showsProgress(): boolean {
    return !this.quiet && this.streams.stderr.isTTY === true;
  }

  /** A progress line on standard error; silent when {@link showsProgress} is false. */
  progress(label: string): Progress {
    return new Progress(label, this.showsProgress ? this.streams.stderr : undefined);
  }

  /** Width of the terminal standard output writes to (80 when unknown). */
  get columns(): number {
    const env = Number(this.streams.env.COLUMNS);
    return this.streams.stdout.columns ?? (Number.isInteger(env) && env > 20 ? env : 80);
  }
}
