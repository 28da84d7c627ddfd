import { defineOperation, type TickerPrefix, t } from '../core/operation.js';
import {
  filterWithRange,
  includeOtcParam,
  limitParam,
  orderParam,
  rangeFilters,
  sortParam,
  symbolParam,
} from './common.js';
import { SNAPSHOT_DIRECTIONS } from './enums.js';

type V2Market = 'us/markets/stocks' | 'global/markets/forex' | 'global/markets/crypto';
const prefixOf: Record<V2Market, TickerPrefix | undefined> = {
  'us/markets/stocks': undefined,
  'global/markets/forex': 'C:',
  'global/markets/crypto': 'X:',
};
const otc = (market: V2Market) =>
  market === 'us/markets/stocks' ? ([includeOtcParam] as const) : ([] as const);

/** Snapshot of one ticker: minute, day and previous-day bars plus last trade and quote. */
export const snapshotTicker = (market: V2Market) =>
  defineOperation({
    name: 'getSnapshot',
    path: `/v2/snapshot/locale/${market}/tickers/{ticker}`,
    paging: 'none',
    doc: 'Current minute, day and previous-day aggregates plus the last trade and quote of one ticker.',
    params: [symbolParam(prefixOf[market])],
  });

/** Snapshots of all tickers of a market, or of the listed ones. */
export const snapshotAll = (market: V2Market) =>
  defineOperation({
    name: 'getSnapshotAll',
    path: `/v2/snapshot/locale/${market}/tickers`,
    paging: 'none',
    doc: 'Snapshots of every ticker of the market, or of the listed tickers only.',
    params: [
      {
        name: 'symbols',
        wire: 'tickers',
        in: 'query',
        type: t.list(undefined, prefixOf[market]),
        doc: 'Tickers to include (a list, or one comma separated string); all when omitted.',
      },
      ...otc(market),
    ],
  });

/** Top 20 gainers or losers of the day. */
export const gainersAndLosers = (market: V2Market) =>
  defineOperation({
    name: 'getGainersAndLosers',
    path: `/v2/snapshot/locale/${market}/{direction}`,
    paging: 'none',
    doc: 'The top 20 gainers or losers of the day.',
    params: [
      {
        name: 'direction',
        wire: 'direction',
        in: 'path',
        type: t.enum(SNAPSHOT_DIRECTIONS),
        default: 'gainers',
        doc: 'gainers or losers.',
      },
      ...otc(market),
    ],
  });

/** Level 2 order book of a crypto pair. */
export const cryptoBook = defineOperation({
  name: 'getLevel2Book',
  path: '/v2/snapshot/locale/global/markets/crypto/tickers/{ticker}/book',
  paging: 'none',
  doc: 'The current level 2 book (bids and asks by exchange) of a crypto pair.',
  params: [symbolParam('X:')],
});

/** Snapshot of one option contract, with greeks and implied volatility. */
export const optionContractSnapshot = defineOperation({
  name: 'getSnapshot',
  path: '/v3/snapshot/options/{underlyingAsset}/{optionContract}',
  // One contract is one page, but SPEC 4.4 gives it group P, so its options are accepted.
  paging: 'next_url',
  doc: 'Snapshot of one option contract: day bar, last quote and trade, greeks, implied volatility, underlying.',
  params: [
    {
      name: 'underlyingSymbol',
      wire: 'underlyingAsset',
      in: 'path',
      type: t.ticker(),
      required: true,
      doc: 'Underlying ticker, e.g. `AAPL`.',
    },
    {
      name: 'optionSymbol',
      wire: 'optionContract',
      in: 'path',
      type: t.ticker('O:'),
      required: true,
      doc: 'Option contract, `O:` optional.',
    },
  ],
});

/** Snapshots of every contract of an underlying (the option chain). */
export const optionsChainSnapshot = defineOperation({
  name: 'getSnapshotChain',
  path: '/v3/snapshot/options/{underlyingAsset}',
  paging: 'next_url',
  doc: 'Snapshots of the option chain of an underlying, filtered by strike, expiry and type.',
  params: [
    {
      name: 'underlyingSymbol',
      wire: 'underlyingAsset',
      in: 'path',
      type: t.ticker(),
      required: true,
      doc: 'Underlying ticker.',
    },
    ...filterWithRange('strikePrice', 'strike_price', t.number(0), 'Exact strike price.', t.number(0)),
    ...filterWithRange('expirationDate', 'expiration_date', t.date(), 'Exact expiration date.', t.date()),
    {
      name: 'contractType',
      wire: 'contract_type',
      in: 'query',
      type: t.enum(['call', 'put']),
      doc: 'call or put.',
    },
    orderParam(),
    limitParam(250, 250),
    sortParam(['ticker', 'expiration_date', 'strike_price']),
  ],
});

/**
 * Snapshot of indices. SPEC 8 states two defaults for `limit` (1000 in the text, 5000 in the
 * signature) and for `order` (asc in the text, desc in the signature); the service's maximum is 250,
 * so `limit` defaults to 250 (a full page), and `order` to `asc`, the order of the stated text and of
 * every other ticker listing.
 */
export const indicesSnapshot = defineOperation({
  name: 'getSnapshot',
  path: '/v3/snapshot/indices',
  paging: 'next_url',
  doc: 'Snapshot of indices: value, session open/high/low/close and change.',
  params: [
    {
      name: 'symbols',
      wire: 'ticker.any_of',
      in: 'query',
      type: t.list(250, 'I:'),
      doc: 'Index tickers (at most 250, `I:` optional); all when omitted.',
    },
    orderParam('asc'),
    limitParam(250, 250),
    sortParam(['ticker'], 'ticker'),
    ...rangeFilters('ticker', 'ticker', t.string()),
  ],
});

/** Snapshots across asset classes: stocks, options, forex, crypto and indices in one list. */
export const universalSnapshot = defineOperation({
  name: 'getUniversalSnapshot',
  path: '/v3/snapshot',
  paging: 'next_url',
  doc: 'Snapshots of tickers of any asset class: session, last trade and quote, last minute; options with greeks.',
  params: [
    {
      name: 'symbol',
      wire: 'ticker',
      in: 'query',
      type: t.string(),
      doc: 'One ticker (`O:`, `C:`, `X:`, `I:` prefixed for non-stocks).',
    },
    {
      name: 'symbols',
      wire: 'ticker.any_of',
      in: 'query',
      type: t.list(250),
      doc: 'Tickers of any asset class (at most 250), in the order answered.',
    },
    ...rangeFilters('ticker', 'ticker', t.string()),
    {
      name: 'assetType',
      wire: 'type',
      in: 'query',
      type: t.enum(['stocks', 'options', 'crypto', 'fx', 'indices']),
      doc: 'Asset class.',
    },
    orderParam('asc'),
    limitParam(10, 250),
    sortParam(['ticker'], 'ticker'),
  ],
});

/** Summaries (price, session change, name) of tickers of any asset class. */
export const snapshotSummaries = defineOperation({
  name: 'getSummaries',
  path: '/v1/summaries',
  paging: 'none',
  doc: 'Price, session and change of tickers of any asset class; unknown tickers answer an error item.',
  params: [
    {
      name: 'symbols',
      wire: 'ticker.any_of',
      in: 'query',
      type: t.list(250),
      doc: 'Tickers of any asset class (at most 250).',
    },
  ],
});
