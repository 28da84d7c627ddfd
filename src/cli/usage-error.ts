import { closest } from './closest.js';

/** A command line that cannot be run as written; the CLI exits with code 2 and prints its message. */
export class UsageError extends Error {
  override name = 'UsageError';
  /** Stable code, as on every mdq error. */
  readonly code = 'MDQ_USAGE';
}

/** True for a {@link UsageError}, also across copies of the module. */
export const isUsageError = (e: unknown): e is UsageError =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'UsageError';

/**
 * The error for an option nobody declared: the closest declared name when it looks like a typo
 * (`did you mean --limit?`), else every allowed name.
 */
export function unknownOption(name: string, allowed: readonly string[], where: string): UsageError {
  const near = closest(name, allowed);
  return new UsageError(
    near === undefined
      ? `Unknown option --${name} for ${where}; allowed: ${allowed.map((k) => `--${k}`).join(', ')}`
      : `Unknown option --${name} for ${where}; did you mean --${near}? (${where} --help lists every option)`,
  );
}
