import { futuresTickerFromExpiry } from '../../symbols/futures-ticker.js';
import { nextTradingDay } from '../calendar/sessions.js';
import type { Resolution } from '../store/rows.js';
import { entryNameProblem } from './entry-name.js';
import { IngestError, RowProblem } from './ingest-error.js';
import { primaryExchangeMic } from './lean-codes.js';
import { dataTimeZone, type LeanAssetClass, type LeanFile, sessionTimeZone } from './lean-paths.js';
import { eachLine } from './lines.js';
import {
  isoDate,
  type LeanDate,
  leanStampParser,
  parseLeanDate,
  sessionStartParser,
  wallClockOfDay,
} from './local-time.js';
import { type NativeTickKind, stageTickEntry } from './native-ticks.js';
import { defaultExerciseStyle, optionTicker, parseOptionEntry } from './option-ticker.js';
import { indexTicker, pairTicker, stockTicker } from './reference.js';
import type { RowSink } from './staging.js';
import { inflateEntry, type RawZipEntry, rawZipEntries } from './zip-entries.js';

/** Lean writes US equity and option prices as integer deci-cents. */
const DECI_CENTS = 10_000;

const decoder = new TextDecoder();
let stagedFiles = 0;

/** A bad row or field: the line loop adds the location. */
function fail(reason: string): never {
  throw new RowProblem(reason);
}

/** A number field; empty or non-numeric fields are errors. */
function num(fields: string[], i: number, what: string): number {
  const s = fields[i];
  if (s === undefined || s === '') fail(`${what} (column ${i + 1}) is missing`);
  const v = Number(s);
  if (!Number.isFinite(v)) fail(`${what} (column ${i + 1}) is not a number: ${JSON.stringify(s)}`);
  return v;
}

/** A price, size, volume or count: a number field that is not negative. */
function amount(fields: string[], i: number, what: string): number {
  const v = num(fields, i, what);
  if (v < 0) fail(`${what} (column ${i + 1}) is negative: ${JSON.stringify(fields[i])}`);
  return v;
}

/** An amount that may be empty (Lean leaves a missing quote side's prices empty). */
function optNum(fields: string[], i: number, what: string): number | null {
  return fields[i] === '' ? null : amount(fields, i, what);
}

function columns(fields: string[], min: number, max = min): void {
  if (fields.length < min || fields.length > max) {
    fail(`expected ${min === max ? min : `${min} to ${max}`} columns, found ${fields.length}`);
  }
}

/** Runs `fn` over the lines of one CSV text, turning a `RowProblem` into an `IngestError` there. */
function eachRow(
  text: string,
  where: { file: string; entry?: string },
  fn: (fields: string[], line: number) => void,
): void {
  // Text in another encoding (UTF-16, a byte UTF-8 does not allow) is named as such, at its first line,
  // rather than as a number that is not one.
  const foreign = text.search(/[\u0000\ufffd]/);
  if (foreign !== -1) {
    const line = text.slice(0, foreign).split('\n').length;
    throw new IngestError({ ...where, line }, 'is not UTF-8 text');
  }
  let current = 0;
  try {
    eachLine(text, (line, n) => {
      current = n;
      if (line === '') fail('empty line');
      fn(line.split(','), n);
    });
  } catch (e) {
    if (e instanceof RowProblem) throw new IngestError({ ...where, line: current }, e.message);
    throw e;
  }
}

/**
 * The entries of a zip archive, inflated and checked against their declared sizes and CRC-32s: a
 * damaged archive is refused whole rather than read in part.
 */
function readEntries(file: string, bytes: Uint8Array): [string, Uint8Array][] {
  const raw = rawZipEntries(bytes);
  if (!raw) {
    throw new IngestError(
      { file },
      'not a readable zip archive (no consistent central directory, or an encrypted or unsupported entry)',
    );
  }
  const list: [string, Uint8Array][] = [];
  for (const entry of raw) {
    if (entry.name.endsWith('/')) continue;
    try {
      list.push([entry.name, inflateEntry(entry)]);
    } catch (e) {
      throw new IngestError({ file, entry: entry.name }, (e as Error).message, { cause: e });
    }
  }
  if (list.length === 0) throw new IngestError({ file }, 'the zip archive holds no entry');
  return list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Refuses the file when an entry's name contradicts its path (see `entryNameProblem`). */
function checkEntryName(desc: LeanFile, file: string, entry: string): void {
  const problem = entryNameProblem(desc, entry);
  if (problem !== undefined) throw new IngestError({ file, entry }, problem);
}

/**
 * Parses one Lean file (zip or csv) and hands its rows to `sink`. Throws `IngestError` when malformed,
 * or when an entry is named for another ticker or day than the file's path gives.
 */
export function parseLeanFile(desc: LeanFile, file: string, bytes: Uint8Array, sink: RowSink): void {
  if (desc.kind === 'factor-file') {
    parseFactorFile(desc.ticker, file, decoder.decode(bytes), sink);
    return;
  }
  if (desc.kind === 'map-file') {
    parseMapFile(desc.ticker, file, decoder.decode(bytes), sink);
    return;
  }
  if (desc.kind === 'trade-ticks' || desc.kind === 'quote-ticks' || desc.kind === 'fx-quote-ticks') {
    // A tick file's one deflated entry goes to DuckDB still compressed (see stageTickEntry).
    const raw = rawZipEntries(bytes)?.filter((e) => !e.name.endsWith('/'));
    const [entry] = raw ?? [];
    if (raw?.length === 1 && entry?.method === 8) {
      checkEntryName(desc, file, entry.name);
      stageTicks(desc, file, entry.name, entry, sink);
      return;
    }
  }
  const entries = readEntries(file, bytes);
  for (const [entry] of entries) checkEntryName(desc, file, entry);
  if (desc.kind === 'future') {
    for (const [entry, data] of entries) parseFutureEntry(desc, { file, entry }, data, sink);
    return;
  }
  if (desc.kind !== 'option' && entries.length !== 1) {
    throw new IngestError({ file }, `expected one entry in the archive, found ${entries.length}`);
  }
  for (const [entry, data] of entries) {
    const where = { file, entry };
    // Tick entries go to DuckDB as bytes; everything else is parsed here.
    const native =
      desc.kind === 'trade-ticks' || desc.kind === 'quote-ticks' || desc.kind === 'fx-quote-ticks';
    const text = native ? '' : decoder.decode(data);
    switch (desc.kind) {
      case 'trade-ticks':
      case 'quote-ticks':
      case 'fx-quote-ticks':
        stageTicks(desc, file, entry, data, sink);
        break;
      case 'bars':
      case 'quote-bars': {
        sink.ticker(
          desc.assetClass === 'equity'
            ? stockTicker(desc.ticker)
            : desc.assetClass === 'index'
              ? indexTicker(desc.ticker)
              : pairTicker(desc.ticker, desc.assetClass === 'forex' ? 'fx' : 'crypto'),
        );
        const time = barClock(desc.assetClass, desc.resolution, desc.date);
        const scale = desc.assetClass === 'equity' ? DECI_CENTS : 1;
        if (desc.kind === 'bars') {
          // Lean's index "volume" counts updates (or is 0); the service reports no volume for indices.
          const volume = desc.assetClass === 'index' ? 'none' : 'column';
          parseTradeBars(desc.ticker, desc.resolution, time, scale, volume, where, text, sink);
        } else {
          const forex = desc.assetClass === 'forex';
          parseQuoteBars(desc.ticker, desc.resolution, time, scale, forex, where, text, sink);
        }
        break;
      }
      case 'option':
        parseOptionEntryRows(desc, where, text, sink);
        break;
    }
  }
}

/** Hands a tick entry (bytes, or a still deflated zip entry) to DuckDB through `sink`. */
function stageTicks(
  desc: Extract<LeanFile, { kind: NativeTickKind }>,
  file: string,
  entry: string,
  content: Uint8Array | RawZipEntry,
  sink: RowSink,
): void {
  const fx = desc.kind === 'fx-quote-ticks';
  sink.ticker(fx ? pairTicker(desc.ticker, 'fx') : stockTicker(desc.ticker));
  const path = sink.stagedPath(`ticks-${++stagedFiles}.csv`);
  const tz = dataTimeZone(fx ? 'forex' : 'equity');
  sink.native(stageTickEntry(desc.kind, path, content, { file, entry }, desc.ticker, desc.date, tz));
}

/**
 * One contract month of a futures file: the entry `…_<YYYYMM>.csv` holds the contract whose ticker is
 * the product code, the month code and the year's last digit, as the service writes it (`201312` of
 * ES is `ESZ3`). Prices are plain decimals. Trade ticks go to `trades` (the price, the size, the line
 * as the sequence number; no exchange or condition), bars to `bars`, quote bars to `quote_bars`, open
 * interest to `open_interest`.
 */
function parseFutureEntry(
  desc: Extract<LeanFile, { kind: 'future' }>,
  where: { file: string; entry: string },
  data: Uint8Array,
  sink: RowSink,
): void {
  const m = /_(\d{6})\.csv$/i.exec(where.entry);
  let ticker: string | undefined;
  try {
    ticker = m ? futuresTickerFromExpiry(desc.product, m[1] as string) : undefined;
  } catch {
    ticker = undefined;
  }
  if (!ticker) throw new IngestError(where, 'entry name does not end in a contract month (…_<YYYYMM>.csv)');
  if (desc.resolution === 'tick') {
    if (!desc.date || desc.tickType !== 'trade')
      throw new IngestError(where, 'not a futures trade tick file');
    const path = sink.stagedPath(`ticks-${++stagedFiles}.csv`);
    const tz = dataTimeZone('future');
    sink.native(stageTickEntry('future-trade-ticks', path, data, where, ticker, desc.date, tz));
    return;
  }
  const resolution = desc.resolution;
  const time = barClock('future', resolution, desc.date);
  const text = decoder.decode(data);
  if (desc.tickType === 'trade') {
    parseTradeBars(ticker, resolution, time, 1, 'column', where, text, sink);
  } else if (desc.tickType === 'quote') {
    parseQuoteBars(ticker, resolution, time, 1, false, where, text, sink);
  } else {
    eachRow(text, where, (f) => {
      columns(f, 2);
      sink.openInterest({ ticker, t: time(f[0] as string), open_interest: amount(f, 1, 'open interest') });
    });
  }
}

type Clock = (timeField: string) => number;

/** How a bar file's first column becomes the bar start in Unix ms. */
function barClock(assetClass: LeanAssetClass, resolution: Resolution, date: LeanDate | undefined): Clock {
  const tz = dataTimeZone(assetClass);
  if (date) {
    const clock = wallClockOfDay(date, tz);
    return (field) => {
      const ms = Number(field);
      if (field === '' || !Number.isFinite(ms) || ms < 0)
        fail(`time is not milliseconds of the day: ${JSON.stringify(field)}`);
      return clock(ms);
    };
  }
  if (resolution === 'day') {
    const session = sessionStartParser(sessionTimeZone(assetClass));
    return (field) => {
      const m = /^(\d{8}) \d{2}:\d{2}$/.exec(field);
      const d = m ? parseLeanDate(m[1] as string) : undefined;
      if (!d) fail(`time is not "YYYYMMDD HH:mm": ${JSON.stringify(field)}`);
      return session(d);
    };
  }
  const stamp = leanStampParser(tz);
  return (field) => {
    const t = stamp(field);
    if (t === undefined) fail(`time is not "YYYYMMDD HH:mm": ${JSON.stringify(field)}`);
    return t;
  };
}

function parseTradeBars(
  ticker: string,
  resolution: Resolution,
  time: Clock,
  scale: number,
  volume: 'column' | 'none',
  where: { file: string; entry?: string },
  text: string,
  sink: RowSink,
): void {
  eachRow(text, where, (f) => {
    columns(f, 6);
    const o = amount(f, 1, 'open') / scale;
    const h = amount(f, 2, 'high') / scale;
    const l = amount(f, 3, 'low') / scale;
    const c = amount(f, 4, 'close') / scale;
    const v = amount(f, 5, 'volume');
    sink.bar({
      ticker,
      resolution,
      t: time(f[0] as string),
      o,
      h,
      l,
      c,
      v: volume === 'none' ? 0 : v,
      vw: null,
      n: null,
    });
  });
}

function parseQuoteBars(
  ticker: string,
  resolution: Resolution,
  time: Clock,
  scale: number,
  forex: boolean,
  where: { file: string; entry?: string },
  text: string,
  sink: RowSink,
): void {
  const price = (f: string[], i: number, what: string) => {
    const v = optNum(f, i, what);
    return v === null ? null : v / scale;
  };
  eachRow(text, where, (f) => {
    columns(f, 11);
    const t = time(f[0] as string);
    const row = {
      ticker,
      resolution,
      t,
      bid_o: price(f, 1, 'bid open'),
      bid_h: price(f, 2, 'bid high'),
      bid_l: price(f, 3, 'bid low'),
      bid_c: price(f, 4, 'bid close'),
      // Oanda supplies no sizes (always 0): stored as unknown.
      bid_size: forex ? null : optNum(f, 5, 'bid size'),
      ask_o: price(f, 6, 'ask open'),
      ask_h: price(f, 7, 'ask high'),
      ask_l: price(f, 8, 'ask low'),
      ask_c: price(f, 9, 'ask close'),
      ask_size: forex ? null : optNum(f, 10, 'ask size'),
    };
    if (forex) {
      amount(f, 5, 'bid size');
      amount(f, 10, 'ask size');
    }
    sink.quoteBar(row);
    if (forex) {
      // Forex has quotes only; its aggregates are the bid/ask midpoint, which every quote bar with
      // both sides gives. Volume is not supplied by the source.
      const { bid_o, bid_h, bid_l, bid_c, ask_o, ask_h, ask_l, ask_c } = row;
      if (bid_o === null || bid_h === null || bid_l === null || bid_c === null) return;
      if (ask_o === null || ask_h === null || ask_l === null || ask_c === null) return;
      sink.bar({
        ticker,
        resolution,
        t,
        o: (bid_o + ask_o) / 2,
        h: (bid_h + ask_h) / 2,
        l: (bid_l + ask_l) / 2,
        c: (bid_c + ask_c) / 2,
        v: 0,
        vw: null,
        n: null,
      });
    }
  });
}

function parseOptionEntryRows(
  desc: Extract<LeanFile, { kind: 'option' }>,
  where: { file: string; entry: string },
  text: string,
  sink: RowSink,
): void {
  const entryName = where.entry.split('/').pop() as string;
  const contract = parseOptionEntry(entryName, desc.underlying);
  if (!contract) {
    throw new IngestError(
      where,
      'entry name does not name a contract (…_<style>_<call|put>_<strike>_<YYYYMMDD>.csv)',
    );
  }
  const ticker = optionTicker(contract);
  sink.contract({
    ticker,
    underlying_ticker: contract.underlying,
    contract_type: contract.right,
    exercise_style: contract.style ?? defaultExerciseStyle(contract.underlying),
    expiration_date: isoDate(contract.expiry),
    strike_price: contract.strikeThousandths / 1000,
    shares_per_contract: 100,
    primary_exchange: null,
  });
  const time = barClock('option', desc.resolution, desc.date);
  if (desc.tickType === 'trade') {
    parseTradeBars(ticker, desc.resolution, time, DECI_CENTS, 'column', where, text, sink);
  } else if (desc.tickType === 'quote') {
    parseQuoteBars(ticker, desc.resolution, time, DECI_CENTS, false, where, text, sink);
  } else {
    eachRow(text, where, (f) => {
      columns(f, 2);
      sink.openInterest({ ticker, t: time(f[0] as string), open_interest: amount(f, 1, 'open interest') });
    });
  }
}

/**
 * Factor files list, per date, the factors that apply up to that date. A change of SplitFactor between
 * two rows is a split taking effect on the trading day after the earlier row: ratio = new / old
 * (AAPL 0.0357143 → 0.25 is 7-for-1).
 */
function parseFactorFile(ticker: string, file: string, text: string, sink: RowSink): void {
  let previous: { date: string; split: number } | undefined;
  eachRow(text, { file }, (f) => {
    columns(f, 3, 4);
    const d = parseLeanDate(f[0] as string);
    if (!d) fail(`date is not YYYYMMDD: ${JSON.stringify(f[0])}`);
    num(f, 1, 'price factor');
    const split = num(f, 2, 'split factor');
    if (split <= 0) fail('split factor is not positive');
    const date = isoDate(d);
    if (previous && date <= previous.date) fail('dates are not increasing');
    if (previous && split !== previous.split) {
      const { from, to } = splitRatio(split / previous.split);
      sink.split({ ticker, execution_date: nextTradingDay(previous.date), split_from: from, split_to: to });
    }
    previous = { date, split };
  });
  sink.ticker(stockTicker(ticker));
}

/**
 * The split a factor quotient stands for. Real splits have small terms (2-for-1, 3-for-2, 1-for-20),
 * and the factors carry rounding noise of about 1e-4 (TWX 3.0003 / 1.49993008), so small terms within
 * 5e-4 win; any other change (GOOG's 2015 adjustment, 1.0028) is kept as the decimal ratio.
 */
export function splitRatio(ratio: number): { from: number; to: number } {
  for (let q = 1; q <= 50; q++) {
    const p = Math.round(ratio * q);
    if (p > 0 && Math.abs(p / q - ratio) <= ratio * 5e-4) return { from: q, to: p };
  }
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return ratio >= 1 ? { from: 1, to: round(ratio) } : { from: round(1 / ratio), to: 1 };
}

/** Map files: date, symbol in use up to that date, primary-exchange code. */
function parseMapFile(ticker: string, file: string, text: string, sink: RowSink): void {
  let last: { date: string; exchange: string | null } | undefined;
  eachRow(text, { file }, (f) => {
    columns(f, 2, 3);
    const d = parseLeanDate(f[0] as string);
    if (!d) fail(`date is not YYYYMMDD: ${JSON.stringify(f[0])}`);
    const symbol = (f[1] as string).toUpperCase();
    if (symbol === '') fail('symbol is empty');
    const date = isoDate(d);
    if (last && date <= last.date) fail('dates are not increasing');
    const exchange = primaryExchangeMic(f[2] ?? '');
    sink.tickerHistory({ ticker, date, symbol, exchange });
    last = { date, exchange };
  });
  if (!last) return;
  // Lean ends a live symbol's map file with the 2050-12-31 sentinel; an earlier last date is the
  // delisting.
  const active = last.date >= '2050-12-31';
  sink.ticker(
    {
      ...stockTicker(ticker),
      active,
      primary_exchange: last.exchange,
      delisted_utc: active ? null : `${last.date} 00:00:00`,
    },
    true,
  );
}
