/**
 * The older client shape (SPEC 9.2), for code ported from it: one class per asset class taking
 * `useAsync`; async operations carry the `async` prefix (`asyncGetTrades`); pages are fetched by URL
 * with `getNextPageByUrl` / `asyncGetNextPageByUrl`; the async close is `asyncClose`;
 * `getSnapshotAll` requires `symbols`; aggregates take no full-range parameters.
 *
 * Nothing is declared again here: each class is built from an asset-class operation table (the same
 * declarations the current clients use) and calls the current client, so validation, requests and
 * results are identical. What the older shape did not have is left out: the indicators, the
 * full-range operation and the full-range options.
 */

import type { SyncValue } from '../clients/sync-client.js';
import { fullRangeOptionGroup } from '../core/call-options.js';
import type { BaseClient, CallOptions, RequestOptions } from '../core/client.js';
import type { ClientOptions } from '../core/client-options.js';
import { InvalidParameterError, MdqError } from '../core/errors.js';
import type { OperationSpec } from '../core/operation.js';
import { type GroupKey, groupKeys } from '../core/option-group.js';

/** The indicators came with the newer shape. */
const NEWER_OPERATIONS = new Set(['getSma', 'getEma', 'getRsi', 'getMacd']);

/** The full-range options, which the older aggregates do not take. */
const FULL_RANGE_OPTIONS = groupKeys(fullRangeOptionGroup);

type FullRangeKey = GroupKey<typeof fullRangeOptionGroup>;

/** Construction options of an older-shape client: the current client options, without `useAsync`. */
export type LegacyClientOptions = Omit<ClientOptions, 'useAsync'>;

/** An operation of the older shape, as the caller sees it. */
type Operation<F> = F extends (...args: infer A) => infer R ? { args: A; result: Awaited<R> } : never;

type LegacyArgs<K, A extends unknown[]> = K extends 'getSnapshotAll'
  ? [symbols: readonly string[] | string, options?: Omit<NonNullable<A[0]>, 'symbols'>]
  : K extends 'getAggregateBars'
    ? A extends [infer S, infer F, infer T, (infer O)?]
      ? [symbol: S, fromDate: F, toDate: T, options?: Omit<NonNullable<O>, FullRangeKey>]
      : A
    : A;

/** The older shape's result of an operation: the decoded response (a full-range list never). */
type LegacyResult<K, R> = K extends 'getAggregateBars' ? Exclude<R, unknown[]> : R;

/** The operation names of an async client that the older shape keeps. */
export type LegacyOperationName<C, Ops> = Exclude<
  Extract<keyof Ops, string> & keyof C,
  'getSma' | 'getEma' | 'getRsi' | 'getMacd' | 'getFullRangeAggregateBars'
>;

/** The methods of an older-shape client over the async client `C` and its operation table `Ops`. */
export type LegacyMethods<C, Ops> = {
  [K in LegacyOperationName<C, Ops>]: (
    ...args: LegacyArgs<K, Operation<C[K]>['args']>
  ) => SyncValue<LegacyResult<K, Operation<C[K]>['result']>>;
} & {
  [K in LegacyOperationName<C, Ops> as `async${Capitalize<K>}`]: (
    ...args: LegacyArgs<K, Operation<C[K]>['args']>
  ) => Promise<LegacyResult<K, Operation<C[K]>['result']>>;
};

/** What every older-shape client has besides its operations. */
export interface LegacyClientBase {
  /** Whether the client was created for the `async` operations. */
  readonly useAsync: boolean;
  /** Fetches a page by its `next_url` (synchronous client). */
  getNextPageByUrl(url: string, options?: Omit<RequestOptions, 'signal'>): any;
  /** Fetches a page by its `next_url` (asynchronous client). */
  asyncGetNextPageByUrl(url: string, options?: RequestOptions): Promise<any>;
  /** Releases the connections of the synchronous client. */
  close(): void;
  /** Releases the connections of the asynchronous client. */
  asyncClose(): Promise<void>;
}

/** An older-shape client class: `new StocksClient(apiKey, useAsync, options)`. */
export interface LegacyClientClass<C, Ops> {
  /**
   * @param apiKey - falls back to `MASSIVE_API_KEY`, then `POLYGON_API_KEY`.
   * @param useAsync - `true`: the `async…` operations; `false`: the synchronous ones.
   * @default useAsync false
   */
  new (
    apiKey?: string | null,
    useAsync?: boolean,
    options?: LegacyClientOptions,
  ): LegacyClientBase & LegacyMethods<C, Ops>;
  /** The operation names this class has (without the `async` prefix). */
  readonly operations: readonly string[];
}

/** The current client factory an older-shape class is built on. */
type Factory = (apiKey: string | undefined | null, options: ClientOptions) => unknown;
type AnyClient = Record<string, (...args: unknown[]) => any>;

/**
 * Builds the older-shape class of an asset class from its operation table and its current client
 * factory (`StocksClient`).
 */
export function legacyClientClass<C extends BaseClient, Ops extends Readonly<Record<string, OperationSpec>>>(
  className: string,
  factory: Factory,
  operations: Ops,
): LegacyClientClass<C, Ops> {
  const names = Object.keys(operations).filter((name) => !NEWER_OPERATIONS.has(name));

  class Legacy {
    static readonly operations: readonly string[] = names;
    readonly useAsync: boolean;
    readonly #client: AnyClient;
    #closed = false;

    constructor(apiKey?: string | null, useAsync = false, options: LegacyClientOptions = {}) {
      if (typeof useAsync !== 'boolean') {
        throw new InvalidParameterError('useAsync', useAsync, 'expected true or false');
      }
      if (options !== undefined && (typeof options !== 'object' || options === null)) {
        throw new InvalidParameterError('options', options, 'expected an options object');
      }
      this.useAsync = useAsync;
      this.#client = factory(apiKey, { ...options, useAsync }) as AnyClient;
    }

    /** The current client, checked to be of the kind the operation needs. */
    #use(wantsAsync: boolean, method: string): AnyClient {
      if (wantsAsync !== this.useAsync) {
        const other = wantsAsync ? 'true' : 'false';
        throw new MdqError(
          `${className}.${method} needs a client created with useAsync ${other}; this one was created with useAsync ${String(this.useAsync)}`,
        );
      }
      if (this.#closed) throw new MdqError(`This ${className} is closed`);
      return this.#client;
    }

    getNextPageByUrl(url: string, options?: RequestOptions): unknown {
      return this.#use(false, 'getNextPageByUrl').getPageByUrl?.(url, options);
    }

    asyncGetNextPageByUrl(url: string, options?: RequestOptions): Promise<unknown> {
      return (async () => this.#use(true, 'asyncGetNextPageByUrl').getPageByUrl?.(url, options))();
    }

    close(): void {
      const client = this.#use(false, 'close');
      this.#closed = true;
      client.close?.();
    }

    async asyncClose(): Promise<void> {
      const client = this.#use(true, 'asyncClose');
      this.#closed = true;
      await client.close?.();
    }

    // The operations are defined here, inside the class, so that they reach its private members.
    static {
      for (const name of names) {
        const op = operations[name] as OperationSpec;
        const adapt = argumentAdapter(className, name, op);
        const asyncName = `async${name[0]?.toUpperCase()}${name.slice(1)}`;
        Object.defineProperty(Legacy.prototype, name, {
          value(this: Legacy, ...args: unknown[]) {
            return this.#use(false, name)[name]?.(...adapt(args));
          },
          writable: true,
          configurable: true,
        });
        Object.defineProperty(Legacy.prototype, asyncName, {
          value(this: Legacy, ...args: unknown[]) {
            // A bad argument rejects the promise, as an async operation of the older shape did.
            return (async () => this.#use(true, asyncName)[name]?.(...adapt(args)))();
          },
          writable: true,
          configurable: true,
        });
      }
    }
  }
  Object.defineProperty(Legacy, 'name', { value: className });
  return Legacy as unknown as LegacyClientClass<C, Ops>;
}

/** Turns the older shape's arguments of an operation into the current client's. */
function argumentAdapter(className: string, name: string, op: OperationSpec): (args: unknown[]) => unknown[] {
  if (name === 'getSnapshotAll') {
    return (args) => {
      const [symbols, options, ...rest] = args;
      if (symbols === undefined || symbols === null) {
        throw new InvalidParameterError(
          'symbols',
          symbols,
          `${className}.getSnapshotAll requires symbols: a list of tickers (or one comma separated string)`,
        );
      }
      if (options !== undefined && (typeof options !== 'object' || options === null)) {
        throw new InvalidParameterError(
          'options',
          options,
          `the last argument of getSnapshotAll must be an options object`,
        );
      }
      if (options && 'symbols' in options) {
        throw new InvalidParameterError(
          'symbols',
          (options as { symbols: unknown }).symbols,
          'give symbols once, as the first argument',
        );
      }
      return [{ ...(options as object | undefined), symbols }, ...rest];
    };
  }
  if (op.fullRange) {
    const positional = op.params.filter((p) => p.required).length;
    return (args) => {
      const options = args[positional];
      if (options && typeof options === 'object') {
        for (const key of FULL_RANGE_OPTIONS) {
          if (key in options) {
            throw new InvalidParameterError(
              key,
              (options as Record<string, unknown>)[key],
              `${className}.${name} of the older client shape takes no full-range options; use the current client (mdq) for full-range bars`,
            );
          }
        }
      }
      return args;
    };
  }
  return (args) => args;
}

/** Options of an operation in the older shape: its parameters and request options (no full range). */
export type LegacyCallOptions<O extends OperationSpec> = Omit<CallOptions<O>, FullRangeKey>;
