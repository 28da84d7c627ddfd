import { defineOperation, type TickerPrefix, t } from '../core/operation.js';
import { adjustedParam, msTimestampFilters, symbolParam } from './common.js';
import { INDICATOR_TIMESPANS, SERIES_TYPES, SORT_ORDERS } from './enums.js';

const common = (prefix: TickerPrefix | undefined, adjusted: boolean) =>
  [
    symbolParam(prefix),
    ...msTimestampFilters,
    {
      name: 'timespan',
      wire: 'timespan',
      in: 'query',
      type: t.enum(INDICATOR_TIMESPANS, { min: 'minute' }),
      default: 'day',
      doc: 'Size of the aggregate window the indicator is computed on.',
    },
    adjusted
      ? adjustedParam
      : ({
          ...adjustedParam,
          in: 'client',
          doc: 'Accepted for compatibility; the endpoint takes no adjusted for this market, so it is not sent.',
        } as const),
    {
      name: 'seriesType',
      wire: 'series_type',
      in: 'query',
      type: t.enum(SERIES_TYPES),
      default: 'close',
      doc: 'Price the indicator is computed on.',
    },
    {
      name: 'includeUnderlying',
      wire: 'expand_underlying',
      in: 'query',
      type: t.boolean(),
      default: false,
      doc: 'Include the aggregates used in the response.',
    },
    {
      name: 'order',
      wire: 'order',
      in: 'query',
      type: t.enum(SORT_ORDERS),
      default: 'desc',
      doc: 'Order by timestamp (most recent first by default).',
    },
    {
      name: 'limit',
      wire: 'limit',
      in: 'query',
      type: t.int(1, 5000),
      default: 5000,
      doc: 'Values per page (maximum 5000).',
    },
  ] as const;

const windowParam = (defaultValue: number) =>
  ({
    name: 'windowSize',
    wire: 'window',
    in: 'query',
    type: t.int(1),
    default: defaultValue,
    doc: 'Window size.',
  }) as const;

/** Simple moving average. For crypto `adjusted` is accepted but not sent. */
export const sma = (prefix?: TickerPrefix, adjusted = true) =>
  defineOperation({
    name: 'getSma',
    path: '/v1/indicators/sma/{ticker}',
    paging: 'next_url',
    doc: 'Simple moving average (SMA) of a ticker.',
    params: [...common(prefix, adjusted), windowParam(50)],
  });

/** Exponential moving average. */
export const ema = (prefix?: TickerPrefix, adjusted = true) =>
  defineOperation({
    name: 'getEma',
    path: '/v1/indicators/ema/{ticker}',
    paging: 'next_url',
    doc: 'Exponential moving average (EMA) of a ticker.',
    params: [...common(prefix, adjusted), windowParam(50)],
  });

/** Relative strength index. */
export const rsi = (prefix?: TickerPrefix, adjusted = true) =>
  defineOperation({
    name: 'getRsi',
    path: '/v1/indicators/rsi/{ticker}',
    paging: 'next_url',
    doc: 'Relative strength index (RSI) of a ticker.',
    params: [...common(prefix, adjusted), windowParam(14)],
  });

/**
 * Moving average convergence/divergence. The window sizes are sent only when given, so the service's
 * defaults (short 12, long 26, signal 9) apply: the SPEC's 50/50/50 would make the short and long
 * averages equal and the MACD line constantly zero.
 */
export const macd = (prefix?: TickerPrefix, adjusted = true) =>
  defineOperation({
    name: 'getMacd',
    path: '/v1/indicators/macd/{ticker}',
    paging: 'next_url',
    doc: 'Moving average convergence/divergence (MACD) of a ticker.',
    params: [
      ...common(prefix, adjusted),
      {
        name: 'shortWindowSize',
        wire: 'short_window',
        in: 'query',
        type: t.int(1),
        doc: 'Short EMA window (service default 12).',
      },
      {
        name: 'longWindowSize',
        wire: 'long_window',
        in: 'query',
        type: t.int(1),
        doc: 'Long EMA window (service default 26).',
      },
      {
        name: 'signalWindowSize',
        wire: 'signal_window',
        in: 'query',
        type: t.int(1),
        doc: 'Signal line window (service default 9).',
      },
    ],
  });

/** The four indicators of group I for a client. */
export const indicators = (prefix?: TickerPrefix, adjusted = true) => ({
  getSma: sma(prefix, adjusted),
  getEma: ema(prefix, adjusted),
  getRsi: rsi(prefix, adjusted),
  getMacd: macd(prefix, adjusted),
});
