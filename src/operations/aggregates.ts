import { defineOperation, type TickerPrefix, t } from '../core/operation.js';
import { adjustedParam, includeOtcParam, pairParams, symbolParam, timespanParam } from './common.js';
import { SORT_ORDERS } from './enums.js';

/** Aggregate bars over a custom window: `/v2/aggs/ticker/{ticker}/range/...` (every asset class). */
export const aggregateBars = (prefix?: TickerPrefix, adjusted: 'query' | 'client' = 'query') =>
  defineOperation({
    name: 'getAggregateBars',
    path: '/v2/aggs/ticker/{ticker}/range/{multiplier}/{timespan}/{from}/{to}',
    paging: 'next_url',
    fullRange: true,
    ordered: [['fromDate', 'toDate']],
    doc: 'Aggregate bars (OHLCV candles) of a ticker over a date range, in windows of multiplier × timespan.',
    params: [
      symbolParam(prefix),
      {
        name: 'fromDate',
        wire: 'from',
        in: 'path',
        type: t.dateOrMs(),
        required: true,
        doc: 'Start of the window: a date or a millisecond timestamp.',
      },
      {
        name: 'toDate',
        wire: 'to',
        in: 'path',
        type: t.dateOrMs(),
        required: true,
        doc: 'End of the window (inclusive): a date or a millisecond timestamp.',
      },
      {
        name: 'multiplier',
        wire: 'multiplier',
        in: 'path',
        type: t.int(1),
        default: 1,
        doc: 'Size of the window in timespans (5 with minute: 5-minute bars).',
      },
      timespanParam('day'),
      adjusted === 'query'
        ? adjustedParam
        : {
            ...adjustedParam,
            in: 'client',
            default: false,
            doc: 'Accepted for compatibility; index values have no splits, so it is not sent.',
          },
      {
        name: 'sort',
        wire: 'sort',
        in: 'query',
        type: t.enum(SORT_ORDERS),
        default: 'asc',
        doc: 'Order by timestamp.',
      },
      {
        name: 'limit',
        wire: 'limit',
        in: 'query',
        type: t.int(1, 50000),
        default: 5000,
        doc: 'Number of base aggregates queried (maximum 50000).',
      },
    ],
  });

/** Previous trading day's bar: `/v2/aggs/ticker/{ticker}/prev`. */
export const previousClose = (prefix?: TickerPrefix, adjusted = true) =>
  defineOperation({
    name: 'getPreviousClose',
    path: '/v2/aggs/ticker/{ticker}/prev',
    paging: 'none',
    doc: "The previous trading day's open, high, low, close and volume.",
    params: adjusted ? [symbolParam(prefix), adjustedParam] : [symbolParam(prefix)],
  });

/** Daily bars of a whole market for one date. */
export const groupedDaily = (market: 'us/market/stocks' | 'global/market/fx' | 'global/market/crypto') =>
  defineOperation({
    name: 'getGroupedDailyBars',
    path: `/v2/aggs/grouped/locale/${market}/{date}`,
    paging: 'none',
    doc: 'Daily bars of every ticker of the market on one date.',
    params: [
      { name: 'date', wire: 'date', in: 'path', type: t.date(), required: true, doc: 'The trading date.' },
      adjustedParam,
      ...(market === 'us/market/stocks' ? ([includeOtcParam] as const) : []),
    ],
  });

/** Open, close, high, low, volume, pre-market and after-hours of one date: `/v1/open-close/{ticker}/{date}`. */
export const dailyOpenClose = (prefix?: TickerPrefix, adjusted = true) =>
  defineOperation({
    name: 'getDailyOpenClose',
    path: '/v1/open-close/{ticker}/{date}',
    paging: 'none',
    doc: 'Open, close and after-hours prices of a ticker on one date.',
    params: [
      symbolParam(prefix),
      { name: 'date', wire: 'date', in: 'path', type: t.date(), required: true, doc: 'The trading date.' },
      ...(adjusted ? [adjustedParam] : []),
    ],
  });

/** Crypto's daily open/close takes the pair as two symbols. */
export const cryptoDailyOpenClose = defineOperation({
  name: 'getDailyOpenClose',
  path: '/v1/open-close/crypto/{from}/{to}/{date}',
  paging: 'none',
  doc: 'Open and close of a crypto pair on one date, with the opening and closing trades.',
  params: [
    ...pairParams,
    { name: 'date', wire: 'date', in: 'path', type: t.date(), required: true, doc: 'The date (UTC).' },
    adjustedParam,
  ],
});
