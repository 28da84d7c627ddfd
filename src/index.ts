/**
 * mdq: market data query. Typed sync and async clients for the Polygon.io / Massive REST API, with
 * pagination, full-range aggregates, option symbol helpers and date helpers.
 */

export * from './clients/index.js';
export { BAR_COLUMN_FIELDS, type BarColumnField, type BarColumns } from './core/bar-columns.js';
export {
  type AnyPage,
  BaseClient,
  type Call,
  type CallOptions,
  type FullRangeOptions,
  type PagedCall,
  type PageProgress,
  type PaginationOptions,
  type RequestOptions,
  type Result,
  type ResultTypes,
} from './core/client.js';
export type { ClientOptions } from './core/client-options.js';
export * from './core/errors.js';
export { parseJson, stringifyJson } from './core/json.js';
export type { DateInput, OperationSpec, ParamSpec, ParamType } from './core/operation.js';
export { PagePromise } from './core/page-promise.js';
export { partialPagesOf } from './core/partial-pages.js';
export {
  isRateLimiter,
  type RateLimitClock,
  RateLimiter,
  type RateLimiterOptions,
  type RateLimitSpec,
} from './core/rate-limit.js';
export type { SyncRawResponse } from './core/sync/bridge.js';
export { VERSION } from './core/version.js';
export * from './dates/index.js';
export * from './operations/enums.js';
export { FUTURES_RESOLUTION, FUTURES_VERSIONS, type FuturesVersion } from './operations/futures.js';
export * from './stream/index.js';
export * from './symbols/index.js';
export type * from './types/common.js';
export type * from './types/futures.js';
export type * from './types/other.js';
export type * from './types/stocks.js';
