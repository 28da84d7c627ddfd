import type { DuckDbStore as Store } from '../store/duckdb-store.js';
import type { SqlValue } from '../store/store.js';
import type { DayRange } from './coverage.js';

/**
 * What a caching server stores of a kind of data, declared once (see `CACHED_KINDS`): how it names the
 * kind, how it asks upstream for it, how the answer's pages become rows of the store and how those rows
 * are removed again.
 */

type Json = Record<string, unknown>;

/** A fetch of one kind, ticker and range, complete: every page, in order. */
export interface Fetched {
  ticker: string;
  kind: CachedKind;
  range: DayRange;
  /** The market's time zone, whose days `range` counts. */
  tz: string;
  /** Every page's body, in order. */
  pages: readonly Json[];
  /** When the first page was asked for (Unix ms). */
  fetchedAt: number;
  /** The first market day whose session had not ended at `fetchedAt`: days before it are final. */
  today: string;
  /**
   * An answer about a past period fetched after it had ended: it cannot change any more, and its
   * coverage is final.
   */
  settled?: boolean;
}

/** The rows a kind stored for a ticker and range of days (in `tz`). */
export interface Covered {
  ticker: string;
  range: DayRange;
  tz: string;
}

/** A statement of the store and its parameters. */
export interface Statement {
  sql: string;
  params: SqlValue[];
}

/** How a kind's pages are written into the store, and its stored rows removed. */
export interface Storage {
  /**
   * Writes a complete fetch with its coverage, in one transaction: the range's rows are replaced by the
   * fetched ones (a refresh takes corrections), or, on failure, nothing changes.
   * @returns The rows written.
   */
  write(store: Store, f: Fetched): Promise<number>;
  /** The statements that remove what the kind stored of a ticker and range; none when it owns no rows. */
  remove(at: Covered): Statement[];
  /**
   * A query of what the kind stored of a ticker and range, for `mdq cache status`: its `rows`, and the
   * `bytes` of an answer stored as text. None for a kind that owns no rows.
   */
  size?(at: Covered): Statement;
}

/** A kind of data the caching server stores with its coverage. */
export interface CachedKind {
  /** Its name in the `coverage` table (`bars:minute`, `trades`, `splits`, …). */
  name: string;
  /** What log lines and offline 404s call it ("minute bars"). */
  label: string;
  /**
   * `day`: covered by market day, final once the day's session had ended when fetched. `whole`: a
   * ticker's records, covered every day at once and fetched again once older than the age allowed.
   */
  span: 'day' | 'whole';
  /** Fetched a day at a time (a market's grouped day), so a refresh of a range asks day by day. */
  dayAtATime?: true;
  /**
   * Stored as the answer itself, one page (a later page is an answer of its own request), and answered
   * as stored: a ticker's current state, an answer stored under its request.
   */
  answer?: true;
  /** The first upstream request (path and query) of a ticker and range; its pages follow `next_url`. */
  first(ticker: string, range: DayRange, tz: string): string;
  storage: Storage;
}
