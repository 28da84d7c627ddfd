import type { LeanFile } from './lean-paths.js';
import type { LeanDate } from './local-time.js';

/**
 * Why a zip entry's name does not fit the file it is in, or undefined when it does. Every Lean entry
 * is named for its file's ticker and, in a file of one day, that date, first
 * (`20131008_aapl_minute_trade.csv`, `aapl.csv`, `20131007_es_minute_trade_201312.csv`,
 * `20230803_spy_minute_quote_american_call_4300000_20230901.csv`): the path gives a file's identity and
 * the entry repeats it (an option or futures entry adds its contract). An entry named for another ticker
 * or day (`aapl.zip` holding `20131008_msft_minute_trade.csv`) contradicts its path, and which of the
 * two is right cannot be told: it is refused rather than stored under either.
 */
export function entryNameProblem(desc: LeanFile, entry: string): string | undefined {
  const identity = identityOf(desc);
  if (identity === undefined) return undefined;
  const { ticker, date } = identity;
  const base = (entry.split('/').pop() as string).replace(/\.csv$/i, '');
  const parts = base.split('_');
  const expected = `${date === undefined ? '' : `${date}_`}${ticker.toLowerCase()}`;
  const named = date === undefined ? parts[0] : parts[1];
  if (date !== undefined && !/^\d{8}$/.test(parts[0] as string)) {
    return `the entry's name does not begin with the file's date and ticker (${expected}_…), as Lean names its entries`;
  }
  if (named === undefined || named.toUpperCase() !== ticker) {
    return `the entry is named for ${named ? named.toUpperCase() : 'no ticker'}, but the file's path is ${ticker}'s (its entries are named ${expected}…); nothing of the file is stored under either`;
  }
  if (date !== undefined && parts[0] !== date) {
    return `the entry is named for ${parts[0]}, but the file's path is of ${date} (its entries are named ${expected}…); nothing of the file is stored under either`;
  }
  return undefined;
}

/** The ticker (upper case, no market prefix) and the day (`YYYYMMDD`, for files of one day) a path gives. */
function identityOf(desc: LeanFile): { ticker: string; date: string | undefined } | undefined {
  switch (desc.kind) {
    case 'factor-file':
    case 'map-file':
      return undefined;
    case 'option':
      return { ticker: desc.underlying, date: dayOf(desc.date) };
    case 'future':
      return { ticker: desc.product, date: dayOf(desc.date) };
    default:
      return { ticker: desc.ticker.replace(/^[A-Z]:/, ''), date: dayOf(desc.date) };
  }
}

function dayOf(date: LeanDate | undefined): string | undefined {
  if (date === undefined) return undefined;
  return `${date.year}${String(date.month).padStart(2, '0')}${String(date.day).padStart(2, '0')}`;
}
