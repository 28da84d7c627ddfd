/**
 * Parsing option symbols into their parts.
 */

import { InvalidParameterError } from '../core/errors.js';
import { type OptionSymbolFormatName, resolveOptionSymbolFormat } from './formats.js';
import { OptionSymbol, type OptionSymbolFields, type OptionSymbolList } from './option-symbol.js';

/** Shape of the result of {@link parseOptionSymbol}. */
export type ParseOutputFormat = 'object' | 'dict' | 'list';

/** How the expiry of every output is given: a `Date` at 00:00 UTC or `YYYY-MM-DD`. */
export type ExpiryFormat = 'date' | 'string';

/** Options of {@link parsePolygonOptionSymbol}. */
export interface ParsePolygonOptionSymbolOptions {
  /**
   * `object`: an {@link OptionSymbol}; `dict`: a plain {@link OptionSymbolFields} object; `list`: an
   * {@link OptionSymbolList}.
   * @default 'object'
   */
  outputFormat?: ParseOutputFormat | undefined;
  /**
   * Expiry of every output: `date` gives a `Date` at 00:00 UTC, `string` gives `YYYY-MM-DD`. An
   * {@link OptionSymbol} has `expiryString` besides, whatever the format.
   * @default 'date'
   */
  expiryFormat?: ExpiryFormat | undefined;
}

/** Options of {@link parseOptionSymbol}. */
export interface ParseOptionSymbolOptions extends ParsePolygonOptionSymbolOptions {
  /**
   * Format of the symbol (a code or an alias).
   * @default 'polygon'
   */
  format?: OptionSymbolFormatName | undefined;
}

type ExpiryOf<O> = O extends { expiryFormat: 'string' } ? string : Date;

/** What {@link parseOptionSymbol} returns for the given options. */
export type ParsedOptionSymbol<O extends ParsePolygonOptionSymbolOptions> = O extends { outputFormat: 'dict' }
  ? OptionSymbolFields<ExpiryOf<O>>
  : O extends { outputFormat: 'list' }
    ? OptionSymbolList<ExpiryOf<O>>
    : O extends { outputFormat: 'object' }
      ? OptionSymbol<ExpiryOf<O>>
      : O extends { outputFormat: ParseOutputFormat }
        ? OptionSymbol<ExpiryOf<O>> | OptionSymbolFields<ExpiryOf<O>> | OptionSymbolList<ExpiryOf<O>>
        : OptionSymbol<ExpiryOf<O>>;

function shape(
  optionSymbol: string,
  format: OptionSymbolFormatName,
  options: ParsePolygonOptionSymbolOptions,
): unknown {
  const expiryFormat = options.expiryFormat ?? 'date';
  const symbol = new OptionSymbol(optionSymbol, format, { expiryFormat: expiryFormat as 'date' });
  const outputFormat = options.outputFormat ?? 'object';
  if (outputFormat === 'object') return symbol;
  const fields = symbol.toFields(expiryFormat);
  if (outputFormat === 'dict') return fields;
  if (outputFormat === 'list') {
    return [
      fields.underlyingSymbol,
      fields.expiry,
      fields.callOrPut,
      fields.strikePrice,
      fields.optionSymbol,
    ];
  }
  throw new InvalidParameterError('outputFormat', outputFormat, "allowed: 'object', 'dict' or 'list'");
}

/**
 * Parses an option symbol. Parsing is strict: the whole symbol must have the format's layout, the
 * expiry must be a calendar day (two-digit years are 20YY) and the strike must be positive. Case does
 * not matter on input; every output is upper case.
 *
 * @param optionSymbol - the symbol; in the polygon format with or without `O:` (in any case).
 * @throws {@link InvalidParameterError} when the symbol is not one of the format, naming why, or for an
 *   unknown format, output format or expiry format.
 *
 * @example
 * parseOptionSymbol('O:AMD220121C00100500').strikePrice; // 100.5
 * parseOptionSymbol('AMD_012122P2.5', { format: 'tda', outputFormat: 'dict', expiryFormat: 'string' });
 * // { underlyingSymbol: 'AMD', strikePrice: 2.5, expiry: '2022-01-21', callOrPut: 'P', optionSymbol: 'AMD_012122P2.5' }
 */
export function parseOptionSymbol<const O extends ParseOptionSymbolOptions = {}>(
  optionSymbol: string,
  options?: O,
): ParsedOptionSymbol<O> {
  const o: ParseOptionSymbolOptions = options ?? {};
  const format = resolveOptionSymbolFormat(o.format ?? 'polygon', 'format');
  return shape(optionSymbol, format, o) as ParsedOptionSymbol<O>;
}

/**
 * Parses a symbol of the service's own (`polygon`) format, with or without `O:`. Outputs and errors as
 * for {@link parseOptionSymbol}.
 */
export function parsePolygonOptionSymbol<const O extends ParsePolygonOptionSymbolOptions = {}>(
  optionSymbol: string,
  options?: O,
): ParsedOptionSymbol<O> {
  const o: ParsePolygonOptionSymbolOptions = options ?? {};
  return shape(optionSymbol, 'polygon', o) as ParsedOptionSymbol<O>;
}
