import type { IngestProgress, IngestSummary } from '../../server/ingest/index.js';
import { JSON_KINDS, type JsonKind } from '../../server/ingest/json-kinds.js';
import { defaultDbPath } from '../../server/store/default-db-path.js';
import type { DuckDbStore } from '../../server/store/duckdb-store.js';
import { type CommandDef, flagOption, type OptionDef } from '../command.js';
import type { CliContext } from '../context.js';
import { printValue } from '../print-value.js';
import { UsageError } from '../usage-error.js';

const dbOption: OptionDef = {
  name: 'db',
  type: 'path',
  default: '$MDQ_DB, else ~/.local/share/mdq/mdq.duckdb',
  doc: 'Database file to write.',
};
const continueOption: OptionDef = {
  name: 'continue-on-error',
  type: 'flag',
  flag: true,
  default: 'false',
  doc: 'Go on after a malformed file (listed in the summary).',
};

/**
 * Runs an ingest into an open store with a progress bar (files, rows, rate) on a terminal, then notes
 * what was loaded. The store stays open.
 */
export async function ingestWithProgress(
  ctx: CliContext,
  _store: DuckDbStore,
  path: string,
  work: (onProgress: (p: IngestProgress) => void) => Promise<IngestSummary>,
): Promise<IngestSummary> {
  const progress = ctx.progress('ingest');
  try {
    const summary = await work(progress.ingest.bind(progress));
    progress.done();
    for (const { path, reason } of summary.passedOver) ctx.note(`passed over ${path}: ${reason}`);
    const rows = Object.values(summary.rows).reduce((a, b) => a + b, 0);
    ctx.note(
      `ingested ${summary.filesIngested} files (${summary.filesSkipped} already in the store, ${summary.filesFailed} failed), ${rows.toLocaleString('en-US')} rows in ${(summary.elapsedMs / 1000).toFixed(1)}s into ${path}`,
    );
    return summary;
  } finally {
    progress.done();
  }
}

async function runIngest(
  ctx: CliContext,
  db: string | undefined,
  work: (
    store: DuckDbStore,
    onProgress: (p: IngestProgress) => void,
    signal: AbortSignal,
  ) => Promise<IngestSummary>,
): Promise<void> {
  const path = db ?? defaultDbPath(ctx.streams.env);
  // Loaded on demand, so that commands that need no DuckDB do not load it.
  const { DuckDbStore } = await import('../../server/store/duckdb-store.js');
  const store = await DuckDbStore.open(path);
  // Ctrl-C or SIGTERM stops after the current file (what was committed stays) and removes the staging
  // folder; a second one ends the process at once (the folder is still removed on exit).
  const interrupted = new AbortController();
  const stop = () => {
    if (interrupted.signal.aborted) process.exit(130);
    ctx.note('stopping after the current file (again to stop now)');
    interrupted.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const summary = await ingestWithProgress(ctx, store, path, (onProgress) =>
      work(store, onProgress, interrupted.signal),
    );
    await printValue(ctx, {
      db: path,
      filesSeen: summary.filesSeen,
      filesIngested: summary.filesIngested,
      filesSkipped: summary.filesSkipped,
      filesFailed: summary.filesFailed,
      unrecognised: summary.unrecognised.length,
      passedOver: summary.passedOver.map((p) => `${p.path}: ${p.reason}`),
      ...Object.fromEntries(Object.entries(summary.rows).map(([k, v]) => [`rows.${k}`, v])),
      errors: summary.errors.map((e) => e.message),
      elapsedMs: Math.round(summary.elapsedMs),
    });
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    store.close();
  }
}

/** `mdq ingest lean|flatfiles|json`. */
export const ingestCommands: readonly CommandDef[] = [
  {
    path: 'ingest lean',
    summary: 'Load a QuantConnect Lean data folder into the store (idempotent by file content).',
    args: [{ name: 'dir', type: 'path', doc: 'Lean data root, or a folder holding one as lean/.' }],
    options: [dbOption, continueOption],
    async run(ctx, input) {
      const continueOnError = flagOption(input, 'continue-on-error');
      const { ingestLean } = await import('../../server/ingest/index.js');
      await runIngest(ctx, input.options.get('db'), (store, onProgress, signal) =>
        ingestLean(store, input.args[0] as string, { onProgress, continueOnError, signal }),
      );
    },
  },
  {
    path: 'ingest flatfiles',
    summary: "Load the provider's flat files (CSV or CSV.GZ: day/minute aggregates, trades, quotes).",
    args: [{ name: 'files', type: 'path', doc: 'One or more files.', variadic: true }],
    options: [
      dbOption,
      continueOption,
      {
        name: 'resolution',
        type: 'day|minute',
        doc: 'Resolution of aggregate files.',
        default: 'from the path',
      },
    ],
    async run(ctx, input) {
      if (input.args.length === 0)
        throw new UsageError('Missing argument <files...> of mdq ingest flatfiles');
      const resolution = input.options.get('resolution');
      if (resolution !== undefined && resolution !== 'day' && resolution !== 'minute') {
        throw new UsageError(`Invalid --resolution: ${JSON.stringify(resolution)}; allowed: day, minute`);
      }
      const continueOnError = flagOption(input, 'continue-on-error');
      const { ingestFlatFiles } = await import('../../server/ingest/index.js');
      await runIngest(ctx, input.options.get('db'), (store, onProgress, signal) =>
        ingestFlatFiles(store, input.args, {
          onProgress,
          signal,
          continueOnError,
          ...(resolution && { resolution }),
        }),
      );
    },
  },
  {
    path: 'ingest json',
    summary:
      'Load saved API responses of reference data (dividends, news, financials, ticker details, splits…) so the server answers them.',
    args: [
      {
        name: 'files',
        type: 'path',
        doc: 'JSON files: a response body, a list of pages or of records, or ndjson (as --output json/ndjson writes).',
        variadic: true,
      },
    ],
    options: [
      dbOption,
      continueOption,
      {
        name: 'kind',
        type: JSON_KINDS.join('|'),
        doc: 'Kind of the records.',
        default: 'from the content',
      },
    ],
    async run(ctx, input) {
      if (input.args.length === 0) throw new UsageError('Missing argument <files...> of mdq ingest json');
      const kind = input.options.get('kind');
      if (kind !== undefined && !(JSON_KINDS as readonly string[]).includes(kind)) {
        throw new UsageError(`Invalid --kind: ${JSON.stringify(kind)}; allowed: ${JSON_KINDS.join(', ')}`);
      }
      const continueOnError = flagOption(input, 'continue-on-error');
      const { ingestJson } = await import('../../server/ingest/index.js');
      await runIngest(ctx, input.options.get('db'), (store, onProgress) =>
        ingestJson(store, input.args, {
          onProgress,
          continueOnError,
          ...(kind !== undefined && { kind: kind as JsonKind }),
        }),
      );
    },
  },
];
