import { createHash } from 'node:crypto';
import { createReadStream, type Stats, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { AbortError } from '../../core/errors.js';
import type { DuckDbStore } from '../store/duckdb-store.js';
import { IngestError, isIngestError } from './ingest-error.js';
import { emptyCounts, INGEST_TABLES, type RowCounts, type RowSink, Staging } from './staging.js';

/** Progress after each file, for a progress bar. */
export interface IngestProgress {
  /** Files finished (ingested, skipped or failed). */
  filesDone: number;
  /** Files this run looks at. */
  filesTotal: number;
  /** The file just finished. */
  file: string;
  /** Rows written so far, over all tables. */
  rows: number;
}

/** Options of `ingestLean` and `ingestFlatFiles`. */
export interface IngestOptions {
  /** Called after each file. */
  onProgress?: (progress: IngestProgress) => void;
  /** Stops between files; what was committed stays, the current file is not written. */
  signal?: AbortSignal;
  /**
   * Go on with the next file after a malformed one (its error is listed in the summary) instead of
   * throwing.
   * @default false
   */
  continueOnError?: boolean;
}

/** What an ingest run did. */
export interface IngestSummary {
  /** Files looked at (recognised ones). */
  filesSeen: number;
  /** Files written now. */
  filesIngested: number;
  /** Files skipped because the store already holds their content. */
  filesSkipped: number;
  /** Files that failed (only with `continueOnError`). */
  filesFailed: number;
  /** Files found under the folder that ingest does not read. */
  unrecognised: string[];
  /**
   * Paths passed over, with why: not regular files (a FIFO, a socket, a device), or gone before they
   * were read.
   */
  passedOver: PassedOver[];
  /** Errors of failed files (only with `continueOnError`). */
  errors: IngestError[];
  /** Rows written per table. */
  rows: RowCounts;
  /** Wall time of the run in ms. */
  elapsedMs: number;
}

/** A path ingest did not read, and why. */
export interface PassedOver {
  path: string;
  reason: string;
}

/**
 * Why `path` cannot be read as a file: it is gone, or not a regular file (reading a FIFO would wait
 * for a writer forever); undefined for a regular file.
 */
export function notAFile(path: string): string | undefined {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'it is gone (removed while ingest ran)';
    return `it cannot be examined (${(e as Error).message})`;
  }
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'it is a folder';
  return 'it is not a regular file (a FIFO, socket or device)';
}

/** One file to ingest: how to name it and how to parse its bytes. */
export interface IngestJob {
  /** The file's path, as reported in errors and stored in `ingested_files`. */
  path: string;
  /** A short label of the layout (`lean:trade-ticks`, `flatfiles:trades`), stored with the file. */
  kind: string;
  /** Parses the content into `sink`; throws `IngestError` when malformed. */
  parse(bytes: Uint8Array | undefined, sink: RowSink): void;
  /**
   * The file may be too large to hold in memory: it is hashed as a stream and `parse` gets no bytes
   * (it reads the file itself).
   */
  streamed?: boolean;
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Ingests each job's file in its own transaction, skipping content already ingested (by sha256).
 */
export async function runIngestJobs(
  store: DuckDbStore,
  jobs: readonly IngestJob[],
  unrecognised: string[],
  options: IngestOptions,
  passedOver: PassedOver[] = [],
): Promise<IngestSummary> {
  const started = performance.now();
  const summary: IngestSummary = {
    filesSeen: jobs.length,
    filesIngested: 0,
    filesSkipped: 0,
    filesFailed: 0,
    unrecognised,
    passedOver,
    errors: [],
    rows: emptyCounts(),
    elapsedMs: 0,
  };
  let rows = 0;
  const staging = await Staging.create(store);
  // DuckDB folds its write-ahead log into the database file whenever the log passes a threshold
  // (16 MiB by default), which a bulk load would otherwise do dozens of times; one fold at the end.
  const [setting] = await store.all<{ v: string }>("SELECT current_setting('checkpoint_threshold') AS v");
  await store.run("SET checkpoint_threshold = '1GB'");
  try {
    for (const [i, job] of jobs.entries()) {
      if (options.signal?.aborted)
        throw new AbortError('ingest was cancelled', { cause: options.signal.reason });
      const reason = notAFile(job.path);
      if (reason !== undefined) {
        passedOver.push({ path: job.path, reason });
        options.onProgress?.({ filesDone: i + 1, filesTotal: jobs.length, file: job.path, rows });
        continue;
      }
      let bytes: Uint8Array | undefined;
      let sha256: string;
      try {
        if (job.streamed) sha256 = await hashFile(job.path);
        else {
          bytes = await readFile(job.path);
          sha256 = createHash('sha256').update(bytes).digest('hex');
        }
      } catch (e) {
        const error = new IngestError({ file: job.path }, `cannot read the file (${(e as Error).message})`, {
          cause: e,
        });
        if (!options.continueOnError) throw error;
        summary.filesFailed++;
        summary.errors.push(error);
        options.onProgress?.({ filesDone: i + 1, filesTotal: jobs.length, file: job.path, rows });
        continue;
      }
      const seen = await store.all('SELECT 1 FROM ingested_files WHERE sha256 = $1', [sha256]);
      if (seen.length > 0) {
        summary.filesSkipped++;
      } else {
        try {
          try {
            job.parse(bytes, staging);
          } catch (e) {
            await staging.discard();
            throw isIngestError(e)
              ? e
              : new IngestError({ file: job.path }, `cannot be read (${(e as Error).message})`, { cause: e });
          }
          let counts: Awaited<ReturnType<Staging['commit']>>;
          try {
            counts = await staging.commit({ sha256, path: job.path, kind: job.kind });
          } catch (e) {
            // Checks name what is wrong with a file; a value they let through and the store refuses
            // is still that file's problem, reported as such (the transaction wrote nothing).
            if (isIngestError(e) || options.signal?.aborted) throw e;
            const first = ((e as Error).message ?? String(e)).split('\n')[0];
            throw new IngestError({ file: job.path }, `holds a value the store cannot take (${first})`, {
              cause: e,
            });
          }
          for (const table of INGEST_TABLES) {
            summary.rows[table] += counts[table];
            rows += counts[table];
          }
          summary.filesIngested++;
        } catch (e) {
          if (!options.continueOnError || !isIngestError(e)) throw e;
          summary.filesFailed++;
          summary.errors.push(e);
        }
      }
      options.onProgress?.({ filesDone: i + 1, filesTotal: jobs.length, file: job.path, rows });
    }
  } finally {
    await store.run(`SET checkpoint_threshold = '${(setting?.v ?? '16MiB').replaceAll("'", '')}'`);
    if (summary.filesIngested > 0) await store.run('CHECKPOINT');
    staging.close();
    summary.elapsedMs = Math.round(performance.now() - started);
  }
  return summary;
}
