// Real contracts as oracles: the service's recorded responses pair each `O:` ticker with its expiry,
// type and strike; Lean's option files name every contract of real chains (strikes in deci-cents).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import {
  buildOptionSymbol,
  convertOptionSymbolFormats,
  detectOptionSymbolFormats,
  normalizeOptionTicker,
  OPTION_SYMBOL_FORMATS,
  parseOptionSymbol,
} from '../../src/symbols/index.js';
import { hasShared, leanDir, recordedDir } from '../support/shared.js';

interface RecordedContract {
  ticker: string;
  expiration_date: string;
  contract_type: 'call' | 'put';
  strike_price: number;
  underlying_ticker?: string;
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

/** Every object of a decoded body that describes an option contract, and every `O:` ticker string. */
function collect(value: unknown, contracts: RecordedContract[], tickers: Set<string>): void {
  if (typeof value === 'string') {
    if (/^O:/.test(value)) tickers.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collect(v, contracts, tickers);
  } else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.ticker === 'string' && o.ticker.startsWith('O:') && typeof o.strike_price === 'number') {
      contracts.push(o as unknown as RecordedContract);
    }
    for (const v of Object.values(o)) collect(v, contracts, tickers);
  }
}

describe('option symbols of real data', () => {
  test('recorded contracts: parse gives their fields and build gives their ticker', (t) => {
    if (!hasShared(t, recordedDir)) return;
    const contracts: RecordedContract[] = [];
    const tickers = new Set<string>();
    for (const file of jsonFiles(recordedDir))
      collect(JSON.parse(readFileSync(file, 'utf8')), contracts, tickers);
    assert.ok(contracts.length >= 20, `only ${contracts.length} recorded contracts`);
    for (const c of contracts) {
      const parsed = parseOptionSymbol(c.ticker);
      assert.equal(parsed.expiryString, c.expiration_date, c.ticker);
      assert.equal(parsed.callOrPut, c.contract_type === 'call' ? 'C' : 'P', c.ticker);
      assert.equal(parsed.strikePrice, c.strike_price, c.ticker);
      if (c.underlying_ticker) assert.equal(parsed.underlyingSymbol, c.underlying_ticker, c.ticker);
      const built = buildOptionSymbol(
        parsed.underlyingSymbol,
        c.expiration_date,
        c.contract_type,
        c.strike_price,
        {
          prefixO: true,
        },
      );
      assert.equal(built, c.ticker);
    }
    // Every option ticker the service sent is accepted as is by the clients' normaliser.
    assert.ok(tickers.size > 0);
    for (const ticker of tickers) assert.equal(normalizeOptionTicker(ticker), ticker);
  });

  test('Lean option chains: every contract builds, parses and converts in every format', (t) => {
    if (!hasShared(t, leanDir)) return;
    const zips = [
      'option/usa/minute/goog/20151224_openinterest_american.zip',
      'option/usa/minute/aapl/20140609_openinterest_american.zip',
      'option/usa/minute/twx/20140605_openinterest_american.zip',
      'option/usa/minute/spy/20230803_trade_american.zip',
      'indexoption/usa/minute/spx/20210104_openinterest_european.zip',
    ];
    let contracts = 0;
    for (const zip of zips) {
      const names: string[] = [];
      unzipSync(readFileSync(join(leanDir, zip)), {
        filter: (file) => {
          names.push(file.name);
          return false;
        },
      });
      for (const name of names) {
        const m = /^\d{8}_([a-z]+)_minute_[a-z]+_[a-z]+_(call|put)_(\d+)_(\d{4})(\d\d)(\d\d)\.csv$/.exec(
          name,
        );
        assert.ok(m, name);
        const [, root = '', right = '', deciCents = '', yyyy = '', mm = '', dd = ''] = m;
        // Deci-cents → decimal text by moving the point, so no arithmetic is shared with the library.
        const digits = deciCents.padStart(5, '0');
        const strikeText = `${digits.slice(0, -4)}.${digits.slice(-4)}`;
        const expectedOcc = `${root.toUpperCase().padEnd(6, ' ')}${yyyy.slice(2)}${mm}${dd}${right === 'call' ? 'C' : 'P'}${digits.slice(0, -1).padStart(8, '0')}`;
        const occ = buildOptionSymbol(root, `${yyyy}-${mm}-${dd}`, right, strikeText, { format: 'occ' });
        assert.equal(occ, expectedOcc, name);
        assert.ok(detectOptionSymbolFormats(occ).includes('occ'));
        const parsed = parseOptionSymbol(occ, {
          format: 'occ',
          outputFormat: 'dict',
          expiryFormat: 'string',
        });
        assert.equal(parsed.strikePrice, Number(deciCents) / 10_000, name);
        assert.equal(parsed.expiry, `${yyyy}-${mm}-${dd}`);
        for (const format of OPTION_SYMBOL_FORMATS) {
          const other = convertOptionSymbolFormats(occ, 'occ', format);
          assert.equal(convertOptionSymbolFormats(other, format, 'occ'), occ, `${name} via ${format}`);
        }
        contracts++;
      }
    }
    assert.ok(contracts > 4000, `${contracts} contracts`);
  });
});
