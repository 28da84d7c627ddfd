import type { TickerRow } from '../store/rows.js';

/**
 * Reference rows for the tickers the data names. The data carries no company names; the few names here
 * are for the symbols that ship with the sample data and are otherwise left empty.
 */

const ETFS = new Set(['SPY', 'QQQ', 'IWM', 'DIA', 'QQQQ']);

const NAMES: Readonly<Record<string, string>> = {
  SPY: 'SPDR S&P 500 ETF Trust',
  QQQ: 'Invesco QQQ Trust, Series 1',
  IWM: 'iShares Russell 2000 ETF',
  AAPL: 'Apple Inc.',
  IBM: 'International Business Machines Corporation',
  BAC: 'Bank of America Corporation',
  AIG: 'American International Group, Inc.',
  GOOG: 'Alphabet Inc. Class C Capital Stock',
  GOOGL: 'Alphabet Inc. Class A Common Stock',
  TWX: 'Time Warner Inc.',
  'I:SPX': 'S&P 500',
  'I:NDX': 'Nasdaq-100',
  'I:VIX': 'Cboe Volatility Index',
};

const CURRENCIES: Readonly<Record<string, string>> = {
  USD: 'United States Dollar',
  EUR: 'Euro',
  GBP: 'British Pound',
  NZD: 'New Zealand Dollar',
  AUD: 'Australian Dollar',
  JPY: 'Japanese Yen',
  CHF: 'Swiss Franc',
  CAD: 'Canadian Dollar',
  BTC: 'Bitcoin',
  ETH: 'Ethereum',
  LTC: 'Litecoin',
};

function base(ticker: string): TickerRow {
  return {
    ticker,
    name: NAMES[ticker] ?? null,
    market: 'stocks',
    locale: 'us',
    type: null,
    active: true,
    primary_exchange: null,
    currency_name: null,
    currency_symbol: null,
    base_currency_symbol: null,
    base_currency_name: null,
    list_date: null,
    delisted_utc: null,
  };
}

/** A US stock or ETF (`SPY`). */
export function stockTicker(symbol: string): TickerRow {
  return { ...base(symbol), type: ETFS.has(symbol) ? 'ETF' : 'CS', currency_name: 'usd' };
}

/** A US index (`I:SPX`). */
export function indexTicker(ticker: string): TickerRow {
  return { ...base(ticker), market: 'indices', type: 'INDEX' };
}

/**
 * A currency pair (`C:EURUSD` for fx, `X:BTCUSD` for crypto): the base is the first three letters,
 * the quote currency the rest.
 */
export function pairTicker(ticker: string, market: 'fx' | 'crypto'): TickerRow {
  const pair = ticker.slice(2);
  const baseSymbol = pair.slice(0, 3);
  const quoteSymbol = pair.slice(3);
  const baseName = CURRENCIES[baseSymbol] ?? null;
  const quoteName = CURRENCIES[quoteSymbol] ?? null;
  return {
    ...base(ticker),
    name: baseName && quoteName ? `${baseName} - ${quoteName}` : null,
    market,
    locale: 'global',
    currency_symbol: quoteSymbol,
    currency_name: quoteName,
    base_currency_symbol: baseSymbol,
    base_currency_name: baseName,
  };
}

/** The reference row of any service ticker, by its prefix. */
export function tickerRowFor(ticker: string): TickerRow | undefined {
  if (ticker.startsWith('O:')) return undefined;
  if (ticker.startsWith('I:')) return indexTicker(ticker);
  if (ticker.startsWith('C:')) return pairTicker(ticker, 'fx');
  if (ticker.startsWith('X:')) return pairTicker(ticker, 'crypto');
  return stockTicker(ticker);
}
