import type { FullRangeProgress } from '../core/full-range.js';
import type { IngestProgress } from '../server/ingest/index.js';

/** A progress line the demo feeds: chunks of a full-range fetch, files of an ingest. */
export interface DemoProgress {
  fullRange(progress: FullRangeProgress): void;
  ingest(progress: IngestProgress): void;
  /** Ends the line; later calls do nothing. */
  done(): void;
}

/**
 * Where the demo writes. Its host provides it (`mdq demo` passes its command-line context), so the
 * demo depends on nothing of the command line.
 */
export interface DemoConsole {
  /** Writes to standard output. */
  out(text: string): void;
  /** Writes a note line to standard error (unless quiet). */
  note(line: string): void;
  /** A progress line on standard error (drawn only on a terminal). */
  progress(label: string): DemoProgress;
  /** Width of the terminal standard output writes to. */
  readonly columns: number;
  readonly streams: { readonly stdout: { readonly isTTY?: boolean }; readonly env: NodeJS.ProcessEnv };
}
