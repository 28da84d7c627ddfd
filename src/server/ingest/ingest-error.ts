import { MdqError } from '../../core/errors.js';

/** Where in the input a problem was found. */
export interface IngestLocation {
  /** The file as it was given (a path). */
  file: string;
  /** The entry inside a zip archive, when the file is one. */
  entry?: string;
  /** 1-based line number inside the file or entry, when the problem is one row. */
  line?: number;
}

/**
 * A file could not be ingested: unreadable, of an unknown layout, or with a malformed row. The message
 * starts with `file:line` (`archive.zip!entry.csv:line` for a zip entry). Nothing of that file was
 * written.
 */
export class IngestError extends MdqError {
  override readonly code: string = 'MDQ_INGEST_ERROR';
  override name = 'IngestError';
  /** The file as it was given. */
  readonly file: string;
  /** The zip entry, when the file is an archive. */
  readonly entry: string | undefined;
  /** 1-based line number of the bad row, when the problem is one row. */
  readonly line: number | undefined;
  /** The problem, without the location. */
  readonly reason: string;
  constructor(where: IngestLocation, reason: string, options?: { cause?: unknown }) {
    super(`${formatLocation(where)}: ${reason}`, options);
    this.file = where.file;
    this.entry = where.entry;
    this.line = where.line;
    this.reason = reason;
  }
}

/** `file`, `file!entry`, with `:line` when known. */
export function formatLocation(where: IngestLocation): string {
  const name = where.entry === undefined ? where.file : `${where.file}!${where.entry}`;
  return where.line === undefined ? name : `${name}:${where.line}`;
}

/** True for an `IngestError`, also across two loaded copies of mdq. */
export function isIngestError(e: unknown): e is IngestError {
  return e instanceof Error && (e as { code?: unknown }).code === 'MDQ_INGEST_ERROR';
}

/**
 * A problem with the row being parsed, thrown by parsers and row sinks; the line loop that reads the
 * row turns it into an `IngestError` with the file and line.
 */
export class RowProblem extends Error {
  override name = 'RowProblem';
}
