/**
 * The fields of a reference record that listings filter and sort on, kept as columns of
 * `reference_records` beside the record's JSON text. Ingest reads them out of the record once; every
 * store then filters and sorts plain columns, with no JSON function (which the stores spell
 * differently, or lack) and no JSON parsing per row and query.
 */

/** The filtered and sorted fields of one record (NULL where the record has none). */
export interface RecordFields {
  /** `tickers` of news and financials; NULL for none. */
  tickers: string[] | null;
  ex_dividend_date: string | null;
  record_date: string | null;
  declaration_date: string | null;
  pay_date: string | null;
  cash_amount: number | null;
  frequency: number | null;
  /** A dividend's `dividend_type`, or the one its `distribution_type` implies. */
  dividend_type: string | null;
  /** A dividend's `distribution_type`, or the one its `dividend_type` and frequency imply. */
  distribution_type: string | null;
  cik: string | null;
  company_name: string | null;
  sic: string | null;
  timeframe: string | null;
  filing_date: string | null;
  end_date: string | null;
  us_code: string | null;
  isin: string | null;
  ipo_status: string | null;
  last_updated: string | null;
  issuer_name: string | null;
  announced_date: string | null;
  security_type: string | null;
  currency_code: string | null;
  primary_exchange: string | null;
  security_description: string | null;
  final_issue_price: number | null;
  min_shares_offered: number | null;
  max_shares_offered: number | null;
  lowest_offer_price: number | null;
  highest_offer_price: number | null;
  total_offer_size: number | null;
  shares_outstanding: number | null;
  lot_size: number | null;
}

/** The columns of {@link RecordFields}, in table order (after kind, id, ticker, date, body). */
export const RECORD_FIELD_COLUMNS = [
  'tickers',
  'ex_dividend_date',
  'record_date',
  'declaration_date',
  'pay_date',
  'cash_amount',
  'frequency',
  'dividend_type',
  'distribution_type',
  'cik',
  'company_name',
  'sic',
  'timeframe',
  'filing_date',
  'end_date',
  'us_code',
  'isin',
  'ipo_status',
  'last_updated',
  'issuer_name',
  'announced_date',
  'security_type',
  'currency_code',
  'primary_exchange',
  'security_description',
  'final_issue_price',
  'min_shares_offered',
  'max_shares_offered',
  'lowest_offer_price',
  'highest_offer_price',
  'total_offer_size',
  'shares_outstanding',
  'lot_size',
] as const satisfies readonly (keyof RecordFields)[];

type Json = Record<string, unknown>;

/** A field as text: a string as it is, another value as its JSON text. */
function asText(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** A field as a number: a finite number, or text that spells one; else NULL. */
function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(v)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A field as a 32-bit integer (rounded), else NULL. */
function asInteger(v: unknown): number | null {
  const n = asNumber(v);
  if (n === null) return null;
  const i = Math.round(n);
  return i >= -(2 ** 31) && i < 2 ** 31 ? i : null;
}

/** The dividend types the service counts as special distributions. */
const SPECIAL_TYPES = new Set(['SC', 'LT', 'ST']);

/** The filtered and sorted fields of a record of `kind`. */
export function recordFields(kind: string, r: Json): RecordFields {
  const text = (name: string) => asText(r[name]);
  const dividend = kind === 'dividends';
  const dividendType = text('dividend_type');
  const distributionType = text('distribution_type');
  const frequency = asInteger(r.frequency);
  const tickers = Array.isArray(r.tickers) ? r.tickers.map(asText).filter((t) => t !== null) : [];
  return {
    tickers: tickers.length > 0 ? tickers : null,
    ex_dividend_date: text('ex_dividend_date'),
    record_date: text('record_date'),
    declaration_date: text('declaration_date'),
    pay_date: text('pay_date'),
    cash_amount: asNumber(r.cash_amount),
    frequency,
    dividend_type: !dividend
      ? null
      : (dividendType ??
        (distributionType === 'special' || distributionType === 'supplemental' ? 'SC' : 'CD')),
    distribution_type: !dividend
      ? null
      : (distributionType ??
        (dividendType !== null && SPECIAL_TYPES.has(dividendType)
          ? 'special'
          : frequency !== null && frequency > 0
            ? 'recurring'
            : 'irregular')),
    cik: text('cik'),
    company_name: text('company_name'),
    sic: text('sic'),
    timeframe: text('timeframe'),
    filing_date: text('filing_date'),
    end_date: text('end_date'),
    us_code: text('us_code'),
    isin: text('isin'),
    ipo_status: text('ipo_status'),
    last_updated: text('last_updated'),
    issuer_name: text('issuer_name'),
    announced_date: text('announced_date'),
    security_type: text('security_type'),
    currency_code: text('currency_code'),
    primary_exchange: text('primary_exchange'),
    security_description: text('security_description'),
    final_issue_price: asNumber(r.final_issue_price),
    min_shares_offered: asNumber(r.min_shares_offered),
    max_shares_offered: asNumber(r.max_shares_offered),
    lowest_offer_price: asNumber(r.lowest_offer_price),
    highest_offer_price: asNumber(r.highest_offer_price),
    total_offer_size: asNumber(r.total_offer_size),
    shares_outstanding: asNumber(r.shares_outstanding),
    lot_size: asNumber(r.lot_size),
  };
}
