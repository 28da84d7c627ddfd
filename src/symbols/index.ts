/**
 * Option symbols: build, parse, convert and detect them in the service's own format and in the broker
 * formats (see {@link OptionSymbolFormat}). Pure functions; every output is upper case, expiries are
 * calendar days (two-digit years are 20YY) and strikes are exact thousandths.
 */

export {
  type BuildOptionSymbolOptions,
  type BuildPolygonOptionSymbolOptions,
  buildOptionSymbol,
  buildPolygonOptionSymbol,
  type StrikeInput,
} from './build.js';
export type { CallOrPutInput, OptionType } from './call-or-put.js';
export { type ConvertOptionSymbolOptions, convertOptionSymbolFormats } from './convert.js';
export { detectOptionSymbolFormat, detectOptionSymbolFormats } from './detect.js';
export type { ExpiryInput } from './expiry.js';
export {
  OPTION_SYMBOL_FORMATS,
  OptionSymbolFormat,
  type OptionSymbolFormatAlias,
  type OptionSymbolFormatCode,
  type OptionSymbolFormatName,
  resolveOptionSymbolFormat,
} from './formats.js';
export {
  type BuildFuturesTickerOptions,
  buildFuturesTicker,
  FUTURES_MONTH_CODES,
  type FuturesMonthCode,
  type FuturesTickerParts,
  futuresExpiryOf,
  futuresMonthCode,
  futuresMonthOfCode,
  futuresTickerFromExpiry,
  isFuturesTicker,
  normalizeFuturesTicker,
  type ParsedFuturesTicker,
  type ParseFuturesTickerOptions,
  parseFuturesTicker,
} from './futures-ticker.js';
export {
  type BuildOptionSymbolForTdaOptions,
  buildOptionSymbolForTda,
  type ConvertFromTdaOptions,
  convertFromPolygonToTdaFormat,
  convertFromTdaToPolygonFormat,
  parseOptionSymbolFromTda,
} from './legacy.js';
export {
  OptionSymbol,
  type OptionSymbolFields,
  type OptionSymbolList,
  type OptionSymbolOptions,
  type ToFormatOptions,
} from './option-symbol.js';
export {
  type ExpiryFormat,
  type ParsedOptionSymbol,
  type ParseOptionSymbolOptions,
  type ParseOutputFormat,
  type ParsePolygonOptionSymbolOptions,
  parseOptionSymbol,
  parsePolygonOptionSymbol,
} from './parse.js';
export { ensurePrefix, normalizeOptionTicker } from './prefix.js';
