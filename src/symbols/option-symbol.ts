/**
 * A parsed option symbol.
 */

import { InvalidParameterError } from '../core/errors.js';
import { writeSymbol } from './build.js';
import type { OptionType } from './call-or-put.js';
import { calendarDayToDate, formatIsoDay } from './expiry.js';
import {
  type OptionSymbolFormatCode,
  type OptionSymbolFormatName,
  resolveOptionSymbolFormat,
} from './formats.js';
import { decodeContract, encodeContract, type OptionContract } from './layouts.js';
import { thousandthsToNumber } from './strike.js';

/** The parts of a parsed symbol as a plain object (the `dict` output of {@link parseOptionSymbol}). */
export interface OptionSymbolFields<E extends Date | string = Date> {
  /** Upper-case root, as written in the symbol (`AMD`, `SPY1`, `BRK.B`). */
  underlyingSymbol: string;
  /** The strike (`100.5`); exact, it prints as the symbol's decimal text. */
  strikePrice: number;
  /** Expiry: a `Date` at 00:00 UTC of the day, or a `YYYY-MM-DD` string. */
  expiry: E;
  callOrPut: OptionType;
  /** The symbol rewritten canonically in the format it was parsed from: upper case, without `O:`. */
  optionSymbol: string;
}

/** The parts of a parsed symbol as a list (the `list` output of {@link parseOptionSymbol}). */
export type OptionSymbolList<E extends Date | string = Date> = [
  underlyingSymbol: string,
  expiry: E,
  callOrPut: OptionType,
  strikePrice: number,
  optionSymbol: string,
];

/** Options of {@link OptionSymbol.toFormat}. */
export interface ToFormatOptions {
  /**
   * Prefix the symbol with `O:` (polygon format only).
   * @default false
   */
  prefixO?: boolean | undefined;
}

/** Options of the {@link OptionSymbol} constructor. */
export interface OptionSymbolOptions<F extends 'date' | 'string' = 'date'> {
  /**
   * `expiry` as a `Date` at 00:00 UTC (`date`) or as `YYYY-MM-DD` (`string`).
   * @default 'date'
   */
  expiryFormat?: F | undefined;
}

/**
 * An option symbol parsed into its parts; `E` is the type of `expiry` (see `expiryFormat`).
 *
 * @example
 * const s = new OptionSymbol('O:AMD220121C00100500');
 * s.underlyingSymbol; // 'AMD'
 * s.expiry; // Date 2022-01-21T00:00:00.000Z
 * s.strikePrice; // 100.5
 * s.toFormat('tda'); // 'AMD_012122C100.5'
 */
export class OptionSymbol<E extends Date | string = Date> {
  /** Upper-case root, kept exactly as the symbol writes it (digits and dots included). */
  readonly underlyingSymbol: string;
  /**
   * Expiry day at 00:00 UTC, or `YYYY-MM-DD` with `expiryFormat: 'string'`; the symbol's two-digit year
   * is read as 20YY.
   */
  readonly expiry: E;
  /** Expiry day as `YYYY-MM-DD`. */
  readonly expiryString: string;
  /** `C` or `P`. */
  readonly callOrPut: OptionType;
  /** The strike (`100.5`). */
  readonly strikePrice: number;
  /** The symbol rewritten canonically in {@link OptionSymbol.format}: upper case, without `O:`. */
  readonly optionSymbol: string;
  /** The format the symbol was parsed from. */
  readonly format: OptionSymbolFormatCode;
  readonly #contract: OptionContract;

  /**
   * Parses a symbol.
   *
   * @param optionSymbol - the symbol, in any case; in the polygon format with or without `O:`.
   * @param symbolFormat - its format (a code or an alias).
   * @default symbolFormat 'polygon'
   * @throws {@link InvalidParameterError} when the symbol is not one of that format, naming why, or for
   *   an unknown expiry format.
   */
  constructor(
    optionSymbol: string,
    symbolFormat: OptionSymbolFormatName = 'polygon',
    options: OptionSymbolOptions<E extends string ? 'string' : 'date'> = {},
  ) {
    const expiryFormat = options.expiryFormat ?? 'date';
    if (expiryFormat !== 'date' && expiryFormat !== 'string') {
      throw new InvalidParameterError('expiryFormat', expiryFormat, "allowed: 'date' or 'string'");
    }
    this.format = resolveOptionSymbolFormat(symbolFormat, 'symbolFormat');
    const contract = decodeContract(optionSymbol, this.format);
    this.#contract = contract;
    this.underlyingSymbol = contract.underlying;
    this.expiryString = formatIsoDay(contract.expiry);
    this.expiry = (expiryFormat === 'string' ? this.expiryString : calendarDayToDate(contract.expiry)) as E;
    this.callOrPut = contract.type;
    this.strikePrice = thousandthsToNumber(contract.strike);
    this.optionSymbol = encodeContract(contract, this.format);
  }

  /**
   * The same contract written in another format.
   *
   * @throws {@link InvalidParameterError} for an unknown format, `prefixO` outside the polygon format, or
   *   a root too long for the OCC format.
   */
  toFormat(format: OptionSymbolFormatName, options: ToFormatOptions = {}): string {
    return writeSymbol(this.#contract, format, options.prefixO);
  }

  /** The parts as a plain object, with the expiry as a `Date` or as `YYYY-MM-DD`. */
  toFields(): OptionSymbolFields<Date>;
  toFields<E extends 'date' | 'string'>(
    expiryFormat: E,
  ): OptionSymbolFields<E extends 'string' ? string : Date>;
  toFields(expiryFormat: 'date' | 'string' = 'date'): OptionSymbolFields<Date | string> {
    return {
      underlyingSymbol: this.underlyingSymbol,
      strikePrice: this.strikePrice,
      expiry: expiryFormat === 'string' ? this.expiryString : calendarDayToDate(this.#contract.expiry),
      callOrPut: this.callOrPut,
      optionSymbol: this.optionSymbol,
    };
  }

  /** The parts with the expiry as `YYYY-MM-DD`, so that `JSON.stringify` keeps the calendar day. */
  toJSON(): OptionSymbolFields<string> & { format: OptionSymbolFormatCode } {
    return { ...this.toFields('string'), format: this.format };
  }

  /** `Underlying Symbol: AMD || Expiry: 2022-01-21 || Type: C || Strike Price: 100.5`. */
  toString(): string {
    return `Underlying Symbol: ${this.underlyingSymbol} || Expiry: ${this.expiryString} || Type: ${this.callOrPut} || Strike Price: ${this.strikePrice}`;
  }
}
