/**
 * Option-group declarations: the client-side options several operations share (request, pagination, full
 * range) are each declared once, like operations are, and their TypeScript types, their validation, the
 * CLI's flags and the older interface's exclusions all derive from those declarations.
 */

import { InvalidParameterError } from './errors.js';

/**
 * How an option's value is checked.
 *
 * - `boolean`: `true` or `false`.
 * - `int`: a safe integer of at least `min`; `nullable` also allows `null` (no limit).
 * - `function`: a callback; `signature` only carries its TypeScript type.
 * - `signal`: an `AbortSignal`.
 */
export type OptionType =
  | { readonly kind: 'boolean' }
  | { readonly kind: 'int'; readonly min: number; readonly nullable?: boolean }
  | { readonly kind: 'function'; readonly signature?: (...args: any[]) => unknown }
  | { readonly kind: 'signal' };

/** One option of a group. */
export interface OptionSpec {
  /** The option key (camelCase); the CLI flag is its kebab-case form. */
  readonly name: string;
  readonly type: OptionType;
  /** What applies when the caller gives no value (documentation and `--help`). */
  readonly default?: boolean | number;
  /** Offered as a command-line flag of the commands whose operation takes the group. */
  readonly cli?: boolean;
  /** One line for TSDoc, `--help` and error messages. */
  readonly doc: string;
}

/** A named group of options. */
export interface OptionGroup {
  /** How the group is named in messages (`pagination`, `full-range`). */
  readonly name: string;
  readonly options: readonly OptionSpec[];
}

/** Keeps literal types so that option types can be derived from the declaration. */
export function defineOptionGroup<const G extends OptionGroup>(group: G): G {
  return group;
}

/** Shorthands for declaring option types. */
export const o = {
  boolean: () => ({ kind: 'boolean' }) as const,
  /** A whole number of at least `min`; `nullable`: `null` too, meaning no limit. */
  int: <const N extends boolean = false>(min: number, nullable?: N) =>
    ({ kind: 'int', min, nullable: nullable ?? false }) as {
      readonly kind: 'int';
      readonly min: number;
      readonly nullable: N;
    },
  /** A callback of type `F`. */
  function: <F extends (...args: any[]) => unknown>() =>
    ({ kind: 'function' }) as { readonly kind: 'function'; readonly signature?: F },
  signal: () => ({ kind: 'signal' }) as const,
} as const;

/** The TypeScript type a caller passes for an option type. */
export type OptionValue<T extends OptionType> = T extends { kind: 'boolean' }
  ? boolean
  : T extends { kind: 'int'; nullable: true }
    ? number | null
    : T extends { kind: 'int' }
      ? number
      : T extends { kind: 'function'; signature?: infer F }
        ? NonNullable<F>
        : T extends { kind: 'signal' }
          ? AbortSignal
          : never;

/** The options object of a group, every key optional, typed from the declaration. */
export type GroupOptions<G extends OptionGroup> = {
  -readonly [S in G['options'][number] as S['name']]?: OptionValue<S['type']>;
};

/** The option keys of a group. */
export type GroupKey<G extends OptionGroup> = G['options'][number]['name'];

/** The option keys of a group, at run time. */
export function groupKeys<G extends OptionGroup>(group: G): GroupKey<G>[] {
  return group.options.map((spec) => spec.name);
}

/** What an option allows, in the words of an error message. */
export function allowedValues(type: OptionType): string {
  switch (type.kind) {
    case 'boolean':
      return 'expected true or false';
    case 'int':
      return `expected a whole number of at least ${type.min}${type.nullable ? ', or null (or undefined) for no limit' : ''}`;
    case 'function':
      return 'expected a function';
    case 'signal':
      return 'expected an AbortSignal';
  }
}

function isValid(type: OptionType, value: unknown): boolean {
  switch (type.kind) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'int':
      return (
        (type.nullable === true && value === null) ||
        (typeof value === 'number' && Number.isSafeInteger(value) && value >= type.min)
      );
    case 'function':
      return typeof value === 'function';
    case 'signal':
      return value instanceof AbortSignal;
  }
}

/**
 * Checks the values `options` gives for the options of `group` (absent keys and `undefined` are left to
 * their defaults; keys of other groups are not looked at).
 *
 * @throws InvalidParameterError naming the first bad option, its value and what it allows.
 */
export function validateGroup(group: OptionGroup, options: Readonly<Record<string, unknown>>): void {
  for (const spec of group.options) {
    const value = options[spec.name];
    if (value !== undefined && !isValid(spec.type, value)) {
      throw new InvalidParameterError(spec.name, value, allowedValues(spec.type));
    }
  }
}
