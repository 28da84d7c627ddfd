import type { Resolution } from '../store/rows.js';
import { type LeanDate, parseLeanDate } from './local-time.js';

// Time zones of Lean's data folders (`dataTimeZone` of Lean's market-hours database).
/** US equities and options. */
export const NEW_YORK = 'America/New_York';
/** US indices (SPX, NDX). */
export const CHICAGO = 'America/Chicago';
/** Forex, crypto and futures (CME, COMEX). */
export const UTC = 'UTC';

/** What a file under a Lean data root holds, read from its path. */
export type LeanFile =
  | { kind: 'trade-ticks'; ticker: string; date: LeanDate }
  | { kind: 'quote-ticks'; ticker: string; date: LeanDate }
  | { kind: 'fx-quote-ticks'; ticker: string; date: LeanDate }
  | {
      kind: 'bars' | 'quote-bars';
      /** The service's ticker (`SPY`, `X:BTCUSD`, `C:EURUSD`, `I:SPX`). */
      ticker: string;
      assetClass: 'equity' | 'crypto' | 'forex' | 'index';
      resolution: Resolution;
      /** The file's date for intraday files (timestamps are ms of that day); absent for hour/day. */
      date?: LeanDate;
    }
  | {
      kind: 'option';
      /** Upper-case underlying (`SPY`, `SPX`). */
      underlying: string;
      tickType: 'trade' | 'quote' | 'openinterest';
      resolution: Resolution;
      style: 'american' | 'european';
      date?: LeanDate;
    }
  | {
      kind: 'future';
      /** Upper-case product code (`ES`, `GC`); each entry of the file is one contract month. */
      product: string;
      tickType: 'trade' | 'quote' | 'openinterest';
      resolution: Resolution | 'tick';
      /** The file's date for tick and minute files; absent for hour/day. */
      date?: LeanDate;
    }
  | { kind: 'factor-file'; ticker: string }
  | { kind: 'map-file'; ticker: string };

const RESOLUTIONS: Readonly<Record<string, Resolution>> = {
  second: 'second',
  minute: 'minute',
  hour: 'hour',
  daily: 'day',
};

const PREFIX: Readonly<Record<string, string>> = { equity: '', crypto: 'X:', forex: 'C:', index: 'I:' };

/**
 * Classifies a path relative to a Lean data root (`equity/usa/minute/spy/20131007_trade.zip`).
 * Returns undefined for files ingest does not read (documentation, market-hours tables, futures
 * universes, map and factor files).
 */
export function classifyLeanPath(relative: string): LeanFile | undefined {
  const seg = relative.split(/[\\/]/).map((s) => s.toLowerCase());
  const [type, market, folder] = seg;
  if (type === undefined || market === undefined || folder === undefined) return undefined;
  const name = seg[seg.length - 1] as string;

  if (type === 'equity' && market === 'usa' && seg.length === 4) {
    const m = /^([a-z0-9.\-_]+)\.csv$/.exec(name);
    if (m && folder === 'factor_files')
      return { kind: 'factor-file', ticker: (m[1] as string).toUpperCase() };
    if (m && folder === 'map_files') return { kind: 'map-file', ticker: (m[1] as string).toUpperCase() };
  }

  if (type === 'option' || type === 'indexoption') {
    const resolution = RESOLUTIONS[folder];
    if (!resolution) return undefined;
    if (seg.length === 5 && resolution !== 'hour' && resolution !== 'day') {
      const m = /^(\d{8})_(trade|quote|openinterest)_(american|european)\.zip$/.exec(name);
      const date = m ? parseLeanDate(m[1] as string) : undefined;
      if (!m || !date) return undefined;
      return option(seg[3] as string, m[2] as string, resolution, m[3] as string, date);
    }
    if (seg.length === 4) {
      const m = /^([a-z0-9]+)_(\d{4})_(trade|quote|openinterest)_(american|european)\.zip$/.exec(name);
      if (!m) return undefined;
      return option(m[1] as string, m[3] as string, resolution, m[4] as string);
    }
    return undefined;
  }

  if (type === 'future') return future(seg, folder, name);

  const prefix = PREFIX[type];
  if (prefix === undefined) return undefined;
  const assetClass = type as 'equity' | 'crypto' | 'forex' | 'index';
  if (folder === 'tick' && seg.length === 5) {
    const m = /^(\d{8})_(trade|quote)\.zip$/.exec(name);
    const date = m ? parseLeanDate(m[1] as string) : undefined;
    if (!m || !date) return undefined;
    const ticker = prefix + (seg[3] as string).toUpperCase();
    if (assetClass === 'equity')
      return { kind: m[2] === 'trade' ? 'trade-ticks' : 'quote-ticks', ticker, date };
    if (assetClass === 'forex' && m[2] === 'quote') return { kind: 'fx-quote-ticks', ticker, date };
    return undefined;
  }
  const resolution = RESOLUTIONS[folder];
  if (!resolution) return undefined;
  if (seg.length === 5 && (resolution === 'second' || resolution === 'minute')) {
    const m = /^(\d{8})_(trade|quote)\.zip$/.exec(name);
    const date = m ? parseLeanDate(m[1] as string) : undefined;
    if (!m || !date) return undefined;
    const ticker = prefix + (seg[3] as string).toUpperCase();
    return { kind: m[2] === 'trade' ? 'bars' : 'quote-bars', ticker, assetClass, resolution, date };
  }
  if (seg.length === 4 && (resolution === 'hour' || resolution === 'day')) {
    const m = /^([a-z0-9]+?)(?:_(trade|quote))?\.zip$/.exec(name);
    if (!m) return undefined;
    const ticker = prefix + (m[1] as string).toUpperCase();
    // Forex hour and daily files are quote bars without a suffix; the others are trade bars unless
    // the name says quote.
    const quote = m[2] === 'quote' || (assetClass === 'forex' && m[2] === undefined);
    return { kind: quote ? 'quote-bars' : 'bars', ticker, assetClass, resolution };
  }
  return undefined;
}

/**
 * Futures files: `future/<market>/<tick|minute>/<product>/<YYYYMMDD>_<ticktype>.zip` and
 * `future/<market>/<hour|daily>/<product>_<ticktype>.zip`.
 */
function future(seg: string[], folder: string, name: string): LeanFile | undefined {
  const resolution = folder === 'tick' ? 'tick' : RESOLUTIONS[folder];
  if (!resolution || resolution === 'second') return undefined;
  if (seg.length === 5 && (resolution === 'tick' || resolution === 'minute')) {
    const m = /^(\d{8})_(trade|quote|openinterest)\.zip$/.exec(name);
    const date = m ? parseLeanDate(m[1] as string) : undefined;
    if (!m || !date || !/^[a-z0-9]+$/.test(seg[3] as string)) return undefined;
    const tickType = m[2] as 'trade' | 'quote' | 'openinterest';
    // Of the tick folder only trades are read: tick open interest repeats the minute files' counts at
    // update times, and there are no futures tick quotes in the data this was written against.
    if (resolution === 'tick' && tickType !== 'trade') return undefined;
    return { kind: 'future', product: (seg[3] as string).toUpperCase(), tickType, resolution, date };
  }
  if (seg.length === 4 && (resolution === 'hour' || resolution === 'day')) {
    const m = /^([a-z0-9]+)_(trade|quote|openinterest)\.zip$/.exec(name);
    if (!m) return undefined;
    const tickType = m[2] as 'trade' | 'quote' | 'openinterest';
    return { kind: 'future', product: (m[1] as string).toUpperCase(), tickType, resolution };
  }
  return undefined;
}

function option(
  underlying: string,
  tickType: string,
  resolution: Resolution,
  style: string,
  date?: LeanDate,
): LeanFile {
  const base = {
    kind: 'option' as const,
    underlying: underlying.toUpperCase(),
    tickType: tickType as 'trade' | 'quote' | 'openinterest',
    resolution,
    style: style as 'american' | 'european',
  };
  return date ? { ...base, date } : base;
}

/** The asset classes of Lean's data folders. */
export type LeanAssetClass = 'equity' | 'crypto' | 'forex' | 'index' | 'option' | 'future';

/** The data time zone of a Lean asset class. */
export function dataTimeZone(assetClass: LeanAssetClass): string {
  if (assetClass === 'index') return CHICAGO;
  if (assetClass === 'forex' || assetClass === 'crypto' || assetClass === 'future') return UTC;
  return NEW_YORK;
}

/**
 * The zone whose midnight starts a daily bar: New York for US markets, UTC for forex, crypto and
 * futures (a futures session bar starts at UTC midnight of its trading date, as the service stamps it).
 */
export function sessionTimeZone(assetClass: LeanAssetClass): string {
  return assetClass === 'forex' || assetClass === 'crypto' || assetClass === 'future' ? UTC : NEW_YORK;
}
