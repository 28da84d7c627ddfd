/**
 * The option type letter.
 */

import { InvalidParameterError } from '../core/errors.js';

/** Call or put, as every layout writes it. */
export type OptionType = 'C' | 'P';

/** Accepted spellings of the option type; any case (`Call`, `PUT`) is accepted too. */
export type CallOrPutInput = 'call' | 'put' | 'c' | 'p' | 'CALL' | 'PUT' | 'C' | 'P' | (string & {});

/**
 * `C` or `P` from `call`, `put`, `c` or `p` in any case.
 *
 * @throws {@link InvalidParameterError} for any other value: nothing defaults to put.
 */
export function normalizeCallOrPut(callOrPut: unknown, parameter = 'callOrPut'): OptionType {
  if (typeof callOrPut === 'string') {
    const v = callOrPut.toLowerCase();
    if (v === 'c' || v === 'call') return 'C';
    if (v === 'p' || v === 'put') return 'P';
  }
  throw new InvalidParameterError(parameter, callOrPut, "allowed: 'call', 'put', 'c' or 'p', in any case");
}
