/**
 * Aggregate requests whose windows are far longer than their range (multipliers up to the largest the
 * route takes), and what their answers must be: one bar made of the range's data alone, equal to the
 * bars of one timespan over the same range taken together, stamped with its window's start; and the
 * checks on what the store was asked.
 */
import assert from 'node:assert/strict';
import type { Bar } from '../../src/server/market/bars.js';
import type { RecordedQuery } from '../support/recording-store.js';

const DAY = 86_400_000;

/** Multipliers of windows that hold years to ages: the route takes any safe integer. */
export const WIDE_MULTIPLIERS = [10_000_000, 2_147_483_647, Number.MAX_SAFE_INTEGER] as const;

/** One range of one timespan over real data, with the instants it covers (Unix ms). */
export interface WideCase {
  timespan: string;
  ticker: string;
  /** The `{from}/{to}` of the path. */
  range: string;
  fromMs: number;
  toMs: number;
}

const ms = (iso: string) => Date.parse(iso);
/** A range of dates in New York: from its first midnight to its last day's end (within a day either way). */
const dates = (from: string, to: string) => ({
  range: `${from}/${to}`,
  fromMs: ms(`${from}T00:00:00Z`),
  toMs: ms(`${to}T00:00:00Z`) + DAY,
});
/** A range of instants, given in ms, neither on a second nor on a minute. */
const instants = (from: string, to: string) => ({
  range: `${ms(from)}/${ms(to)}`,
  fromMs: ms(from),
  toMs: ms(to),
});

/**
 * Every timespan over SPY's data: its ticks of 2013-10-07 (seconds), its minute bars of 2013-10-04 and
 * ticks of 2013-10-07 (minutes and hours, across the weekend), its daily bars (longer windows, over
 * whole periods).
 */
export const WIDE_CASES: readonly WideCase[] = [
  { timespan: 'second', ticker: 'SPY', ...instants('2013-10-07T14:00:00.500Z', '2013-10-07T14:09:59.250Z') },
  { timespan: 'minute', ticker: 'SPY', ...instants('2013-10-04T19:58:30.500Z', '2013-10-07T13:45:10.250Z') },
  { timespan: 'hour', ticker: 'SPY', ...instants('2013-10-04T17:58:30.500Z', '2013-10-07T15:45:10.250Z') },
  { timespan: 'day', ticker: 'SPY', ...dates('2013-09-03', '2013-10-09') },
  { timespan: 'week', ticker: 'SPY', ...dates('2013-09-01', '2013-10-12') },
  { timespan: 'month', ticker: 'SPY', ...dates('2013-07-01', '2013-10-31') },
  { timespan: 'quarter', ticker: 'SPY', ...dates('2013-04-01', '2013-09-30') },
  { timespan: 'year', ticker: 'SPY', ...dates('2012-01-01', '2013-12-31') },
];

/** The path of a case's aggregates in windows of `multiplier` timespans. */
export const widePath = (c: WideCase, multiplier: number) =>
  `/v2/aggs/ticker/${c.ticker}/range/${multiplier}/${c.timespan}/${c.range}?limit=50000`;

/** What New York's wall clock shows at `t`, as ms since 1970-01-01 on that clock. */
function newYorkWall(t: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(t);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) + (t % 1000);
}

const UNIT: Readonly<Record<string, number>> = { second: 1000, minute: 60_000, hour: 3_600_000 };

/**
 * The start of the `multiplier` × `timespan` window holding `fromMs`, for second, minute and hour
 * windows: a multiple of the window's length since 1970-01-01 on New York's wall clock.
 */
function intradayWindowStart(timespan: string, multiplier: number, fromMs: number): number {
  const size = (UNIT[timespan] as number) * multiplier;
  const wall = Math.floor(newYorkWall(fromMs) / size) * size;
  // New York is 4 or 5 hours behind UTC; take the instant at which its clock shows that time.
  const at = [4, 5].map((h) => wall + h * 3_600_000).find((t) => newYorkWall(t) === wall);
  assert.ok(at !== undefined, `New York's clock shows ${wall}`);
  return at;
}

/**
 * Checks a wide answer against the answer in windows of one timespan over the same range: one bar,
 * equal to those bars taken together (first open, last close, highest high, lowest low, summed
 * volume, volume-weighted vw, summed count when every bar has one), made of as many base aggregates,
 * stamped with the start of its window (intraday: on the wall clock; longer: the first period's,
 * which the windows are counted from).
 */
export function assertWideBar(
  c: WideCase,
  multiplier: number,
  wide: { queryCount: number; results?: Bar[] },
  unit: { queryCount: number; results?: Bar[] },
): void {
  const bars = unit.results ?? [];
  const what = `${multiplier}/${c.timespan} of ${c.range}`;
  assert.ok(bars.length > 1, `${c.timespan} bars over ${c.range}`);
  assert.equal(wide.results?.length, 1, `${what}: one bar`);
  const bar = wide.results?.[0] as Bar;
  const first = bars[0] as Bar;
  const last = bars[bars.length - 1] as Bar;
  const v = bars.reduce((a, b) => a + b.v, 0);
  const counted = bars.every((b) => b.n !== undefined);
  const expected = {
    t: c.timespan in UNIT ? intradayWindowStart(c.timespan, multiplier, c.fromMs) : first.t,
    o: first.o,
    h: Math.max(...bars.map((b) => b.h)),
    l: Math.min(...bars.map((b) => b.l)),
    c: last.c,
    v,
    ...(counted && { n: bars.reduce((a, b) => a + (b.n as number), 0) }),
  };
  const { vw, ...rest } = bar;
  assert.deepEqual(rest, expected, what);
  const wantVw = bars.reduce((a, b) => a + (b.vw as number) * b.v, 0) / v;
  // Each bar's vw is written to four decimals.
  assert.ok(Math.abs((vw as number) - wantVw) <= 1e-4, `${what}: vw ${vw} vs ${wantVw}`);
  assert.equal(wide.queryCount, unit.queryCount, `${what}: base aggregates`);
}

/**
 * The parameters of `queries` that read as instants (ms from 1973 on, or ns), in ms. Window keys
 * (minutes or days since 1970), limits and lengths are far smaller numbers.
 */
function instantsAsked(queries: readonly RecordedQuery[]): number[] {
  const out: number[] = [];
  for (const q of queries) {
    for (const p of q.params) {
      if (typeof p !== 'bigint' && typeof p !== 'number') continue;
      const n = Math.abs(Number(p));
      if (n >= 1e17) out.push(Number(p) / 1e6);
      else if (n >= 1e11) out.push(Number(p));
    }
  }
  return out;
}

/** Every instant the store was asked about lies within the case's range widened by a day. */
export function assertAskedWithin(c: WideCase, multiplier: number, queries: readonly RecordedQuery[]): void {
  const asked = instantsAsked(queries);
  assert.ok(asked.length > 0, `${multiplier}/${c.timespan}: the store was asked about instants`);
  const outside = asked.filter((x) => x < c.fromMs - DAY || x > c.toMs + DAY);
  assert.deepEqual(
    outside.map((x) => (Math.abs(x) < 8.64e15 ? new Date(x).toISOString() : String(x))),
    [],
    `${multiplier}/${c.timespan} of ${c.range}: instants asked outside the range widened by a day`,
  );
}
