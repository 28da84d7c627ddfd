/**
 * The option symbol formats and the names callers may use for them.
 */

import { InvalidParameterError } from '../core/errors.js';

/**
 * Codes of the option symbol formats, shown for an AMD call expiring 2022-01-21 with strike 100.5:
 *
 * | code | layout | example |
 * | --- | --- | --- |
 * | `polygon` (native) | optional `O:`, root, `YYMMDD`, `C`/`P`, strike × 1000 as 8 digits | `O:AMD220121C00100500` |
 * | `tradier` | as `polygon`, never with `O:` | `AMD220121C00100500` |
 * | `tda` | root, `_`, `MMDDYY`, `C`/`P`, decimal strike | `AMD_012122C100.5` |
 * | `tos` | `.`, root, `YYMMDD`, `C`/`P`, decimal strike (thinkorswim's own order) | `.AMD220121C100.5` |
 * | `ibkr` | root, one space, `YYMMDD`, `C`/`P`, strike × 1000 as 8 digits | `AMD 220121C00100500` |
 * | `trade_station` | root, one space, `YYMMDD`, `C`/`P`, decimal strike | `AMD 220121C100.5` |
 * | `occ` | OCC/OSI: root padded with spaces to 6, `YYMMDD`, `C`/`P`, strike × 1000 as 8 digits | `AMD   220121C00100500` |
 *
 * A decimal strike is written without leading zeros and without trailing zeros in its fraction
 * (`100`, `100.5`, `0.5`, `15.003`).
 */
export const OptionSymbolFormat = {
  /** The service's own format (the default). */
  Polygon: 'polygon',
  /** Alias of {@link OptionSymbolFormat.Polygon}: the SPEC calls the service's format `native`. */
  Native: 'polygon',
  /** Tradier: the native layout without the `O:` prefix. */
  Tradier: 'tradier',
  /** TD Ameritrade: `AMD_012122C100`. */
  Tda: 'tda',
  /** thinkorswim: `.AMD220121C100`. */
  Tos: 'tos',
  /** Interactive Brokers: `AMD 220121C00100000`. */
  Ibkr: 'ibkr',
  /** TradeStation: `AMD 220121C100`. */
  TradeStation: 'trade_station',
  /** OCC / OSI standard: `AMD   220121C00100000`. */
  Occ: 'occ',
} as const;

/** A canonical option symbol format code. */
export type OptionSymbolFormatCode = (typeof OptionSymbolFormat)[keyof typeof OptionSymbolFormat];

/**
 * Other names accepted wherever a format is asked for: `native` (the SPEC's name of `polygon`),
 * `broker_1`…`broker_5` (the SPEC's placeholders, in the order tradier, tda, tos, ibkr, trade_station)
 * and `tos1` (the reference library's name of thinkorswim's real date order, which `tos` uses here).
 */
export type OptionSymbolFormatAlias =
  | 'native'
  | 'broker_1'
  | 'broker_2'
  | 'broker_3'
  | 'broker_4'
  | 'broker_5'
  | 'tos1';

/** Any name of a format: a code or an alias. Case does not matter. */
export type OptionSymbolFormatName = OptionSymbolFormatCode | OptionSymbolFormatAlias;

/** Every canonical code, in the order detection reports them. */
export const OPTION_SYMBOL_FORMATS: readonly OptionSymbolFormatCode[] = [
  'polygon',
  'tradier',
  'occ',
  'tda',
  'tos',
  'ibkr',
  'trade_station',
];

const ALIASES: Readonly<Record<string, OptionSymbolFormatCode>> = {
  native: 'polygon',
  broker_1: 'tradier',
  broker_2: 'tda',
  broker_3: 'tos',
  broker_4: 'ibkr',
  broker_5: 'trade_station',
  tos1: 'tos',
};

/**
 * The canonical code of a format name.
 *
 * @param format - a code or an alias, in any case.
 * @param parameter - the caller's name of the argument, used in the error message.
 * @throws {@link InvalidParameterError} when the name is not a known format.
 */
export function resolveOptionSymbolFormat(format: unknown, parameter = 'format'): OptionSymbolFormatCode {
  if (typeof format === 'string') {
    const name = format.toLowerCase();
    if ((OPTION_SYMBOL_FORMATS as readonly string[]).includes(name)) return name as OptionSymbolFormatCode;
    const alias = ALIASES[name];
    if (alias) return alias;
  }
  throw new InvalidParameterError(
    parameter,
    format,
    `allowed formats are ${OPTION_SYMBOL_FORMATS.join(', ')} (aliases: ${Object.keys(ALIASES).join(', ')})`,
  );
}
