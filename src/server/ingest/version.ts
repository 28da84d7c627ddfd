/**
 * Version of what ingest writes. Bump it whenever a change alters the rows ingest produces, so stores
 * built by an earlier version (the test store in particular) are rebuilt.
 */
export const INGEST_VERSION = 2;
