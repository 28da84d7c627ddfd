import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { DuckDbStore } from '../store/duckdb-store.js';
import { IngestError } from './ingest-error.js';
import { parseLeanFile } from './lean-parsers.js';
import { classifyLeanPath, NEW_YORK } from './lean-paths.js';
import {
  type IngestJob,
  type IngestOptions,
  type IngestSummary,
  notAFile,
  type PassedOver,
  runIngestJobs,
} from './run-jobs.js';
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

/** Lean jobs are not streamed, so they always get the content. */
function whole(bytes: Uint8Array | undefined): Uint8Array {
  if (!bytes) throw new Error('a Lean file is parsed from its whole content');
  return bytes;
}

/**
 * The files under `dir`, sorted; what is neither a file nor a folder (a FIFO, a socket), or is gone
 * by the time it is looked at, goes to `passedOver` with the reason. So does a link to a folder `dir`
 * lies in (`loop -> .`): walking it would list the same files again, ever deeper, until the system
 * refuses the path, and two such links make that walk exponential. `within` holds the real paths of
 * the folders being walked.
 */
function walk(dir: string, out: string[], passedOver: PassedOver[], within = new Set<string>()): void {
  let names: string[];
  let real: string;
  try {
    real = realpathSync(dir);
    names = readdirSync(dir).sort();
  } catch (e) {
    passedOver.push({ path: dir, reason: notAFile(dir) ?? `it cannot be listed (${(e as Error).message})` });
    return;
  }
  within.add(real);
  for (const name of names) {
    const p = join(dir, name);
    const reason = notAFile(p);
    if (reason === 'it is a folder') {
      const loop = linkBack(p, within);
      if (loop === undefined) walk(p, out, passedOver, within);
      else passedOver.push({ path: p, reason: `it is a link back to ${loop}, a folder it lies in` });
    } else if (reason === undefined) out.push(p);
    else passedOver.push({ path: p, reason });
  }
  within.delete(real);
}

/** The folder being walked that `folder` resolves to, if any. */
function linkBack(folder: string, within: ReadonlySet<string>): string | undefined {
  try {
    const real = realpathSync(folder);
    return within.has(real) ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Ingests a QuantConnect Lean data folder: every kind the market-data folder's DATA.md describes, plus
 * the VIX daily history when it sits beside the Lean root (see `leanLayout`). Each file is one
 * transaction, skipped when its content (sha256) was ingested before.
 *
 * What lands where (units and conventions as in `schema.ts`):
 * - equity trade ticks → `trades` (`SPY`): price / 10,000, sip_timestamp in ns from the file's date
 *   and ms of the New York day, sequence_number = the row's line, exchange letter → the service's
 *   exchange id, hexadecimal sale-condition mask → condition ids (`lean-codes.ts`). Ticks AlgoSeek
 *   flagged suspicious are kept (they are real prints; the service has no such flag).
 * - equity quote ticks → `quotes`: each bid-only + ask-only row pair is one NBBO quote (see
 *   `native-ticks.ts`); forex ticks → `quotes` (`C:EURUSD`, no sizes or exchanges).
 * - second/minute/hour/daily trade bars → `bars`, quote bars → `quote_bars`, `t` = bar start in UTC
 *   ms; daily bars start at midnight New York of the session date (equities, options, indices) or UTC
 *   midnight (forex, crypto). Index bars (`I:SPX`, `I:NDX`, Chicago time) get v = 0: Lean's column
 *   counts updates, not volume. Forex has quotes only; its `bars` are the bid/ask midpoints of its
 *   quote bars, with v = 0.
 * - option bars, quote bars and open interest → `bars` / `quote_bars` / `open_interest` under
 *   `O:<UNDERLYING><YYMMDD><C|P><strike × 1000, 8 digits>`, with a row in `option_contracts` read
 *   from the entry name.
 * - factor files → `splits` (a SplitFactor change takes effect the next NYSE trading day), map files →
 *   `ticker_history` and the ticker's primary exchange, active flag and delisting date.
 * - every ticker met gets a `tickers` row (ETF for SPY/QQQ/IWM, CS for other stocks, INDEX, currency
 *   pairs with their currencies).
 *
 * @throws IngestError naming `file[!entry]:line` for a malformed file (unless `continueOnError`).
 */
export async function ingestLean(
  store: DuckDbStore,
  dir: string,
  options: IngestOptions = {},
): Promise<IngestSummary> {
  const { leanRoot, vixFile } = leanLayout(dir);
  if (!existsSync(leanRoot) || !statSync(leanRoot).isDirectory()) {
    throw new IngestError({ file: dir }, 'is not a folder');
  }
  const files: string[] = [];
  const passedOver: PassedOver[] = [];
  walk(leanRoot, files, passedOver);
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
      parse: (bytes, sink) => parseLeanFile(desc, path, whole(bytes), sink),
    });
  }
  if (vixFile) {
    jobs.push({
      path: vixFile,
      kind: 'vix-daily',
      parse: (bytes, sink) => parseVixCsv(vixFile, whole(bytes), sink, NEW_YORK),
    });
  }
  return runIngestJobs(store, jobs, unrecognised, options, passedOver);
}
