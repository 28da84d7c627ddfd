/** A command line that cannot be run as written; the CLI exits with code 2 and prints its message. */
export class UsageError extends Error {
  override name = 'UsageError';
  /** Stable code, as on every mdq error. */
  readonly code = 'MDQ_USAGE';
}

/** True for a {@link UsageError}, also across copies of the module. */
export const isUsageError = (e: unknown): e is UsageError =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'UsageError';
