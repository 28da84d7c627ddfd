import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestProgress, IngestSummary } from '../../server/ingest/index.js';
import { JSON_KIND_FIELDS, JSON_KINDS, type JsonKind } from '../../server/ingest/json-kinds.js';
import { defaultDbPath } from '../../server/store/default-db-path.js';
import type { DuckDbStore } from '../../server/store/duckdb-store.js';
import { type CommandDef, flagOption, type OptionDef } from '../command.js';
import type { CliContext } from '../context.js';
import { openWritableStore } from '../open-writable-store.js';
import { printValue } from '../print-value.js';
import { UsageError } from '../usage-error.js';

const dbOption: OptionDef = {
  name: 'db',
  type: 'path',
  default: '$MDQ_DB, else ~/.local/share/mdq/mdq.duckdb',
  doc: 'Database file to write.',
};
const storeOption: OptionDef = {
  name: 'store',
  type: 'duckdb:PATH|clickhouse://user:pass@host:8123/db',
  default: 'duckdb: and --db',
  doc: 'Store to write; a ClickHouse one gets its tables created when missing.',
};
const clusterOption: OptionDef = {
  name: 'cluster',
  type: 'name',
  default: 'none',
  doc: 'With a clickhouse:// store: write the cluster of this name (local shards ON CLUSTER and Distributed tables; each server reached over HTTP at its host, on the port of the store URL).',
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

/** Where `--store` (else `--db`) points: a DuckDB file, or a ClickHouse server with its cluster. */
type IngestTarget = { db: string } | { clickhouse: string; cluster?: string };

function ingestTarget(ctx: CliContext, options: ReadonlyMap<string, string>): IngestTarget {
  const store = options.get('store');
  const cluster = options.get('cluster');
  if (store?.startsWith('clickhouse:'))
    return { clickhouse: store, ...(cluster !== undefined && { cluster }) };
  if (cluster !== undefined) {
    throw new UsageError(
      `Invalid --cluster: ${JSON.stringify(cluster)}; only a clickhouse:// --store has clusters`,
    );
  }
  if (store === undefined) return { db: options.get('db') ?? defaultDbPath(ctx.streams.env) };
  if (!store.startsWith('duckdb:') || store.length === 'duckdb:'.length) {
    throw new UsageError(
      `Invalid --store: ${JSON.stringify(store)}; expected duckdb:PATH or clickhouse://user:password@host:8123/database`,
    );
  }
  return { db: store.slice('duckdb:'.length) };
}

/**
 * Runs an ingest into the target. A ClickHouse target is written in two steps: the files are ingested
 * into a scratch DuckDB file by the same code as ever, then published (`publishToClickHouse`: atomic,
 * idempotent partition swaps), and the scratch file removed.
 */
/**
 * The row counts a summary lists: of every table (`all`: Lean and flat files fill the same tables), or
 * only of the tables written (`written`: saved responses fill one or two of many).
 */
type RowsShown = 'all' | 'written';

async function runIngest(
  ctx: CliContext,
  target: IngestTarget,
  work: (
    store: DuckDbStore,
    onProgress: (p: IngestProgress) => void,
    signal: AbortSignal,
  ) => Promise<IngestSummary>,
  shown: RowsShown = 'all',
): Promise<void> {
  if ('db' in target) return runDuckDbIngest(ctx, target.db, work, shown);
  const { ClickHouseStore } = await import('../../server/store/clickhouse-store.js');
  const { publishToClickHouse } = await import('../../server/store/clickhouse-publish.js');
  const clickhouse = await ClickHouseStore.open(target.clickhouse, {
    ...(target.cluster !== undefined && { cluster: target.cluster }),
  });
  const scratch = mkdtempSync(join(tmpdir(), 'mdq-ingest-'));
  try {
    const staged = join(scratch, 'staged.duckdb');
    await runDuckDbIngest(ctx, staged, work, shown, clickhouse.location);
    const { DuckDbStore } = await import('../../server/store/duckdb-store.js');
    const store = await DuckDbStore.open(staged);
    try {
      const started = performance.now();
      const rows = await publishToClickHouse(store, clickhouse);
      const total = Object.values(rows).reduce((a, b) => a + b, 0);
      ctx.note(
        `published ${total.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(1)}s to ${clickhouse.location}`,
      );
    } finally {
      store.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await clickhouse.close();
  }
}

async function runDuckDbIngest(
  ctx: CliContext,
  path: string,
  work: (
    store: DuckDbStore,
    onProgress: (p: IngestProgress) => void,
    signal: AbortSignal,
  ) => Promise<IngestSummary>,
  shown: RowsShown,
  /** The store named in the summary (the scratch file of a ClickHouse ingest is not). */
  shownAs = path,
): Promise<void> {
  const store = await openWritableStore(path);
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
    const summary = await ingestWithProgress(ctx, store, shownAs, (onProgress) =>
      work(store, onProgress, interrupted.signal),
    );
    await printValue(ctx, {
      db: shownAs,
      filesSeen: summary.filesSeen,
      filesIngested: summary.filesIngested,
      filesSkipped: summary.filesSkipped,
      filesFailed: summary.filesFailed,
      unrecognised: summary.unrecognised.length,
      passedOver: summary.passedOver.map((p) => `${p.path}: ${p.reason}`),
      ...Object.fromEntries(
        Object.entries(summary.rows)
          .filter(([, v]) => shown === 'all' || v > 0)
          .map(([k, v]) => [`rows.${k}`, v]),
      ),
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
    options: [dbOption, storeOption, clusterOption, continueOption],
    async run(ctx, input) {
      const continueOnError = flagOption(input, 'continue-on-error');
      const { ingestLean } = await import('../../server/ingest/index.js');
      await runIngest(ctx, ingestTarget(ctx, input.options), (store, onProgress, signal) =>
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
      storeOption,
      clusterOption,
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
      await runIngest(ctx, ingestTarget(ctx, input.options), (store, onProgress, signal) =>
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
      storeOption,
      clusterOption,
      continueOption,
      {
        name: 'kind',
        type: JSON_KINDS.join('|'),
        doc: `Kind of the records; a file with a record that lacks the fields of its kind is refused (${Object.entries(
          JSON_KIND_FIELDS,
        )
          .map(([k, fields]) => `${k}: ${fields.join(', ')}`)
          .join('; ')}).`,
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
      await runIngest(
        ctx,
        ingestTarget(ctx, input.options),
        (store, onProgress) =>
          ingestJson(store, input.args, {
            onProgress,
            continueOnError,
            ...(kind !== undefined && { kind: kind as JsonKind }),
          }),
        'written',
      );
    },
  },
];
