/**
 * Loading market data into the server's store: Lean data folders, the provider's flat files, and saved
 * API responses of reference data.
 */
export { type FlatFileLayout, type FlatFileOptions, ingestFlatFiles } from './flatfiles.js';
export { formatLocation, IngestError, type IngestLocation, isIngestError } from './ingest-error.js';
export {
  ingestJson,
  JSON_KINDS,
  type JsonIngestOptions,
  type JsonIngestSummary,
  type JsonKind,
} from './json.js';
export { ingestLean, type LeanLayout, leanLayout } from './lean.js';
export type { IngestOptions, IngestProgress, IngestSummary, PassedOver } from './run-jobs.js';
export type { RowCounts } from './staging.js';
