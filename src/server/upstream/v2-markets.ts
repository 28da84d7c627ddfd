/**
 * The markets of the v2 snapshot routes, in one place for the route plans and the stored kinds: each
 * market's name, its path (`/v2/snapshot/locale/{path}/tickers`), the kind its rows and answers are
 * stored as, and its tickers' prefix, which requests may leave out. A new market is one line here.
 */
export const V2_MARKETS = [
  { market: 'stocks', path: 'us/markets/stocks', kind: 'snapshot:stocks', prefix: '' },
  { market: 'forex', path: 'global/markets/forex', kind: 'snapshot:forex', prefix: 'C:' },
  { market: 'crypto', path: 'global/markets/crypto', kind: 'snapshot:crypto', prefix: 'X:' },
] as const;

/** One of {@link V2_MARKETS}. */
export type V2Market = (typeof V2_MARKETS)[number];
