import { defineOperation, type TickerPrefix, t } from '../core/operation.js';
import { limitParam, nsTimestampFilters, pairParams, symbolParam } from './common.js';
import { SORT_ORDERS, TIMESTAMP_SORT } from './enums.js';

interface ListDefaults {
  /** The operation's name on the client. */
  name: string;
  prefix?: TickerPrefix;
  /** `sort` and `order` sent when the caller gives none (options: timestamp, asc). */
  sort?: 'timestamp';
  order?: 'asc' | 'desc';
  symbolDoc?: string;
}

const listParams = (d: ListDefaults) =>
  [
    symbolParam(d.prefix, d.symbolDoc),
    ...nsTimestampFilters,
    {
      name: 'order',
      wire: 'order',
      in: 'query',
      type: t.enum(SORT_ORDERS),
      ...(d.order && { default: d.order }),
      doc: 'Order of the results by timestamp.',
    },
    {
      name: 'sort',
      wire: 'sort',
      in: 'query',
      type: t.enum(TIMESTAMP_SORT),
      ...(d.sort && { default: d.sort }),
      doc: 'Field to sort by.',
    },
    limitParam(5000, 50000),
  ] as const;

/** Trades in a time range: `/v3/trades/{ticker}` (stocks, options, crypto). */
export const tradesV3 = (d: ListDefaults) =>
  defineOperation({
    name: d.name,
    path: '/v3/trades/{ticker}',
    paging: 'next_url',
    doc: 'Trades of a ticker in a time range, paged by next_url.',
    params: listParams(d),
  });

/** Quotes (NBBO) in a time range: `/v3/quotes/{ticker}` (stocks, options, forex). */
export const quotesV3 = (d: ListDefaults) =>
  defineOperation({
    name: d.name,
    path: '/v3/quotes/{ticker}',
    paging: 'next_url',
    doc: 'Quotes (NBBO) of a ticker in a time range, paged by next_url.',
    params: listParams(d),
  });

/** Legacy v2 ticks of one day, paged by a nanosecond timestamp offset (SPEC 4.8). */
export const legacyTicks = (kind: 'trades' | 'nbbo') =>
  defineOperation({
    name: kind === 'trades' ? 'getTrades' : 'getQuotes',
    path: `/v2/ticks/stocks/${kind}/{ticker}/{date}`,
    paging: 'offset',
    doc:
      kind === 'trades'
        ? 'Trades of a ticker on one date (legacy v2): page with the `t` of the last result as `timestamp`.'
        : 'Quotes (NBBO) of a ticker on one date (legacy v2): page with the `t` of the last result as `timestamp`.',
    params: [
      symbolParam(),
      { name: 'date', wire: 'date', in: 'path', type: t.date(), required: true, doc: 'The trading date.' },
      {
        name: 'timestamp',
        wire: 'timestamp',
        in: 'query',
        type: t.nsOffset(),
        doc: 'Offset: nanosecond timestamp to start after.',
      },
      {
        name: 'timestampLimit',
        wire: 'timestampLimit',
        in: 'query',
        type: t.nsOffset(),
        doc: 'Nanosecond timestamp to stop at.',
      },
      {
        name: 'reverse',
        wire: 'reverse',
        in: 'query',
        type: t.boolean(),
        default: true,
        doc: 'Reverse the order of the results.',
      },
      limitParam(5000, 50000),
    ],
  });

/** v1 historic forex quotes or crypto trades of one day, paged by a millisecond offset. */
export const historicTicks = (market: 'forex' | 'crypto') =>
  defineOperation({
    name: market === 'forex' ? 'getHistoricForexTicks' : 'getHistoricTrades',
    path: `/v1/historic/${market}/{from}/{to}/{date}`,
    paging: 'offset',
    doc:
      market === 'forex'
        ? 'Historic quote ticks of a currency pair on one date: page with the `t` of the last tick as `offset`.'
        : 'Historic trades of a crypto pair on one date: page with the `t` of the last tick as `offset`.',
    params: [
      ...pairParams,
      { name: 'date', wire: 'date', in: 'path', type: t.date(), required: true, doc: 'The date.' },
      {
        name: 'offset',
        wire: 'offset',
        in: 'query',
        type: t.msOffset(),
        doc: 'Offset: millisecond timestamp to start after.',
      },
      {
        name: 'limit',
        wire: 'limit',
        in: 'query',
        type: t.int(1, 10000),
        default: 500,
        doc: 'Ticks per page (maximum 10000).',
      },
    ],
  });

/**
 * The newer option tick endpoints (`/options/v3/trades/{ticker}`, `/options/v3/quotes/{ticker}`): the
 * v3 lists of one contract with `sort` as `timestamp.asc` or `timestamp.desc` (newest first unless
 * given) instead of `order`, and 1000 a page.
 */
export const optionTicksV3 = (kind: 'trades' | 'quotes') =>
  defineOperation({
    name: kind === 'trades' ? 'listOptionTrades' : 'listOptionQuotes',
    path: `/options/v3/${kind}/{ticker}`,
    paging: 'next_url',
    doc: `${kind === 'trades' ? 'Trades' : 'Quotes'} of an option contract in a time range, paged by next_url.`,
    params: [
      symbolParam('O:'),
      ...nsTimestampFilters,
      limitParam(1000, 50000),
      {
        name: 'sort',
        wire: 'sort',
        in: 'query',
        type: t.enum(['timestamp.asc', 'timestamp.desc']),
        doc: 'Order by timestamp (`timestamp.desc` unless given).',
      },
    ],
  });
