import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Store } from '../store/store.js';
import { IngestError } from './ingest-error.js';
import { parseLeanFile } from './lean-parsers.js';
import { classifyLeanPath, NEW_YORK } from './lean-paths.js';
import { type IngestJob, type IngestOptions, type IngestSummary, runIngestJobs } from './run-jobs.js';
import { parseVixCsv } from './vix.js';

/** Where the VIX history sits beside a Lean data root, as in the market-data folder. */
const VIX_FILE = join('datahub-finance-vix', 'vix-daily.csv');

/** The files `ingestLean` would read under `dir`: the Lean root, the VIX file, and what it ignores. */
export interface LeanLayout {
  /** The Lean data root (the folder holding `equity/`, `option/`, ...). */
  leanRoot: string;
  /** The VIX daily CSV, when found (see `ingestLean`). */
  vixFile: string | undefined;
}

/**
 * Finds the Lean root and the VIX file for `dir`. `dir` is either a Lean data root or a folder holding
 * one as `lean/` (the market-data folder). The VIX history (`datahub-finance-vix/vix-daily.csv`) is
 * taken from beside the Lean root, that is from `dir` in the second case and from `dir/..` in the
 * first: that is where the market-data folder keeps it, and a bare Lean root elsewhere has none.
 */
export function leanLayout(dir: string): LeanLayout {
  const root = resolve(dir);
  const nested = join(root, 'lean');
  const leanRoot = existsSync(nested) && statSync(nested).isDirectory() ? nested : root;
  const vix = join(dirname(leanRoot), VIX_FILE);
  return { leanRoot, vixFile: existsSync(vix) ? vix : undefined };
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
}

/**
 * Ingests a QuantConnect Lean data folder: every kind `DATA.md` describes (equity ticks and bars,
 * option bars and open interest, forex, crypto, index bars, factor and map files), plus the VIX daily
 * history when it sits beside the Lean root (see `leanLayout`). Each file is one transaction, skipped
 * when its content was ingested before.
 *
 * @throws IngestError naming `file[!entry]:line` for a malformed file (unless `continueOnError`).
 */
export async function ingestLean(
  store: Store,
  dir: string,
  options: IngestOptions = {},
): Promise<IngestSummary> {
  const { leanRoot, vixFile } = leanLayout(dir);
  if (!existsSync(leanRoot) || !statSync(leanRoot).isDirectory()) {
    throw new IngestError({ file: dir }, 'is not a folder');
  }
  const files: string[] = [];
  walk(leanRoot, files);
  const jobs: IngestJob[] = [];
  const unrecognised: string[] = [];
  for (const path of files) {
    const desc = classifyLeanPath(relative(leanRoot, path));
    if (!desc) {
      unrecognised.push(path);
      continue;
    }
    jobs.push({
      path,
      kind: `lean:${desc.kind}`,
      parse: (bytes, sink) => parseLeanFile(desc, path, bytes, sink),
    });
  }
  if (vixFile) {
    jobs.push({
      path: vixFile,
      kind: 'vix-daily',
      parse: (bytes, sink) => parseVixCsv(vixFile, bytes, sink, NEW_YORK),
    });
  }
  return runIngestJobs(store, jobs, unrecognised, options);
}
