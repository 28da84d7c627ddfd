/** The server's query layer over the store: bars, daily sessions, last values and "now". */
export {
  type Bar,
  type BarPage,
  type BarQuery,
  barsOfTickers,
  queryBars,
  type TickersBarQuery,
} from './bars.js';
export { dayBarStamp, dayBarStamps } from './day-stamp.js';
export {
  type BarQuote,
  firstDataTime,
  lastBarClose,
  lastBarCloses,
  lastQuote,
  lastQuoteBar,
  lastQuoteBars,
  lastQuotes,
  lastTrade,
  lastTrades,
  normaliseLists,
} from './last.js';
export { type AssetClass, assetClassOf, latestDataTime, latestDataTimes } from './now.js';
export {
  decimalString,
  priceDecimals,
  priceRounder,
  rounder,
  roundPrice,
  roundTo,
  roundVolume,
} from './precision.js';
export {
  type DailyOptions,
  dailyBar,
  dailyBars,
  type ExtendedHours,
  extendedHours,
  lastTimesBefore,
  previousSessionBar,
  type SessionBar,
} from './session.js';
export { marketTimeZone } from './time-zone.js';
export type { BarTimespan } from './windows.js';
