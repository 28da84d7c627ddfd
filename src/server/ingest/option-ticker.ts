import { type LeanDate, parseLeanDate } from './local-time.js';

/** An option contract as named by a Lean entry or an OCC-style ticker. */
export interface OptionContract {
  /** Underlying symbol, upper case (`SPY`, `SPX`). */
  underlying: string;
  right: 'call' | 'put';
  /** Strike in thousandths of a currency unit (430 USD → 430000). */
  strikeThousandths: number;
  expiry: LeanDate;
}

/**
 * The service's option ticker: `O:` + underlying + expiry `YYMMDD` + `C|P` + strike × 1000 as eight
 * digits (`O:SPY230901C00430000`).
 */
export function optionTicker(c: OptionContract): string {
  const yymmdd = `${String(c.expiry.year % 100).padStart(2, '0')}${String(c.expiry.month).padStart(2, '0')}${String(c.expiry.day).padStart(2, '0')}`;
  return `O:${c.underlying}${yymmdd}${c.right === 'call' ? 'C' : 'P'}${String(c.strikeThousandths).padStart(8, '0')}`;
}

const ENTRY = /_(american|european)_(call|put)_(\d+)_(\d{8})\.csv$/i;

/**
 * Reads the contract from a Lean option entry name, e.g.
 * `20230803_spy_minute_quote_american_call_4300000_20230901.csv` (strike in deci-cents: 430.00).
 * Returns undefined for a name that does not follow the pattern.
 */
export function parseOptionEntry(
  entry: string,
  underlying: string,
): (OptionContract & { style: 'american' | 'european' }) | undefined {
  const m = ENTRY.exec(entry);
  if (!m) return undefined;
  const expiry = parseLeanDate(m[4] as string);
  if (!expiry) return undefined;
  const deciCents = Number(m[3]);
  // deci-cents are 1/10,000; the ticker wants 1/1,000.
  const strikeThousandths = Math.round(deciCents / 10);
  if (!Number.isSafeInteger(strikeThousandths) || strikeThousandths > 99_999_999) return undefined;
  return {
    underlying: underlying.toUpperCase(),
    right: (m[2] as string).toLowerCase() as 'call' | 'put',
    strikeThousandths,
    expiry,
    style: (m[1] as string).toLowerCase() as 'american' | 'european',
  };
}

const OCC = /^O:([A-Z0-9.]+?)(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;

/** Parses the service's option ticker (`O:SPY230901C00430000`), or returns undefined. */
export function parseOptionTicker(ticker: string): OptionContract | undefined {
  const m = OCC.exec(ticker);
  if (!m) return undefined;
  const expiry = parseLeanDate(`20${m[2]}${m[3]}${m[4]}`);
  if (!expiry) return undefined;
  return {
    underlying: m[1] as string,
    right: m[5] === 'C' ? 'call' : 'put',
    strikeThousandths: Number(m[6]),
    expiry,
  };
}

/** Index underlyings whose options are European-style cash-settled. */
const EUROPEAN_UNDERLYINGS = new Set(['SPX', 'SPXW', 'NDX', 'NDXP', 'RUT', 'XSP', 'VIX', 'DJX']);

/** The exercise style of an underlying's options when the source does not say. */
export function defaultExerciseStyle(underlying: string): 'american' | 'european' {
  return EUROPEAN_UNDERLYINGS.has(underlying) ? 'european' : 'american';
}
