/**
 * Operation declarations: each remote operation is described once (name, path template, parameters,
 * paging) and the async client, the sync client, the CLI and the server's request validation all
 * derive from these descriptions.
 */

import type { DateInput } from '../dates/date-input.js';

export type { DateInput };

/** Ticker prefixes the service uses per asset class. */
export type TickerPrefix = 'O:' | 'C:' | 'X:' | 'I:';

/**
 * How a parameter's value is checked and written on the wire.
 *
 * - `ticker`: a symbol; `prefix` is added when missing (`O:`, `C:`, `X:`, `I:`).
 * - `pair`: one currency or crypto code of a `{from}/{to}` pair (`AUD`, `BTC`); upper-cased.
 * - `date`: a calendar date, sent as `YYYY-MM-DD`.
 * - `dateOrMs`: a date (sent as `YYYY-MM-DD`) or a Unix millisecond timestamp (sent as is).
 * - `nsTimestamp`: a date (sent as `YYYY-MM-DD`), a `Date` with a time (sent as ns), or a Unix
 *   nanosecond timestamp as `bigint` or integer `number`.
 * - `nsOffset`: a Unix nanosecond timestamp used as a paging offset (`bigint` or integer `number`).
 * - `msOffset`: a Unix millisecond timestamp used as a paging offset (a number or a string of digits).
 * - `string`: any non-empty string, or one matching `pattern` when declared.
 * - `list`: a list of strings (or one comma separated string), sent comma separated; with `values`, each
 *   item one of them (`.any_of` of an enumeration), else a ticker or code, upper-cased.
 */
export type ParamType =
  | {
      readonly kind: 'string';
      /** When set, the whole value must match it; `allowed` says in words what does. */
      readonly pattern?: RegExp;
      readonly allowed?: string;
    }
  | { readonly kind: 'ticker'; readonly prefix?: TickerPrefix }
  | { readonly kind: 'pair' }
  | { readonly kind: 'int'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'number'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'boolean' }
  | {
      readonly kind: 'enum';
      readonly values: readonly string[];
      readonly aliases?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'date' }
  | { readonly kind: 'dateOrMs' }
  | { readonly kind: 'nsTimestamp' }
  | { readonly kind: 'nsOffset' }
  | { readonly kind: 'msOffset' }
  | {
      readonly kind: 'list';
      readonly maxItems?: number;
      readonly prefix?: TickerPrefix;
      /** The values an item may take, exactly as written (an enumeration's `.any_of`). */
      readonly values?: readonly string[];
    };

/** One parameter of an operation. */
export interface ParamSpec {
  /** The name callers use: positional for required parameters, the option key otherwise (camelCase). */
  readonly name: string;
  /** The name on the wire: the `{placeholder}` of the path, or the query key (`timestamp.gte`). */
  readonly wire: string;
  /** `client`: accepted for compatibility but never sent (the endpoint does not take it). */
  readonly in: 'path' | 'query' | 'client';
  readonly type: ParamType;
  /** Required parameters are positional, in declaration order. */
  readonly required?: boolean;
  /** Sent when the caller gives no value. Absent: nothing is sent and the service's default applies. */
  readonly default?: string | number | boolean;
  /** One line for TSDoc, `--help` and error messages. */
  readonly doc: string;
}

/** How an operation pages through results. */
export type Paging = 'next_url' | 'offset' | 'none';

/** One remote operation. */
export interface OperationSpec {
  /** Method name on the client (camelCase of the SPEC name). */
  readonly name: string;
  /** Path template with `{wire}` placeholders, e.g. `/v3/trades/{ticker}`. */
  readonly path: string;
  readonly params: readonly ParamSpec[];
  readonly paging: Paging;
  /** Aggregate-bar operations accept the full-range options. */
  readonly fullRange?: boolean;
  /** Pairs of parameters whose values must be in order (`fromDate` not after `toDate`). */
  readonly ordered?: readonly (readonly [string, string])[];
  readonly doc: string;
}

/** Keeps literal types so that option types can be derived from the declaration. */
export function defineOperation<const O extends OperationSpec>(op: O): O {
  return op;
}

/** Shorthands for declaring parameters. */
export const t = {
  /** Any non-empty string, or one matching `pattern` (described by `allowed` in errors and `--help`). */
  string: (pattern?: RegExp, allowed?: string) =>
    (pattern
      ? { kind: 'string', pattern, allowed: allowed ?? `a value matching ${pattern}` }
      : { kind: 'string' }) as {
      readonly kind: 'string';
      readonly pattern?: RegExp;
      readonly allowed?: string;
    },
  ticker: (prefix?: TickerPrefix) =>
    (prefix ? { kind: 'ticker', prefix } : { kind: 'ticker' }) as {
      readonly kind: 'ticker';
      readonly prefix?: TickerPrefix;
    },
  pair: () => ({ kind: 'pair' }) as const,
  int: (min?: number, max?: number) =>
    ({ kind: 'int', ...(min !== undefined && { min }), ...(max !== undefined && { max }) }) as {
      readonly kind: 'int';
      readonly min?: number;
      readonly max?: number;
    },
  number: (min?: number, max?: number) =>
    ({ kind: 'number', ...(min !== undefined && { min }), ...(max !== undefined && { max }) }) as {
      readonly kind: 'number';
      readonly min?: number;
      readonly max?: number;
    },
  boolean: () => ({ kind: 'boolean' }) as const,
  /** An enumeration; `aliases` are extra accepted spellings mapped to a value (`min` → `minute`). */
  enum: <const V extends readonly string[], const A extends Readonly<Record<string, V[number]>> = {}>(
    values: V,
    aliases?: A,
  ) =>
    (aliases ? { kind: 'enum', values, aliases } : { kind: 'enum', values }) as {
      readonly kind: 'enum';
      readonly values: V;
      readonly aliases?: A;
    },
  date: () => ({ kind: 'date' }) as const,
  dateOrMs: () => ({ kind: 'dateOrMs' }) as const,
  nsTimestamp: () => ({ kind: 'nsTimestamp' }) as const,
  nsOffset: () => ({ kind: 'nsOffset' }) as const,
  msOffset: () => ({ kind: 'msOffset' }) as const,
  list: (maxItems?: number, prefix?: TickerPrefix) =>
    ({ kind: 'list', ...(maxItems !== undefined && { maxItems }), ...(prefix && { prefix }) }) as {
      readonly kind: 'list';
      readonly maxItems?: number;
      readonly prefix?: TickerPrefix;
    },
  /** A list of an enumeration's values (`.any_of`): an array, or one comma-separated string. */
  listOf: <const V extends readonly string[]>(values: V) => ({ kind: 'list', values }) as const,
} as const;

/** The TypeScript type a caller passes for a parameter type. */
export type ValueOf<T extends ParamType> = T extends {
  kind: 'enum';
  values: readonly (infer E)[];
  aliases?: infer A;
}
  ? E | (A extends object ? Extract<keyof A, string> : never)
  : T['kind'] extends 'int' | 'number'
    ? number
    : T['kind'] extends 'boolean'
      ? boolean
      : T['kind'] extends 'date'
        ? DateInput
        : T['kind'] extends 'dateOrMs'
          ? DateInput | number
          : T['kind'] extends 'msOffset'
            ? Date | number | string
            : T['kind'] extends 'nsOffset'
              ? Date | number | bigint
              : T['kind'] extends 'nsTimestamp'
                ? DateInput | number | bigint
                : T extends { kind: 'list'; values: readonly (infer E)[] }
                  ? readonly E[] | string
                  : T['kind'] extends 'list'
                    ? readonly string[] | string
                    : string;

/** The option keys of an operation: its parameters that are not required, typed from the declaration. */
export type ParamOptions<O extends OperationSpec> = {
  -readonly [P in O['params'][number] as P extends { required: true } ? never : P['name']]?: ValueOf<
    P['type']
  >;
};

/** Expands `{placeholder}` path templates and query names: helpers for declarations. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}
