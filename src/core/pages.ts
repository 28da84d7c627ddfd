/**
 * What pages are made of: the items of a page, and several pages merged into one response. Pages are
 * merged in the order they were fetched (the first page's items first), never reversed.
 */

type Page = Record<string, unknown>;

/** The items a page holds: `results` when it is a list, `results.values` for indicators, `ticks`, `tickers`. */
export function pageItems(page: unknown): unknown[] {
  if (typeof page !== 'object' || page === null) return [];
  const p = page as Page;
  if (Array.isArray(p.results)) return p.results;
  const results = p.results as Page | undefined;
  if (results && Array.isArray(results.values)) return results.values;
  // One object as the page's result (the snapshot of one option contract): that object is the item.
  if (results && typeof results === 'object' && !('values' in results)) return [results];
  if (Array.isArray(p.ticks)) return p.ticks;
  if (Array.isArray(p.tickers)) return p.tickers;
  return [];
}

/**
 * Merges pages into one response: the first page's envelope with the items of every page in order.
 * Counts (`count`, `resultsCount`, `queryCount`) are summed; `next_url` is kept only when more pages
 * remain beyond the last one fetched (stopped by `maxPages`), so the caller can go on from there;
 * `previous_url` is the first page's. For indicators, `results.values` are concatenated and the
 * underlying aggregates too when present.
 */
export function mergePages(pages: readonly unknown[]): unknown {
  const first = pages[0] as Page | undefined;
  if (!first || typeof first !== 'object') return first;
  const last = pages[pages.length - 1] as Page;
  const merged: Page = { ...first };
  if (Array.isArray(first.results)) {
    merged.results = pages.flatMap((p) => ((p as Page).results as unknown[] | undefined) ?? []);
  } else if (
    first.results &&
    typeof first.results === 'object' &&
    Array.isArray((first.results as Page).values)
  ) {
    const r = first.results as Page;
    const values = pages.flatMap(
      (p) => (((p as Page).results as Page | undefined)?.values as unknown[] | undefined) ?? [],
    );
    const mergedResults: Page = { ...r, values };
    const underlying = r.underlying as Page | undefined;
    if (underlying && Array.isArray(underlying.aggregates)) {
      mergedResults.underlying = {
        ...underlying,
        aggregates: pages.flatMap(
          (p) =>
            ((((p as Page).results as Page | undefined)?.underlying as Page | undefined)?.aggregates as
              | unknown[]
              | undefined) ?? [],
        ),
      };
    }
    merged.results = mergedResults;
  }
  for (const key of ['count', 'resultsCount', 'queryCount'] as const) {
    if (typeof first[key] === 'number') {
      merged[key] = pages.reduce<number>((sum, p) => sum + (Number((p as Page)[key]) || 0), 0);
    }
  }
  if (typeof last.next_url === 'string' && last.next_url) merged.next_url = last.next_url;
  else delete merged.next_url;
  return merged;
}

/** The link of a page in a direction, or undefined. */
export function pageLink(page: unknown, direction: 'next' | 'previous'): string | undefined {
  if (typeof page !== 'object' || page === null) return undefined;
  const link = (page as Page)[direction === 'next' ? 'next_url' : 'previous_url'];
  return typeof link === 'string' && link ? link : undefined;
}

/**
 * The links a walk through pages has followed. A service that answers with a `next_url` it sent
 * before (a loop on one link, or a cycle through several) would keep a walk going forever; the walk asks
 * {@link LinkTrail.repeats} before each fetch and stops on `true`, with {@link repeatedLinkWarning}.
 * Links are compared by path and query, so an absolute `next_url` matches the relative target it repeats.
 */
export class LinkTrail {
  readonly #seen = new Set<string>();

  /** @param start - The link the walk starts from, if it is a link of its own (the first request). */
  constructor(start?: string) {
    if (start !== undefined) this.#seen.add(linkKey(start));
  }

  /** Records `link`; true when it was recorded before. */
  repeats(link: string): boolean {
    const key = linkKey(link);
    if (this.#seen.has(key)) return true;
    this.#seen.add(key);
    return false;
  }
}

/** The line a walk emits when it stops on a repeated link after `pages` pages. */
export function repeatedLinkWarning(link: string, pages: number): string {
  return `Stopped paging after ${pages} page${pages === 1 ? '' : 's'}: the service sent a next_url already followed (${linkKey(link).split('?')[0]}), which would repeat pages forever`;
}

function linkKey(link: string): string {
  try {
    const url = new URL(link, 'http://link.invalid');
    return url.pathname + url.search;
  } catch {
    return link;
  }
}
