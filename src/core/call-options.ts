/**
 * The option groups operations take besides their own parameters (SPEC 4.1), each declared once. The
 * option types below, the client's validation, the CLI's flags and the older interface's exclusions
 * derive from these declarations.
 */

import type { FullRangeProgress } from './full-range.js';
import { defineOptionGroup, type GroupOptions, o } from './option-group.js';

/** Options every operation takes. */
export const requestOptionGroup = defineOptionGroup({
  name: 'request',
  options: [
    {
      name: 'rawResponse',
      type: o.boolean(),
      default: false,
      doc: 'Return the HTTP response (a standard `Response`; on the sync client an object with status, headers and body) instead of the decoded JSON. Ignored when pagination or full range is active.',
    },
    {
      name: 'signal',
      type: o.signal(),
      doc: 'Cancels the request (and every page or chunk of it).',
    },
  ],
});

/** Pagination group (SPEC 4.1 P), on every operation that pages by `next_url`. */
export const paginationOptionGroup = defineOptionGroup({
  name: 'pagination',
  options: [
    {
      name: 'allPages',
      type: o.boolean(),
      default: false,
      cli: true,
      doc: 'Follow next_url and return every page.',
    },
    {
      name: 'maxPages',
      type: o.int(1, true),
      cli: true,
      doc: 'With allPages: most pages to fetch, the first included (1 is the first page only); unset or null for all.',
    },
    {
      name: 'mergeAllPages',
      type: o.boolean(),
      default: true,
      cli: true,
      doc: 'With allPages: one merged response (items of every page in order); false: the list of pages.',
    },
    {
      name: 'verbose',
      type: o.boolean(),
      default: false,
      doc: "Report each page fetched to the client's logger (standard error when none is set).",
    },
    {
      name: 'rawPageResponses',
      type: o.boolean(),
      default: false,
      doc: 'With allPages and mergeAllPages false: the raw responses instead of decoded pages.',
    },
    {
      name: 'maxItems',
      type: o.int(1, true),
      doc: 'Most items a walk over the items (for await) yields before it stops fetching; unset or null for no limit.',
    },
    {
      name: 'onPage',
      type: o.function<(progress: PageProgress) => void>(),
      doc: 'Called after each page fetched with allPages or by a walk over the items: pages and items so far.',
    },
  ],
});

/** Progress of a paged fetch, as `onPage` receives it. */
export interface PageProgress {
  /** Pages fetched so far, the first included. */
  pages: number;
  /** Items (results) on those pages. */
  items: number;
}

/** Full-range group (SPEC 4.1 A), on aggregate-bar operations. */
export const fullRangeOptionGroup = defineOptionGroup({
  name: 'full-range',
  options: [
    {
      name: 'fullRange',
      type: o.boolean(),
      default: false,
      cli: true,
      doc: 'Fetch the whole range in chunks (no 50000-bar cap) and return one list of bars.',
    },
    {
      name: 'runParallel',
      type: o.boolean(),
      default: true,
      cli: true,
      doc: 'Fetch chunks concurrently (else one after another).',
    },
    {
      name: 'maxConcurrentWorkers',
      type: o.int(1),
      default: 10,
      cli: true,
      doc: 'Most chunks in flight with runParallel.',
    },
    {
      name: 'warnings',
      type: o.boolean(),
      default: true,
      doc: "Report failures and anomalies to the client's logger (standard error when none is set).",
    },
    {
      name: 'info',
      type: o.boolean(),
      default: true,
      doc: "Report informational messages (a chunk with no data) to the client's logger (standard error when none is set).",
    },
    {
      name: 'highVolatility',
      type: o.boolean(),
      default: false,
      cli: true,
      doc: 'Smaller chunks, for heavily traded symbols.',
    },
    {
      name: 'columnar',
      type: o.boolean(),
      default: false,
      cli: true,
      doc: 'With fullRange: return the bars as columns (one Float64Array per field: t o h l c v vw n, plus length) instead of bar objects; far less memory for long ranges. A field a bar lacks is NaN.',
    },
    {
      name: 'onProgress',
      type: o.function<(progress: FullRangeProgress) => void>(),
      doc: 'Called after each chunk: chunks done, chunks in all, bars so far.',
    },
  ],
});

/** Options every operation takes: see {@link requestOptionGroup}. */
export type RequestOptions = GroupOptions<typeof requestOptionGroup>;

/** Pagination group (SPEC 4.1 P): see {@link paginationOptionGroup}. */
export type PaginationOptions = GroupOptions<typeof paginationOptionGroup>;

/** Full-range group (SPEC 4.1 A): see {@link fullRangeOptionGroup}. */
export type FullRangeOptions = GroupOptions<typeof fullRangeOptionGroup>;
