/**
 * Ticker types at `/v3/reference/tickers/types`: the service's stock type codes as its recorded
 * response lists them, plus the remaining codes its `type` filter accepts (descriptions from the
 * service's public documentation) and the index type.
 */
export const TICKER_TYPES: readonly {
  code: string;
  description: string;
  asset_class: string;
  locale: string;
}[] = [
  { code: 'CS', description: 'Common Stock', asset_class: 'stocks', locale: 'us' },
  { code: 'PFD', description: 'Preferred Stock', asset_class: 'stocks', locale: 'us' },
  { code: 'WARRANT', description: 'Warrant', asset_class: 'stocks', locale: 'us' },
  { code: 'RIGHT', description: 'Rights', asset_class: 'stocks', locale: 'us' },
  { code: 'BOND', description: 'Corporate Bond', asset_class: 'stocks', locale: 'us' },
  { code: 'ETF', description: 'Exchange Traded Fund', asset_class: 'stocks', locale: 'us' },
  { code: 'ETN', description: 'Exchange Traded Note', asset_class: 'stocks', locale: 'us' },
  { code: 'SP', description: 'Structured Product', asset_class: 'stocks', locale: 'us' },
  { code: 'ADRC', description: 'American Depository Receipt Common', asset_class: 'stocks', locale: 'us' },
  { code: 'ADRW', description: 'American Depository Receipt Warrants', asset_class: 'stocks', locale: 'us' },
  { code: 'ADRR', description: 'American Depository Receipt Rights', asset_class: 'stocks', locale: 'us' },
  { code: 'FUND', description: 'Fund', asset_class: 'stocks', locale: 'us' },
  { code: 'BASKET', description: 'Basket', asset_class: 'stocks', locale: 'us' },
  { code: 'UNIT', description: 'Unit', asset_class: 'stocks', locale: 'us' },
  { code: 'LT', description: 'Liquidating Trust', asset_class: 'stocks', locale: 'us' },
  { code: 'ADRP', description: 'American Depository Receipt Preferred', asset_class: 'stocks', locale: 'us' },
  { code: 'GDR', description: 'Global Depository Receipts', asset_class: 'stocks', locale: 'us' },
  { code: 'NYRS', description: 'New York Registry Shares', asset_class: 'stocks', locale: 'us' },
  { code: 'OS', description: 'Ordinary Shares', asset_class: 'stocks', locale: 'us' },
  { code: 'AGEN', description: 'Agency Bond', asset_class: 'stocks', locale: 'us' },
  { code: 'EQLK', description: 'Equity WRT', asset_class: 'stocks', locale: 'us' },
  { code: 'OTHER', description: 'Other Security Type', asset_class: 'stocks', locale: 'us' },
  { code: 'INDEX', description: 'Index', asset_class: 'indices', locale: 'us' },
];
