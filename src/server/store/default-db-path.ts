import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the server keeps its database when `--db` is not given: `$MDQ_DB` when set, else
 * `$XDG_DATA_HOME/mdq/mdq.duckdb`, else `~/.local/share/mdq/mdq.duckdb`.
 *
 * @param env - the environment to read.
 * @default env process.env
 */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MDQ_DB) return env.MDQ_DB;
  const dataHome = env.XDG_DATA_HOME ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(dataHome, 'mdq', 'mdq.duckdb');
}
