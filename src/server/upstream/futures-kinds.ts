import { expandPath } from '../../core/path.js';
import { dayOf } from '../../dates/time-zone.js';
import { futuresOperations } from '../../operations/futures.js';
import { sessionBoundsMs, sessionEndDate, utcDayStart } from '../market/futures.js';
import type { CachedKind, Storage } from './cached-kind.js';
import { type DayRange, dayNumber, dayText } from './coverage.js';
import { type DayClock, num, tableStorage } from './store-fetched.js';

/**
 * The futures data the caching server stores in the store's own tables, as `mdq ingest` fills them
 * from Lean's files: candles of one minute, one hour and one session as bars (`minute`, `hour`, `day`),
 * trades and quotes as ticks. Their coverage counts trading dates (a session runs from 18:00 New York
 * the evening before to 17:00 on its date), and a date is final once its session has ended.
 */

type Json = Record<string, unknown>;

/** Most records a page may hold upstream: fewer pages for a whole range. */
const PAGE_LIMIT = 50_000;

const nextDay = (day: string) => dayText(dayNumber(day) + 1);

/** Trading dates: the date's session starts at 18:00 New York the evening before, and ends where the next starts. */
export const TRADING_DATES: DayClock = { startMs: (day) => sessionBoundsMs(day).start, of: sessionEndDate };

/** UTC dates: a session's daily bar is stamped at UTC midnight of its trading date. */
export const UTC_DATES: DayClock = { startMs: utcDayStart, of: (ms) => dayOf(ms, 'UTC') };

/** The first trading date whose session had not ended at `ms`: every earlier date is final. */
export function firstOpenTradingDate(ms: number): string {
  const date = sessionEndDate(ms);
  return ms >= sessionBoundsMs(date).end ? nextDay(date) : date;
}

/** A storage whose coverage is final up to the first trading date still open when fetched. */
const bySession = (storage: Storage): Storage => ({
  remove: storage.remove,
  write: (store, f) => storage.write(store, { ...f, today: firstOpenTradingDate(f.fetchedAt) }),
});

/** A time of the service's (ns, a number or a bigint) in ms. */
const nsToMs = (v: unknown): number =>
  typeof v === 'bigint' ? Number(v / 1_000_000n) : Math.floor(Number(v) / 1e6);
const msText = (v: unknown): string =>
  typeof v === 'bigint' ? String(v / 1_000_000n) : String(Math.floor(Number(v) / 1e6));

/** The ns bounds of a range of days on a clock, as query values. */
const nsRange = (days: DayClock, range: DayRange) => ({
  gte: String(BigInt(days.startMs(range.first)) * 1_000_000n),
  lt: String(BigInt(days.startMs(nextDay(range.last))) * 1_000_000n),
});

const { getAggregates, getTrades, getQuotes } = futuresOperations;

/** The stored resolutions of futures candles, and the candle resolution fetched for each. */
export const FUTURES_BAR_SOURCES = { minute: '1min', hour: '1hour', day: '1session' } as const;

/**
 * A contract's candles of one stored resolution, by trading date (daily bars by the UTC date they are
 * stamped on, which is their trading date). A candle's dollar volume is kept as its average price (`vw`
 * = dollar volume / volume), so that candles rolled up from it sum the service's dollar volumes.
 */
const candles = (source: keyof typeof FUTURES_BAR_SOURCES, label: string): CachedKind => {
  const days = source === 'day' ? UTC_DATES : TRADING_DATES;
  return {
    name: `futures:${source}`,
    label,
    span: 'day',
    first: (ticker, range) => {
      const { gte, lt } = nsRange(days, range);
      return `${expandPath(getAggregates.path, { ticker })}?${new URLSearchParams({
        resolution: FUTURES_BAR_SOURCES[source],
        'window_start.gte': gte,
        'window_start.lt': lt,
        sort: 'window_start.asc',
        limit: String(PAGE_LIMIT),
      })}`;
    },
    storage: bySession(
      tableStorage({
        table: 'bars',
        time: 't',
        resolution: source,
        days,
        timeMs: (b) => nsToMs(b.window_start),
        line: (t, b) => {
          const volume = typeof b.volume === 'number' ? b.volume : 0;
          const vw =
            typeof b.dollar_volume === 'number' && volume > 0 ? String(b.dollar_volume / volume) : '';
          return `${t}\t${source}\t${msText(b.window_start)}\t${num(b.open)}\t${num(b.high)}\t${num(b.low)}\t${num(b.close)}\t${volume}\t${vw}\t${num(b.transactions)}\t${num(b.settlement_price)}`;
        },
      }),
    ),
  };
};

/** The first page of a contract's ticks over whole trading dates, oldest first. */
const ticksOf =
  (path: string): CachedKind['first'] =>
  (ticker, range) => {
    const { gte, lt } = nsRange(TRADING_DATES, range);
    return `${expandPath(path, { ticker })}?${new URLSearchParams({
      'timestamp.gte': gte,
      'timestamp.lt': lt,
      sort: 'timestamp.asc',
      limit: String(PAGE_LIMIT),
    })}`;
  };

const tickMs = (r: Json) => nsToMs(r.timestamp);

// The service's report sequence, channel and a quote's bid and ask times go to the tick tables' last
// columns (see migration 9).
const trades: CachedKind = {
  name: 'futures:trades',
  label: 'futures trades',
  span: 'day',
  first: ticksOf(getTrades.path),
  storage: bySession(
    tableStorage({
      table: 'trades',
      time: 'sip_timestamp',
      days: TRADING_DATES,
      timeMs: tickMs,
      line: (t, r, i) =>
        `${t}\t${num(r.timestamp)}\t\t${num(r.sequence_number) || i}\t${num(r.price)}\t${num(r.size)}\t\t\t\t\t\t\t\t${num(r.report_sequence)}\t${num(r.channel)}`,
    }),
  ),
};

const quotes: CachedKind = {
  name: 'futures:quotes',
  label: 'futures quotes',
  span: 'day',
  first: ticksOf(getQuotes.path),
  storage: bySession(
    tableStorage({
      table: 'quotes',
      time: 'sip_timestamp',
      days: TRADING_DATES,
      timeMs: tickMs,
      line: (t, r, i) =>
        `${t}\t${num(r.timestamp)}\t\t${num(r.sequence_number) || i}\t${num(r.bid_price)}\t${num(r.bid_size)}\t\t${num(r.ask_price)}\t${num(r.ask_size)}\t\t\t\t\t${num(r.report_sequence)}\t${num(r.channel)}\t${num(r.bid_timestamp)}\t${num(r.ask_timestamp)}`,
    }),
  ),
};

/** Every futures kind the caching server stores. */
export const FUTURES_KINDS: readonly CachedKind[] = [
  candles('minute', 'futures minute candles'),
  candles('hour', 'futures hour candles'),
  candles('day', 'futures session candles'),
  trades,
  quotes,
];
