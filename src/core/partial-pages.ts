import { MdqError } from './errors.js';
import { mergePages } from './pages.js';

const PARTIAL = 'partial';

/**
 * Keeps on an error that stopped a walk through pages (`allPages`, `getAllPages`) what was fetched
 * before it, as the call would have returned it had it stopped there: one merged response, or the list
 * of pages when `merge` is false. Its last `next_url` (or `previous_url`, walking back) is the link that
 * failed, so the walk can go on from there. The message says so, with the number of the failed page.
 *
 * @returns `error`, with `partial` set when it is an mdq error and pages were fetched.
 */
export function withPartialPages(error: unknown, pages: readonly unknown[], merge: boolean): unknown {
  if (!(error instanceof MdqError) || pages.length === 0) return error;
  (error as unknown as Record<string, unknown>)[PARTIAL] = merge ? mergePages(pages) : [...pages];
  const n = pages.length;
  error.message += ` (page ${n + 1}; the ${n} page${n === 1 ? '' : 's'} fetched before it are on the error's \`partial\`)`;
  return error;
}

/**
 * The pages fetched before a walk through pages failed (see {@link withPartialPages}): a merged response
 * or a list of pages, or undefined when the error did not stop such a walk.
 *
 * @example
 * try {
 *   await stocks.getTradesV3('AAPL', { allPages: true });
 * } catch (e) {
 *   const partial = partialPagesOf(e); // the trades fetched; partial.next_url is where to go on
 * }
 */
export function partialPagesOf(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return undefined;
  return (error as Record<string, unknown>)[PARTIAL];
}
