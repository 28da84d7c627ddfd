import { defineOperation, t } from '../core/operation.js';
import {
  enumFilters,
  filterWithRange,
  limitParam,
  orderParam,
  rangeFilters,
  sortBy,
  sortParam,
} from './common.js';

const TICKER_TYPES = [
  'CS',
  'ADRC',
  'ADRP',
  'ADRR',
  'UNIT',
  'RIGHT',
  'PFD',
  'FUND',
  'SP',
  'WARRANT',
  'INDEX',
  'ETF',
  'ETN',
  'OS',
  'GDR',
  'OTHER',
  'NYRS',
  'AGEN',
  'EQLK',
  'BOND',
  'ADRW',
  'BASKET',
  'LT',
] as const;

/** Option contracts by filter. */
export const optionContracts = defineOperation({
  name: 'getOptionContracts',
  path: '/v3/reference/options/contracts',
  paging: 'next_url',
  doc: 'Option contracts matching the filters: underlying, contract type, expiration, strike, as of a date.',
  params: [
    ...filterWithRange('underlyingTicker', 'underlying_ticker', t.ticker(), 'Underlying ticker.', t.string()),
    { name: 'ticker', wire: 'ticker', in: 'query', type: t.ticker('O:'), doc: 'One contract ticker.' },
    {
      name: 'contractType',
      wire: 'contract_type',
      in: 'query',
      type: t.enum(['call', 'put']),
      doc: 'call or put.',
    },
    ...filterWithRange('expirationDate', 'expiration_date', t.date(), 'Exact expiration date.', t.date()),
    ...filterWithRange('strikePrice', 'strike_price', t.number(0), 'Exact strike price.', t.number(0)),
    { name: 'asOf', wire: 'as_of', in: 'query', type: t.date(), doc: 'Contracts as they were on this date.' },
    {
      name: 'expired',
      wire: 'expired',
      in: 'query',
      type: t.boolean(),
      default: false,
      doc: 'Expired contracts instead of active ones.',
    },
    orderParam('asc'),
    sortParam(['ticker', 'underlying_ticker', 'expiration_date', 'strike_price'], 'expiration_date'),
    limitParam(1000, 1000),
  ],
});

/** One option contract. */
export const optionContract = defineOperation({
  name: 'getOptionContract',
  path: '/v3/reference/options/contracts/{options_ticker}',
  paging: 'none',
  doc: 'One option contract by ticker (`O:` optional).',
  params: [
    {
      name: 'ticker',
      wire: 'options_ticker',
      in: 'path',
      type: t.ticker('O:'),
      required: true,
      doc: 'Contract ticker.',
    },
    { name: 'asOf', wire: 'as_of', in: 'query', type: t.date(), doc: 'The contract as it was on this date.' },
  ],
});

/** Tickers by filter. */
export const tickers = defineOperation({
  name: 'getTickers',
  path: '/v3/reference/tickers',
  paging: 'next_url',
  doc: 'Tickers of every asset class, filtered by ticker range, type, market, exchange, search text.',
  params: [
    { name: 'symbol', wire: 'ticker', in: 'query', type: t.ticker(), doc: 'Exact ticker.' },
    ...rangeFilters('ticker', 'ticker', t.string()),
    {
      name: 'symbolType',
      wire: 'type',
      in: 'query',
      type: t.enum(TICKER_TYPES),
      doc: 'Type, e.g. CS or ETF.',
    },
    {
      name: 'market',
      wire: 'market',
      in: 'query',
      type: t.enum(['stocks', 'crypto', 'fx', 'otc', 'indices']),
      doc: 'Market.',
    },
    { name: 'exchange', wire: 'exchange', in: 'query', type: t.string(), doc: 'Primary exchange (MIC).' },
    { name: 'cusip', wire: 'cusip', in: 'query', type: t.string(), doc: 'CUSIP.' },
    { name: 'cik', wire: 'cik', in: 'query', type: t.string(), doc: 'CIK.' },
    { name: 'date', wire: 'date', in: 'query', type: t.date(), doc: 'Tickers as they were on this date.' },
    { name: 'search', wire: 'search', in: 'query', type: t.string(), doc: 'Text in the ticker or name.' },
    {
      name: 'active',
      wire: 'active',
      in: 'query',
      type: t.boolean(),
      default: true,
      doc: 'Active tickers (false: delisted).',
    },
    sortParam(
      [
        'ticker',
        'name',
        'market',
        'locale',
        'primary_exchange',
        'type',
        'currency_symbol',
        'currency_name',
        'base_currency_symbol',
        'base_currency_name',
        'cik',
        'composite_figi',
        'share_class_figi',
        'last_updated_utc',
        'delisted_utc',
      ],
      'ticker',
    ),
    orderParam('asc'),
    limitParam(1000, 1000),
  ],
});

/** Details of one ticker. */
export const tickerDetails = defineOperation({
  name: 'getTickerDetails',
  path: '/v3/reference/tickers/{ticker}',
  paging: 'none',
  doc: 'Details of one ticker: name, market, exchange, identifiers, listing date.',
  params: [
    { name: 'symbol', wire: 'ticker', in: 'path', type: t.ticker(), required: true, doc: 'Ticker.' },
    { name: 'date', wire: 'date', in: 'query', type: t.date(), doc: 'Details as they were on this date.' },
  ],
});

/** Ticker types. */
export const tickerTypes = defineOperation({
  name: 'getTickerTypes',
  path: '/v3/reference/tickers/types',
  paging: 'none',
  doc: 'The ticker types the service knows, with their codes.',
  params: [
    {
      name: 'assetClass',
      wire: 'asset_class',
      in: 'query',
      type: t.enum(['stocks', 'options', 'crypto', 'fx', 'indices']),
      doc: 'Asset class.',
    },
    { name: 'locale', wire: 'locale', in: 'query', type: t.enum(['us', 'global']), doc: 'Locale.' },
  ],
});

/** News articles. */
export const tickerNews = defineOperation({
  name: 'getTickerNews',
  path: '/v2/reference/news',
  paging: 'next_url',
  doc: 'News articles, optionally about one ticker, by publication time.',
  params: [
    { name: 'symbol', wire: 'ticker', in: 'query', type: t.ticker(), doc: 'Ticker the articles are about.' },
    ...rangeFilters('ticker', 'ticker', t.string()),
    ...filterWithRange('publishedUtc', 'published_utc', t.date(), 'Publication date.', t.date()),
    orderParam('desc'),
    sortParam(['published_utc'], 'published_utc'),
    limitParam(1000, 1000),
  ],
});

/** Cash dividends. */
export const dividends = defineOperation({
  name: 'getStockDividends',
  path: '/v3/reference/dividends',
  paging: 'next_url',
  doc: 'Cash dividends, filtered by ticker, dates, frequency and amount.',
  params: [
    ...filterWithRange('ticker', 'ticker', t.ticker(), 'Ticker.', t.string()),
    ...filterWithRange('exDividendDate', 'ex_dividend_date', t.date(), 'Ex-dividend date.', t.date()),
    ...filterWithRange('recordDate', 'record_date', t.date(), 'Record date.', t.date()),
    ...filterWithRange('declarationDate', 'declaration_date', t.date(), 'Declaration date.', t.date()),
    ...filterWithRange('payDate', 'pay_date', t.date(), 'Pay date.', t.date()),
    {
      name: 'frequency',
      wire: 'frequency',
      in: 'query',
      type: t.int(0, 52),
      doc: 'Payments per year (0 one-time, 1, 2, 4, 12, 24, 52 weekly).',
    },
    ...filterWithRange('cashAmount', 'cash_amount', t.number(0), 'Cash amount per share.', t.number(0)),
    {
      name: 'dividendType',
      wire: 'dividend_type',
      in: 'query',
      type: t.enum(['CD', 'SC', 'LT', 'ST']),
      doc: 'Dividend type.',
    },
    sortParam(
      ['ex_dividend_date', 'pay_date', 'declaration_date', 'record_date', 'cash_amount', 'ticker'],
      'pay_date',
    ),
    orderParam('asc'),
    limitParam(1000, 1000),
  ],
});

/** Stock splits. */
export const splits = defineOperation({
  name: 'getStockSplits',
  path: '/v3/reference/splits',
  paging: 'next_url',
  doc: 'Stock splits, filtered by ticker and execution date.',
  params: [
    ...filterWithRange('ticker', 'ticker', t.ticker(), 'Ticker.', t.string()),
    ...filterWithRange('executionDate', 'execution_date', t.date(), 'Execution date.', t.date()),
    {
      name: 'reverseSplit',
      wire: 'reverse_split',
      in: 'query',
      type: t.boolean(),
      doc: 'Only reverse splits (true) or only forward splits (false).',
    },
    orderParam('asc'),
    sortParam(['execution_date', 'ticker'], 'execution_date'),
    limitParam(1000, 1000),
  ],
});

/** Market status now. */
export const marketStatus = defineOperation({
  name: 'getMarketStatus',
  path: '/v1/marketstatus/now',
  paging: 'none',
  doc: 'Whether the markets are open, closed or in extended hours right now.',
  params: [],
});

/** Upcoming market holidays. */
export const marketHolidays = defineOperation({
  name: 'getMarketHolidays',
  path: '/v1/marketstatus/upcoming',
  paging: 'none',
  doc: 'Upcoming market holidays and early closes.',
  params: [],
});

/** Trade and quote conditions. */
export const conditions = defineOperation({
  name: 'getConditions',
  path: '/v3/reference/conditions',
  paging: 'next_url',
  doc: 'Trade and quote condition codes and what they mean.',
  params: [
    {
      name: 'assetClass',
      wire: 'asset_class',
      in: 'query',
      type: t.enum(['stocks', 'options', 'crypto', 'fx']),
      doc: 'Asset class.',
    },
    {
      name: 'dataType',
      wire: 'data_type',
      in: 'query',
      type: t.enum(['trade', 'bbo', 'nbbo']),
      doc: 'Data type.',
    },
    { name: 'conditionId', wire: 'id', in: 'query', type: t.int(0), doc: 'One condition id.' },
    { name: 'sip', wire: 'sip', in: 'query', type: t.enum(['CTA', 'UTP', 'OPRA']), doc: 'SIP.' },
    orderParam(),
    sortParam(['asset_class', 'id', 'type', 'name', 'data_types', 'legacy'], 'name'),
    limitParam(50, 1000),
  ],
});

/** Exchanges. */
export const exchanges = defineOperation({
  name: 'getExchanges',
  path: '/v3/reference/exchanges',
  paging: 'none',
  doc: 'Exchanges and their identifiers.',
  params: [
    {
      name: 'assetClass',
      wire: 'asset_class',
      in: 'query',
      type: t.enum(['stocks', 'options', 'crypto', 'fx', 'futures']),
      doc: 'Asset class.',
    },
    { name: 'locale', wire: 'locale', in: 'query', type: t.enum(['us', 'global']), doc: 'Locale.' },
  ],
});

/** Financial statements from SEC filings (experimental vX endpoint). */
export const stockFinancials = defineOperation({
  name: 'getStockFinancialsVx',
  path: '/vX/reference/financials',
  paging: 'next_url',
  doc: 'Balance sheets, income, cash flow and comprehensive income statements from SEC filings (experimental).',
  params: [
    { name: 'ticker', wire: 'ticker', in: 'query', type: t.ticker(), doc: 'Ticker.' },
    { name: 'cik', wire: 'cik', in: 'query', type: t.string(), doc: 'CIK of the company.' },
    { name: 'companyName', wire: 'company_name', in: 'query', type: t.string(), doc: 'Exact company name.' },
    {
      name: 'companyNameSearch',
      wire: 'company_name.search',
      in: 'query',
      type: t.string(),
      doc: 'Text in the company name.',
    },
    {
      name: 'sic',
      wire: 'sic',
      in: 'query',
      type: t.string(),
      doc: 'Standard Industrial Classification code.',
    },
    ...filterWithRange('filingDate', 'filing_date', t.date(), 'Filing date.', t.date()),
    ...filterWithRange(
      'periodOfReportDate',
      'period_of_report_date',
      t.date(),
      'Period-of-report date.',
      t.date(),
    ),
    {
      name: 'timeFrame',
      wire: 'timeframe',
      in: 'query',
      type: t.enum(['annual', 'quarterly', 'ttm']),
      doc: 'annual, quarterly or ttm (trailing twelve months).',
    },
    {
      name: 'includeSources',
      wire: 'include_sources',
      in: 'query',
      type: t.boolean(),
      default: false,
      doc: 'Add the XBRL source of each value.',
    },
    orderParam('asc'),
    limitParam(50, 100),
    sortParam(['filing_date', 'period_of_report_date'], 'filing_date'),
  ],
});

/** Ticker change events of a company (experimental vX endpoint). */
export const tickerEvents = defineOperation({
  name: 'getTickerEvents',
  path: '/vX/reference/tickers/{id}/events',
  paging: 'none',
  doc: 'The ticker changes of a company over time (experimental), newest first.',
  params: [
    {
      name: 'id',
      wire: 'id',
      in: 'path',
      type: t.string(),
      required: true,
      doc: 'Ticker, CUSIP or Composite FIGI of the company.',
    },
    {
      name: 'types',
      wire: 'types',
      in: 'query',
      type: t.list(),
      doc: 'Event types to include (ticker_change); all when omitted.',
    },
  ],
});

/** Cash dividends, the newer stocks endpoint. */
export const stockDividendsV1 = defineOperation({
  name: 'getDividends',
  path: '/stocks/v1/dividends',
  paging: 'next_url',
  doc: 'Cash dividends with split-adjusted amounts, filtered by ticker, ex-dividend date, frequency and type.',
  params: [
    ...filterWithRange('ticker', 'ticker', t.ticker(), 'Ticker.', t.string()),
    { name: 'tickers', wire: 'ticker.any_of', in: 'query', type: t.list(250), doc: 'Any of these tickers.' },
    ...filterWithRange('exDividendDate', 'ex_dividend_date', t.date(), 'Ex-dividend date.', t.date()),
    ...filterWithRange('frequency', 'frequency', t.int(0, 52), 'Payments per year.', t.number(0, 52)),
    {
      name: 'distributionType',
      wire: 'distribution_type',
      in: 'query',
      type: t.enum(['recurring', 'special', 'supplemental', 'irregular', 'unknown']),
      doc: 'Kind of distribution.',
    },
    limitParam(100, 5000),
    {
      name: 'sort',
      wire: 'sort',
      in: 'query',
      type: t.string(),
      doc: 'Field and direction, e.g. `ex_dividend_date.desc` (default `ticker.asc`).',
    },
  ],
});

/** Stock splits, the newer stocks endpoint. */
export const stockSplitsV1 = defineOperation({
  name: 'getSplits',
  path: '/stocks/v1/splits',
  paging: 'next_url',
  doc: 'Splits with their adjustment type and historical adjustment factor, by ticker and execution date.',
  params: [
    ...filterWithRange('ticker', 'ticker', t.ticker(), 'Ticker.', t.string()),
    { name: 'tickers', wire: 'ticker.any_of', in: 'query', type: t.list(250), doc: 'Any of these tickers.' },
    ...filterWithRange('executionDate', 'execution_date', t.date(), 'Execution date.', t.date()),
    {
      name: 'adjustmentType',
      wire: 'adjustment_type',
      in: 'query',
      type: t.enum(['forward_split', 'reverse_split', 'stock_dividend']),
      doc: 'Kind of split.',
    },
    limitParam(100, 5000),
    {
      name: 'sort',
      wire: 'sort',
      in: 'query',
      type: t.string(),
      doc: 'Field and direction, e.g. `execution_date.asc` (default `execution_date.desc`).',
    },
  ],
});

/** Stock exchanges, the newer stocks endpoint. */
export const stockExchangesV1 = defineOperation({
  name: 'getExchanges',
  path: '/stocks/v1/exchanges',
  paging: 'none',
  doc: 'US stock exchanges, trade reporting facilities and the SIPs, with their identifiers.',
  params: [limitParam(100, 1000)],
});

/** Venues of one market, the newer endpoints beside the stocks one (`/crypto/v1/exchanges`, …). */
const marketExchangesV1 = (market: 'crypto' | 'forex' | 'options') =>
  defineOperation({
    name: 'getExchanges',
    path: `/${market}/v1/exchanges`,
    paging: 'none',
    doc: `The ${market} venues, with their identifiers.`,
    params: [limitParam(100, 1000)],
  });
export const cryptoExchangesV1 = marketExchangesV1('crypto');
export const forexExchangesV1 = marketExchangesV1('forex');
export const optionsExchangesV1 = marketExchangesV1('options');

/** Companies related to a ticker. */
export const relatedCompanies = defineOperation({
  name: 'getRelatedCompanies',
  path: '/v1/related-companies/{ticker}',
  paging: 'none',
  doc: 'Tickers of companies related to one, by news and returns.',
  params: [{ name: 'symbol', wire: 'ticker', in: 'path', type: t.ticker(), required: true, doc: 'Ticker.' }],
});

/** The states of an offering. */
const IPO_STATUSES = [
  'direct_listing_process',
  'history',
  'new',
  'pending',
  'postponed',
  'rumor',
  'withdrawn',
] as const;

/** The fields the IPOs listings sort by. */
const IPO_SORT_COLUMNS = [
  'listing_date',
  'ticker',
  'last_updated',
  'security_type',
  'issuer_name',
  'currency_code',
  'isin',
  'us_code',
  'final_issue_price',
  'min_shares_offered',
  'max_shares_offered',
  'lowest_offer_price',
  'highest_offer_price',
  'total_offer_size',
  'shares_outstanding',
  'primary_exchange',
  'lot_size',
  'security_description',
  'ipo_status',
  'announced_date',
] as const;

/** Initial public offerings (experimental vX endpoint). */
export const ipos = defineOperation({
  name: 'getIpos',
  path: '/vX/reference/ipos',
  paging: 'next_url',
  doc: 'Initial public offerings: announced, pending, listed, withdrawn (experimental).',
  params: [
    { name: 'ticker', wire: 'ticker', in: 'query', type: t.ticker(), doc: 'Ticker.' },
    { name: 'usCode', wire: 'us_code', in: 'query', type: t.string(), doc: 'CUSIP-like US code.' },
    { name: 'isin', wire: 'isin', in: 'query', type: t.string(), doc: 'ISIN.' },
    ...filterWithRange('listingDate', 'listing_date', t.date(), 'Listing date.', t.date()),
    {
      name: 'ipoStatus',
      wire: 'ipo_status',
      in: 'query',
      type: t.enum(IPO_STATUSES),
      doc: 'Status of the offering.',
    },
    orderParam('desc'),
    limitParam(10, 1000),
    sortParam(IPO_SORT_COLUMNS, 'listing_date'),
  ],
});

/** `<wire>.any_of`: a comma-separated list of values (upper-cased, as codes and tickers are). */
const anyOfParam = <const N extends string, const W extends string>(name: N, wire: W, what: string) =>
  ({
    name: `${name}AnyOf`,
    wire: `${wire}.any_of`,
    in: 'query',
    type: t.list(),
    doc: `Any of these ${what}.`,
  }) as const;

/** Initial public offerings, the v1 endpoint: `.any_of` and range filters, a multi-column sort. */
export const iposV1 = defineOperation({
  name: 'getIposV1',
  path: '/v1/reference/ipos',
  paging: 'next_url',
  doc: 'Initial public offerings and direct listings: announced, pending, listed, withdrawn.',
  params: [
    ...filterWithRange('ticker', 'ticker', t.ticker(), 'Ticker.', t.string()),
    anyOfParam('ticker', 'ticker', 'tickers'),
    ...filterWithRange('usCode', 'us_code', t.string(), 'CUSIP-like US code.', t.string()),
    anyOfParam('usCode', 'us_code', 'US codes'),
    ...filterWithRange('isin', 'isin', t.string(), 'ISIN.', t.string()),
    anyOfParam('isin', 'isin', 'ISINs'),
    ...filterWithRange('listingDate', 'listing_date', t.date(), 'Listing date.', t.date()),
    ...enumFilters('ipoStatus', 'ipo_status', IPO_STATUSES),
    limitParam(10, 1000),
    sortBy(IPO_SORT_COLUMNS, 'listing_date.desc'),
  ],
});
