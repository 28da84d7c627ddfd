/** Loading market data into the server's store: Lean data folders and the provider's flat files. */
export { type FlatFileLayout, type FlatFileOptions, ingestFlatFiles } from './flatfiles.js';
export { formatLocation, IngestError, type IngestLocation, isIngestError } from './ingest-error.js';
export { ingestLean, type LeanLayout, leanLayout } from './lean.js';
export type { IngestOptions, IngestProgress, IngestSummary, PassedOver } from './run-jobs.js';
export type { RowCounts } from './staging.js';
