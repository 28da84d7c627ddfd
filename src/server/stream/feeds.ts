import type { StreamMarket } from '../../stream/channels.js';
import { normaliseLists } from '../market/last.js';
import type { QuoteRow, TradeRow } from '../store/tick-rows.js';

/**
 * What the server replays on each market: the channel of its trades, quotes and aggregates (those it
 * has no data for stay silent), how a channel's ticker maps to the store's, and each tick's wire shape.
 */
export interface Feed {
  trade?: string;
  quote?: string;
  /** Per-second and per-minute aggregates of the trades. */
  second?: string;
  minute?: string;
  /** The store's ticker of a channel's ticker (`C:EUR-USD` → `C:EURUSD`). */
  storeTicker(ticker: string): string;
  tradeEvent?(row: TradeRow): Record<string, unknown>;
  quoteEvent?(row: QuoteRow): Record<string, unknown>;
  /** The aggregate event's ticker fields. */
  aggregateName(ticker: string): Record<string, string>;
}

const ms = (ns: bigint) => Number(ns / 1_000_000n);
const num = (v: number | null) => v ?? 0;

/** `C:EURUSD` → `EUR/USD` (forex), `X:BTCUSD` → `BTC-USD` (crypto): the quote currency is the last three letters. */
function pair(ticker: string, sep: string): string {
  const body = ticker.slice(2);
  return body.length > 3 ? `${body.slice(0, -3)}${sep}${body.slice(-3)}` : body;
}

const samePrefixed = (ticker: string) => ticker;
const unpair = (ticker: string) => ticker.replace(/[-/]/g, '');

function stockTrade(row: TradeRow): Record<string, unknown> {
  const r = normaliseLists(row);
  const out: Record<string, unknown> = {
    ev: 'T',
    sym: r.ticker,
    i: r.id ?? String(r.sequence_number),
    x: num(r.exchange),
    p: r.price,
    s: r.size,
  };
  if (r.conditions && r.conditions.length > 0) out.c = r.conditions;
  out.t = ms(r.sip_timestamp);
  out.q = Number(r.sequence_number);
  out.z = num(r.tape);
  if (r.trf_id !== null) out.trfi = r.trf_id;
  if (r.trf_timestamp !== null) out.trft = ms(r.trf_timestamp);
  return out;
}

function stockQuote(row: QuoteRow): Record<string, unknown> {
  const r = normaliseLists(row);
  const out: Record<string, unknown> = {
    ev: 'Q',
    sym: r.ticker,
    bx: num(r.bid_exchange),
    bp: num(r.bid_price),
    bs: num(r.bid_size),
    ax: num(r.ask_exchange),
    ap: num(r.ask_price),
    as: num(r.ask_size),
  };
  if (r.conditions && r.conditions.length > 0) out.c = r.conditions[0];
  if (r.indicators && r.indicators.length > 0) out.i = r.indicators;
  out.t = ms(r.sip_timestamp);
  out.q = Number(r.sequence_number);
  out.z = num(r.tape);
  return out;
}

function optionTrade(row: TradeRow): Record<string, unknown> {
  const r = normaliseLists(row);
  const out: Record<string, unknown> = { ev: 'T', sym: r.ticker, x: num(r.exchange), p: r.price, s: r.size };
  if (r.conditions && r.conditions.length > 0) out.c = r.conditions;
  out.t = ms(r.sip_timestamp);
  out.q = Number(r.sequence_number);
  return out;
}

function optionQuote(row: QuoteRow): Record<string, unknown> {
  return {
    ev: 'Q',
    sym: row.ticker,
    bx: num(row.bid_exchange),
    ax: num(row.ask_exchange),
    bp: num(row.bid_price),
    ap: num(row.ask_price),
    bs: num(row.bid_size),
    as: num(row.ask_size),
    t: ms(row.sip_timestamp),
    q: Number(row.sequence_number),
  };
}

const symName = (ticker: string) => ({ sym: ticker });

/** The feed of every market. */
export const FEEDS: Record<StreamMarket, Feed> = {
  stocks: {
    trade: 'T',
    quote: 'Q',
    second: 'A',
    minute: 'AM',
    storeTicker: samePrefixed,
    tradeEvent: stockTrade,
    quoteEvent: stockQuote,
    aggregateName: symName,
  },
  options: {
    trade: 'T',
    quote: 'Q',
    second: 'A',
    minute: 'AM',
    storeTicker: samePrefixed,
    tradeEvent: optionTrade,
    quoteEvent: optionQuote,
    aggregateName: symName,
  },
  forex: {
    quote: 'C',
    storeTicker: unpair,
    quoteEvent: (r) => ({
      ev: 'C',
      p: pair(r.ticker, '/'),
      x: num(r.ask_exchange ?? r.bid_exchange),
      a: num(r.ask_price),
      b: num(r.bid_price),
      t: ms(r.sip_timestamp),
    }),
    aggregateName: (ticker) => ({ pair: pair(ticker, '/') }),
  },
  crypto: {
    trade: 'XT',
    quote: 'XQ',
    second: 'XAS',
    minute: 'XA',
    storeTicker: unpair,
    tradeEvent: (row) => {
      const r = normaliseLists(row);
      const out: Record<string, unknown> = {
        ev: 'XT',
        pair: pair(r.ticker, '-'),
        p: r.price,
        t: ms(r.sip_timestamp),
      };
      out.s = r.size;
      if (r.conditions && r.conditions.length > 0) out.c = r.conditions;
      out.i = r.id ?? String(r.sequence_number);
      out.x = num(r.exchange);
      out.r = ms(r.participant_timestamp ?? r.sip_timestamp);
      return out;
    },
    quoteEvent: (r) => ({
      ev: 'XQ',
      pair: pair(r.ticker, '-'),
      bp: num(r.bid_price),
      bs: num(r.bid_size),
      ap: num(r.ask_price),
      as: num(r.ask_size),
      t: ms(r.sip_timestamp),
      x: num(r.ask_exchange ?? r.bid_exchange),
      r: ms(r.participant_timestamp ?? r.sip_timestamp),
    }),
    aggregateName: (ticker) => ({ pair: pair(ticker, '-') }),
  },
  indices: { storeTicker: samePrefixed, aggregateName: symName },
};
