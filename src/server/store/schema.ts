/**
 * The store's schema. One DuckDB file holds everything the server answers from; the server creates and
 * migrates it itself (`migrate`). Conventions, shared by ingest and routes:
 *
 * - `ticker` is the service's ticker: stocks `AAPL`, options `O:SPY230803C00430000`, forex `C:EURUSD`,
 *   crypto `X:BTCUSD`, indices `I:SPX`.
 * - Tick times (`sip_timestamp`, `participant_timestamp`) are Unix **nanoseconds** UTC (BIGINT).
 * - Bar times `t` are Unix **milliseconds** UTC of the bar's start. Daily bars start at midnight of the
 *   session date in the market's time zone (America/New_York for stocks, options and indices; UTC for
 *   forex and crypto), as the service stamps them.
 * - Prices are real prices (Lean's deci-cents already divided by 10,000), raw (not split adjusted);
 *   `splits` holds what adjusting needs.
 */

/** Bumped whenever `MIGRATIONS` grows. */
export const SCHEMA_VERSION = 9;

/** Ordered migrations; migration i brings the store from version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);

  -- One row per ingested file: ingesting the same content again is a no-op.
  CREATE TABLE IF NOT EXISTS ingested_files (
    sha256 VARCHAR PRIMARY KEY, path VARCHAR NOT NULL, kind VARCHAR NOT NULL,
    rows BIGINT NOT NULL, ingested_at TIMESTAMP NOT NULL);

  -- The bulk tables (trades, quotes, bars, quote_bars, open_interest) have no primary key: an index
  -- makes bulk loads about ten times slower. Ingest keeps their keys unique itself: (ticker,
  -- sip_timestamp, sequence_number) for ticks, (ticker, resolution, t) for bars, (ticker, t) for open
  -- interest.
  CREATE TABLE IF NOT EXISTS trades (
    ticker VARCHAR NOT NULL,
    sip_timestamp BIGINT NOT NULL,
    participant_timestamp BIGINT,
    sequence_number BIGINT NOT NULL,
    price DOUBLE NOT NULL,
    size DOUBLE NOT NULL,
    exchange INTEGER,
    conditions INTEGER[],
    id VARCHAR,
    tape INTEGER,
    correction INTEGER,
    trf_id INTEGER,
    trf_timestamp BIGINT);

  CREATE TABLE IF NOT EXISTS quotes (
    ticker VARCHAR NOT NULL,
    sip_timestamp BIGINT NOT NULL,
    participant_timestamp BIGINT,
    sequence_number BIGINT NOT NULL,
    bid_price DOUBLE, bid_size DOUBLE, bid_exchange INTEGER,
    ask_price DOUBLE, ask_size DOUBLE, ask_exchange INTEGER,
    conditions INTEGER[], indicators INTEGER[], tape INTEGER);

  -- Trade bars as recorded (second, minute, hour, day); vw and n are NULL when the source lacks them.
  CREATE TABLE IF NOT EXISTS bars (
    ticker VARCHAR NOT NULL,
    resolution VARCHAR NOT NULL,
    t BIGINT NOT NULL,
    o DOUBLE NOT NULL, h DOUBLE NOT NULL, l DOUBLE NOT NULL, c DOUBLE NOT NULL,
    v DOUBLE NOT NULL, vw DOUBLE, n BIGINT);

  -- Quote bars as recorded: bid and ask OHLC with the last sizes.
  CREATE TABLE IF NOT EXISTS quote_bars (
    ticker VARCHAR NOT NULL,
    resolution VARCHAR NOT NULL,
    t BIGINT NOT NULL,
    bid_o DOUBLE, bid_h DOUBLE, bid_l DOUBLE, bid_c DOUBLE, bid_size DOUBLE,
    ask_o DOUBLE, ask_h DOUBLE, ask_l DOUBLE, ask_c DOUBLE, ask_size DOUBLE);

  CREATE TABLE IF NOT EXISTS open_interest (
    ticker VARCHAR NOT NULL, t BIGINT NOT NULL, open_interest DOUBLE NOT NULL);

  -- split_to / split_from shares: a 7-for-1 split is (from 1, to 7).
  CREATE TABLE IF NOT EXISTS splits (
    ticker VARCHAR NOT NULL, execution_date DATE NOT NULL,
    split_from DOUBLE NOT NULL, split_to DOUBLE NOT NULL,
    PRIMARY KEY (ticker, execution_date));

  -- Ticker history from map files: the symbol in use up to and including 'date'; exchange is the
  -- primary exchange's MIC (XNAS, XNYS, ARCX, XASE) or the file's own code when it has no known MIC.
  CREATE TABLE IF NOT EXISTS ticker_history (
    ticker VARCHAR NOT NULL, date DATE NOT NULL, symbol VARCHAR NOT NULL, exchange VARCHAR,
    PRIMARY KEY (ticker, date));

  CREATE TABLE IF NOT EXISTS tickers (
    ticker VARCHAR PRIMARY KEY,
    name VARCHAR,
    market VARCHAR NOT NULL,          -- stocks | options | fx | crypto | indices
    locale VARCHAR NOT NULL,          -- us | global
    type VARCHAR,                     -- CS, ETF, INDEX, ...
    active BOOLEAN NOT NULL DEFAULT TRUE,
    primary_exchange VARCHAR,
    currency_name VARCHAR,
    currency_symbol VARCHAR,
    base_currency_symbol VARCHAR,
    base_currency_name VARCHAR,
    list_date DATE,
    delisted_utc TIMESTAMP);

  CREATE TABLE IF NOT EXISTS option_contracts (
    ticker VARCHAR PRIMARY KEY,
    underlying_ticker VARCHAR NOT NULL,
    contract_type VARCHAR NOT NULL,   -- call | put
    exercise_style VARCHAR NOT NULL,  -- american | european
    expiration_date DATE NOT NULL,
    strike_price DOUBLE NOT NULL,
    shares_per_contract DOUBLE NOT NULL DEFAULT 100,
    primary_exchange VARCHAR);
  `,
  `
  -- Reference records with no file source, loaded from saved API responses (mdq ingest json): each
  -- record as the API sent it (JSON text), by kind (dividends, news, financials, ...) and id (its own,
  -- else a digest of its content); ticker and date are what listings filter and sort on.
  CREATE TABLE IF NOT EXISTS reference_records (
    kind VARCHAR NOT NULL, id VARCHAR NOT NULL, ticker VARCHAR, date VARCHAR, body VARCHAR NOT NULL,
    PRIMARY KEY (kind, id));
  `,
  `
  -- What the caching server (mdq serve --upstream) has fetched from the service, stored completely:
  -- per ticker and kind ('bars:minute', 'trades', 'splits', ...) the market days first_day..last_day
  -- (in the market's time zone). A final range cannot change any more (its sessions had ended when it
  -- was fetched); another is fresh for a configured age after fetched_at.
  CREATE TABLE IF NOT EXISTS coverage (
    ticker VARCHAR NOT NULL, kind VARCHAR NOT NULL, first_day DATE NOT NULL, last_day DATE NOT NULL,
    fetched_at TIMESTAMP NOT NULL, final BOOLEAN NOT NULL);
  `,
  `
  -- Where a covered range's rows came from: 'upstream' when the caching server stored them (mdq cache
  -- clear removes them), 'files' when the range already held rows ingested from files, which the
  -- caching server keeps as they are and never removes.
  ALTER TABLE coverage ADD COLUMN IF NOT EXISTS source VARCHAR DEFAULT 'upstream';
  `,
  `
  -- The rows a caching server's listing (of tickers, ...) held when fetched whole for a set of filters
  -- (its coverage's ticker): by the listing's kind and the row's key in its table ('tickers': the
  -- ticker). Rows no listing holds were ingested from files and are kept as they are.
  CREATE TABLE IF NOT EXISTS listed_rows (
    kind VARCHAR NOT NULL, filters VARCHAR NOT NULL, id VARCHAR NOT NULL, PRIMARY KEY (kind, filters, id));
  `,
  `
  -- The fields of reference records that listings filter and sort on, as columns beside the JSON text
  -- (mdq ingest json fills them, see ingest/record-fields.ts), so that no store needs JSON functions
  -- to answer a listing. The records already stored get theirs from their text here.
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS tickers VARCHAR[];
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS ex_dividend_date VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS record_date VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS declaration_date VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS pay_date VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS cash_amount DOUBLE;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS frequency INTEGER;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS dividend_type VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS distribution_type VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS cik VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS company_name VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS sic VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS timeframe VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS filing_date VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS end_date VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS us_code VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS isin VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS ipo_status VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS last_updated VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS issuer_name VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS announced_date VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS security_type VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS currency_code VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS primary_exchange VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS security_description VARCHAR;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS final_issue_price DOUBLE;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS min_shares_offered DOUBLE;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS max_shares_offered DOUBLE;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS lowest_offer_price DOUBLE;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS highest_offer_price DOUBLE;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS total_offer_size DOUBLE;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS shares_outstanding DOUBLE;
  ALTER TABLE reference_records ADD COLUMN IF NOT EXISTS lot_size DOUBLE;
  UPDATE reference_records SET
    tickers = CASE WHEN json_type(body, '$.tickers') = 'ARRAY'
      AND len(list_filter(json_extract_string(body, '$.tickers[*]'), x -> x IS NOT NULL)) > 0
      THEN list_filter(json_extract_string(body, '$.tickers[*]'), x -> x IS NOT NULL) END,
    ex_dividend_date = json_extract_string(body, '$.ex_dividend_date'),
    record_date = json_extract_string(body, '$.record_date'),
    declaration_date = json_extract_string(body, '$.declaration_date'),
    pay_date = json_extract_string(body, '$.pay_date'),
    cash_amount = TRY_CAST(json_extract_string(body, '$.cash_amount') AS DOUBLE),
    frequency = TRY_CAST(json_extract_string(body, '$.frequency') AS INTEGER),
    dividend_type = CASE WHEN kind = 'dividends' THEN coalesce(json_extract_string(body, '$.dividend_type'),
      CASE json_extract_string(body, '$.distribution_type')
        WHEN 'special' THEN 'SC' WHEN 'supplemental' THEN 'SC' ELSE 'CD' END) END,
    distribution_type = CASE WHEN kind = 'dividends' THEN coalesce(json_extract_string(body, '$.distribution_type'),
      CASE WHEN json_extract_string(body, '$.dividend_type') IN ('SC', 'LT', 'ST') THEN 'special'
        WHEN TRY_CAST(json_extract_string(body, '$.frequency') AS INTEGER) > 0 THEN 'recurring'
        ELSE 'irregular' END) END,
    cik = json_extract_string(body, '$.cik'),
    company_name = json_extract_string(body, '$.company_name'),
    sic = json_extract_string(body, '$.sic'),
    timeframe = json_extract_string(body, '$.timeframe'),
    filing_date = json_extract_string(body, '$.filing_date'),
    end_date = json_extract_string(body, '$.end_date'),
    us_code = json_extract_string(body, '$.us_code'),
    isin = json_extract_string(body, '$.isin'),
    ipo_status = json_extract_string(body, '$.ipo_status'),
    last_updated = json_extract_string(body, '$.last_updated'),
    issuer_name = json_extract_string(body, '$.issuer_name'),
    announced_date = json_extract_string(body, '$.announced_date'),
    security_type = json_extract_string(body, '$.security_type'),
    currency_code = json_extract_string(body, '$.currency_code'),
    primary_exchange = json_extract_string(body, '$.primary_exchange'),
    security_description = json_extract_string(body, '$.security_description'),
    final_issue_price = TRY_CAST(json_extract_string(body, '$.final_issue_price') AS DOUBLE),
    min_shares_offered = TRY_CAST(json_extract_string(body, '$.min_shares_offered') AS DOUBLE),
    max_shares_offered = TRY_CAST(json_extract_string(body, '$.max_shares_offered') AS DOUBLE),
    lowest_offer_price = TRY_CAST(json_extract_string(body, '$.lowest_offer_price') AS DOUBLE),
    highest_offer_price = TRY_CAST(json_extract_string(body, '$.highest_offer_price') AS DOUBLE),
    total_offer_size = TRY_CAST(json_extract_string(body, '$.total_offer_size') AS DOUBLE),
    shares_outstanding = TRY_CAST(json_extract_string(body, '$.shares_outstanding') AS DOUBLE),
    lot_size = TRY_CAST(json_extract_string(body, '$.lot_size') AS DOUBLE);
  `,
  `
  -- The fields of the tickers listing the service gives beyond the first columns: the CIK, the FIGIs and
  -- the time the ticker's information is accurate up to (UTC). mdq ingest json and the caching server
  -- fill them from the service's records; rows ingested from files have none.
  ALTER TABLE tickers ADD COLUMN IF NOT EXISTS cik VARCHAR;
  ALTER TABLE tickers ADD COLUMN IF NOT EXISTS composite_figi VARCHAR;
  ALTER TABLE tickers ADD COLUMN IF NOT EXISTS share_class_figi VARCHAR;
  ALTER TABLE tickers ADD COLUMN IF NOT EXISTS last_updated_utc TIMESTAMP;
  `,
  `
  -- Snapshots a caching server fetched, one row per kind ('snapshot:stocks', 'snapshot:options', ...)
  -- and ticker: the ticker's snapshot object as the service wrote it (JSON text) and when it was
  -- fetched, whichever answer brought it (one ticker's, many tickers', a chain's, a universal one).
  CREATE TABLE IF NOT EXISTS snapshots (
    kind VARCHAR NOT NULL, ticker VARCHAR NOT NULL, fetched_at TIMESTAMP NOT NULL, body VARCHAR NOT NULL,
    PRIMARY KEY (kind, ticker));
  -- One ticker's v2 snapshots were stored as the answers that brought them: their snapshot objects
  -- become rows, covered under the kind of their market.
  INSERT OR REPLACE INTO snapshots
    SELECT CASE WHEN r.ticker LIKE 'C:%' THEN 'snapshot:forex' WHEN r.ticker LIKE 'X:%' THEN 'snapshot:crypto'
        ELSE 'snapshot:stocks' END,
      r.ticker, c.fetched_at, json_extract(r.body, '$.ticker')::VARCHAR
    FROM reference_records r JOIN coverage c ON c.kind = 'snapshot' AND c.ticker = r.ticker
    WHERE r.kind = 'snapshot' AND json_type(r.body, '$.ticker') = 'OBJECT';
  UPDATE coverage SET kind = CASE WHEN ticker LIKE 'C:%' THEN 'snapshot:forex' WHEN ticker LIKE 'X:%'
      THEN 'snapshot:crypto' ELSE 'snapshot:stocks' END
    WHERE kind = 'snapshot';
  DELETE FROM reference_records WHERE kind = 'snapshot';
  `,
  `
  -- Futures fields the service gives and Lean's files do not: a session candle's settlement price, a
  -- tick's report sequence and channel, a quote's bid and ask times (Unix ns). The caching server fills
  -- them from the service's answers; rows ingested from files have none (NULL).
  ALTER TABLE bars ADD COLUMN IF NOT EXISTS settlement_price DOUBLE;
  ALTER TABLE trades ADD COLUMN IF NOT EXISTS report_sequence BIGINT;
  ALTER TABLE trades ADD COLUMN IF NOT EXISTS channel INTEGER;
  ALTER TABLE quotes ADD COLUMN IF NOT EXISTS report_sequence BIGINT;
  ALTER TABLE quotes ADD COLUMN IF NOT EXISTS channel INTEGER;
  ALTER TABLE quotes ADD COLUMN IF NOT EXISTS bid_timestamp BIGINT;
  ALTER TABLE quotes ADD COLUMN IF NOT EXISTS ask_timestamp BIGINT;
  `,
];
