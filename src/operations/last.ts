import { defineOperation, type TickerPrefix, t } from '../core/operation.js';
import { pairParams, symbolParam } from './common.js';

/** The most recent trade: `/v2/last/trade/{ticker}` (stocks, options). */
export const lastTrade = (prefix?: TickerPrefix) =>
  defineOperation({
    name: 'getLastTrade',
    path: '/v2/last/trade/{ticker}',
    paging: 'none',
    doc: 'The most recent trade of a ticker.',
    params: [symbolParam(prefix)],
  });

/** The most recent NBBO quote of a stock. */
export const lastQuote = defineOperation({
  name: 'getLastQuote',
  path: '/v2/last/nbbo/{ticker}',
  paging: 'none',
  doc: 'The most recent NBBO quote of a stock.',
  params: [symbolParam()],
});

/** The last quote of a currency pair. */
export const lastForexQuote = defineOperation({
  name: 'getLastQuote',
  path: '/v1/last_quote/currencies/{from}/{to}',
  paging: 'none',
  doc: 'The last quote tick of a currency pair.',
  params: pairParams,
});

/** The last trade of a crypto pair. */
export const lastCryptoTrade = defineOperation({
  name: 'getLastTrade',
  path: '/v1/last/crypto/{from}/{to}',
  paging: 'none',
  doc: 'The last trade of a crypto pair.',
  params: pairParams,
});

/** Real-time currency conversion, in either direction of a pair. */
export const currencyConversion = defineOperation({
  name: 'realTimeCurrencyConversion',
  path: '/v1/conversion/{from}/{to}',
  paging: 'none',
  doc: 'Converts an amount from one currency to another at the latest rate.',
  params: [
    ...pairParams,
    {
      name: 'amount',
      wire: 'amount',
      in: 'query',
      type: t.number(0),
      required: true,
      doc: 'Amount of fromSymbol to convert.',
    },
    {
      name: 'precision',
      wire: 'precision',
      in: 'query',
      type: t.int(0, 4),
      default: 2,
      doc: 'Decimal places of the result (0 to 4).',
    },
  ],
});
