import { addDays } from '../dates/calendar.js';
import { NEW_YORK, startOfDay, zonedToUtc } from '../dates/time-zone.js';
import { tradingSession } from '../server/calendar/index.js';
import { blackScholesPrice, DAYS_PER_YEAR } from '../server/greeks/black-scholes.js';
import type { DuckDbStore } from '../server/store/duckdb-store.js';
import { buildOptionSymbol } from '../symbols/index.js';
import {
  SIM_FIRST_DAY,
  SIM_INDEX,
  SIM_LAST_DAY,
  SIM_OPTION_DAYS,
  SIM_OPTION_EXPIRIES,
  SIM_OPTION_UNDERLYING,
  SIM_PAIR_DAYS,
  SIM_PAIRS,
  SIM_SEED,
  SIM_STOCKS,
  SIM_TICK_DAYS,
  SIM_VERSION,
} from './universe.js';

/** What {@link simulateMarket} wrote. */
export interface SimulationSummary {
  /** Rows per table. */
  readonly rows: Readonly<Record<string, number>>;
  readonly elapsedMs: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

// The columns written, by name: the tables also have columns only the service's answers fill.
const BAR_COLUMNS = '(ticker, resolution, t, o, h, l, c, v, vw, n)';
const TRADE_COLUMNS =
  '(ticker, sip_timestamp, participant_timestamp, sequence_number, price, size, exchange, conditions, id, tape, correction, trf_id, trf_timestamp)';
const QUOTE_COLUMNS =
  '(ticker, sip_timestamp, participant_timestamp, sequence_number, bid_price, bid_size, bid_exchange, ask_price, ask_size, ask_exchange, conditions, indicators, tape)';

/**
 * Trading days of the simulated year with their session bounds: the US calendar (holidays, half days
 * closing at 13:00), regular hours only.
 */
function tradingDays(): { d: number; day: string; openMs: number; minutes: number; midnightMs: number }[] {
  const out = [];
  for (let day = SIM_FIRST_DAY; day <= SIM_LAST_DAY; day = addDays(day, 1)) {
    const s = tradingSession(day);
    if (!s) continue;
    out.push({
      d: out.length,
      day,
      openMs: s.open,
      minutes: (s.close - s.open) / MINUTE,
      midnightMs: startOfDay(day, NEW_YORK),
    });
  }
  return out;
}

/**
 * Random draws in SQL, each a pure function of the seed and the draw's coordinates, so the market is
 * the same on every run and every machine: a uniform in (0, 1), a unit-variance logistic draw (close to
 * a normal, with the fatter tails of real returns; one hash instead of Box–Muller's two) and a unit
 * exponential. The hash is applied twice: DuckDB's combined hash of several values alone leaves
 * neighbouring draws correlated, which biases the draws and makes prices wander off over a year.
 */
const MACROS = `
  CREATE OR REPLACE TEMP MACRO sim_u(a, b, c, d) AS
    ((hash(hash(${SIM_SEED}, a, b, c, d)) % 2147483647)::DOUBLE + 0.5) / 2147483647.0;
  CREATE OR REPLACE TEMP MACRO sim_z(a, b, c, d) AS
    0.5513 * ln(sim_u(a, b, c, d) / (1 - sim_u(a, b, c, d)));
  CREATE OR REPLACE TEMP MACRO sim_e(a, b, c, d) AS -ln(sim_u(a, b, c, d));
`;

/**
 * Generates the simulated market into an empty store: a year of regular-session minute bars (and
 * daily bars) for five stocks, one with a 4-for-1 split; trades and NBBO quotes for the last days,
 * from which those days' minute bars are built; an index of the stocks; forex and crypto minute bars
 * around the clock for the last month; an option chain on SIMA priced by Black–Scholes from its
 * underlying with a volatility smile; and reference rows naming everything "Simulated".
 *
 * Intraday pattern: volatility and volume are U-shaped over the session (high at the open and the
 * close), volatility varies from day to day, and overnight gaps open each day.
 *
 * Floating-point sums are ordered (`sum(x ORDER BY t)`): DuckDB adds in parallel, in whatever order its
 * threads finish, and the last bit of an unordered sum (and so a rounded price) could differ from run
 * to run.
 */
export async function simulateMarket(store: DuckDbStore): Promise<SimulationSummary> {
  const started = performance.now();
  const days = tradingDays();
  const last = days[days.length - 1] as (typeof days)[number];
  const tickFrom = days.length - SIM_TICK_DAYS;
  await store.connection.run(MACROS);
  await store.run(
    `CREATE OR REPLACE TEMP TABLE sim_days AS SELECT * FROM (VALUES ${days
      .map((x) => `(${x.d}, DATE '${x.day}', ${x.openMs}::BIGINT, ${x.minutes}, ${x.midnightMs}::BIGINT)`)
      .join(', ')}) v(d, day, open_ms, minutes, midnight_ms)`,
  );
  const stockRows = SIM_STOCKS.map((s, k) => {
    const split = s.split ? days.find((x) => x.day === s.split?.date) : undefined;
    const ratio = s.split?.to ?? 1;
    return `(${k}, ${sqlString(s.ticker)}, ${s.price / ratio}, ${s.vol}, ${s.drift}, ${s.volume}, ${split?.d ?? -1}, ${ratio}::DOUBLE)`;
  });
  await store.run(
    `CREATE OR REPLACE TEMP TABLE sim_stocks AS SELECT * FROM (VALUES ${stockRows.join(', ')}) v(k, ticker, p0, vol, drift, vol0, split_d, ratio)`,
  );

  // The split-adjusted minute path of every stock.
  await store.run(`
    CREATE OR REPLACE TEMP TABLE sim_path AS
    WITH g AS (
      SELECT s.*, d.d, d.open_ms, d.minutes, unnest(range(d.minutes)) AS i FROM sim_stocks s CROSS JOIN sim_days d),
    r AS (
      SELECT *, i::DOUBLE / greatest(minutes - 1, 1) AS x,
             vol / sqrt(252 * 390) * exp(0.25 * sim_z(k, d, -1, 1)) AS sd FROM g),
    r2 AS (
      SELECT *, sd * (0.6 + 1.2 * pow(2 * x - 1, 2)) AS si,
             CASE WHEN i = 0 THEN vol / sqrt(252) * 0.35 * sim_z(k, d, -1, 2) ELSE 0 END AS gap FROM r),
    r3 AS (SELECT *, si * sim_z(k, d, i, 3) + drift / (252 * 390) - 0.5 * si * si AS ret FROM r2),
    p AS (SELECT *, ln(p0) + sum(ret + gap) OVER (PARTITION BY k ORDER BY d, i ROWS UNBOUNDED PRECEDING) AS lc FROM r3)
    SELECT k, ticker, d, i, open_ms + i * ${MINUTE} AS t, p0, split_d, ratio, vol0, x, si, ret, gap,
           exp(lc - ret) AS o, exp(lc) AS c,
           greatest(exp(lc - ret), exp(lc)) * exp(sim_e(k, d, i, 4) * si * 0.5) AS h,
           least(exp(lc - ret), exp(lc)) * exp(-sim_e(k, d, i, 5) * si * 0.5) AS l
      FROM p`);

  // Raw (unadjusted) stock minute bars: before a split, prices are `ratio` times the adjusted ones.
  await store.run(`
    INSERT INTO bars ${BAR_COLUMNS}
    SELECT ticker, 'minute', t, o, greatest(h, o, c), least(l, o, c), c, v,
           round((o + greatest(h, o, c) + least(l, o, c) + c) / 4, 4), greatest(1, round(v / 150))::BIGINT
      FROM (
        SELECT ticker, t, round(o * f, 2) AS o, round(h * f, 2) AS h, round(l * f, 2) AS l, round(c * f, 2) AS c,
               round(vol0 / f * (0.45 + 2.2 * pow(2 * x - 1, 4) + CASE WHEN x > 0.97 THEN 1.5 ELSE 0 END)
                     * exp(0.35 * sim_z(k, d, i, 6)) * (1 + 0.3 * abs(ret) / si)
                     * exp(0.3 * sim_z(k, d, -1, 8)) * (1 + 25 * abs(gap))) AS v
          FROM (SELECT *, CASE WHEN d < split_d THEN ratio ELSE 1 END AS f FROM sim_path))`);

  // The index: 1000 × the average of the stocks' adjusted prices relative to their start.
  await store.run(`
    INSERT INTO bars ${BAR_COLUMNS}
    SELECT ${sqlString(SIM_INDEX.ticker)}, 'minute', t, round(avg(o / p0 ORDER BY k) * 1000, 2), round(avg(h / p0 ORDER BY k) * 1000, 2),
           round(avg(l / p0 ORDER BY k) * 1000, 2), round(avg(c / p0 ORDER BY k) * 1000, 2), 0, NULL, NULL
      FROM sim_path GROUP BY t`);

  // Trades of the last days: each minute's trades run from its open through its high and low to its
  // close; the minute bars of those days are then rebuilt from the trades, so both always agree.
  await store.run(`
    INSERT INTO trades ${TRADE_COLUMNS}
    WITH b AS (
      SELECT p.k, p.d, p.i, bars.* FROM bars JOIN sim_path p ON bars.ticker = p.ticker AND bars.t = p.t
       WHERE bars.resolution = 'minute' AND p.d >= ${tickFrom}),
    e AS (SELECT *, unnest(range(n)) AS j FROM b),
    tr AS (
      SELECT ticker, d,
             t * 1000000 + j * (60000000000 // n) + (sim_u(k, d * 1000 + i, j, 11) * (60000000000 // n - 1000))::BIGINT AS sip,
             CASE WHEN j = 0 THEN o WHEN j = n - 1 THEN c WHEN j = 1 AND n > 3 THEN h WHEN j = 2 AND n > 3 THEN l
                  ELSE round(l + (h - l) * sim_u(k, d * 1000 + i, j, 12), 2) END AS price,
             CASE WHEN sim_u(k, d * 1000 + i, j, 13) < 0.25 THEN 1 + floor(sim_u(k, d * 1000 + i, j, 14) * 99)
                  ELSE 100 * (1 + floor(sim_u(k, d * 1000 + i, j, 14) * 3)) END AS size,
             (ARRAY[4, 11, 12, 10, 8, 1, 19])[1 + floor(sim_u(k, d * 1000 + i, j, 15) * 7)::INTEGER] AS exchange
        FROM e)
    SELECT ticker, sip, sip - 100000 - (sip % 900000), row_number() OVER (PARTITION BY ticker, d ORDER BY sip),
           price, size, exchange, NULL, (row_number() OVER (PARTITION BY ticker, d ORDER BY sip))::VARCHAR,
           3, NULL, NULL, NULL
      FROM tr`);
  await store.run(`
    DELETE FROM bars WHERE resolution = 'minute' AND t >= ${days[tickFrom]?.openMs}
       AND ticker IN (SELECT ticker FROM sim_stocks)`);
  await store.run(`
    INSERT INTO bars ${BAR_COLUMNS}
    SELECT ticker, 'minute', (sip_timestamp // 60000000000) * 60000 AS t,
           arg_min(price, sequence_number), max(price), min(price), arg_max(price, sequence_number),
           sum(size), round(sum(price * size ORDER BY sequence_number) / sum(size), 4), count(*)
      FROM trades WHERE ticker IN (SELECT ticker FROM sim_stocks) GROUP BY ticker, t`);

  // NBBO quotes of the same days: a tight spread around a mid that moves from each minute's open to its close.
  await store.run(`
    INSERT INTO quotes ${QUOTE_COLUMNS}
    WITH b AS (
      SELECT p.k, p.d, p.i, bars.* FROM bars JOIN sim_path p ON bars.ticker = p.ticker AND bars.t = p.t
       WHERE bars.resolution = 'minute' AND p.d >= ${tickFrom}),
    e AS (SELECT *, unnest(range(12)) AS q FROM b),
    m AS (
      SELECT ticker, d, k, i, q, t * 1000000 + q * 5000000000 + (sim_u(k, d * 1000 + i, q, 21) * 4000000000)::BIGINT AS sip,
             least(h, greatest(l, o + (c - o) * q / 11.0)) AS mid FROM e),
    s AS (SELECT *, greatest(0.01, round(mid * 0.0002, 2)) AS spread FROM m)
    SELECT ticker, sip, sip - 150000, row_number() OVER (PARTITION BY ticker, d ORDER BY sip),
           round(mid - spread / 2, 2), 100 * (1 + floor(sim_u(k, d * 1000 + i, q, 22) * 8)),
           (ARRAY[12, 11, 19])[1 + floor(sim_u(k, d * 1000 + i, q, 23) * 3)::INTEGER],
           round(mid - spread / 2, 2) + spread, 100 * (1 + floor(sim_u(k, d * 1000 + i, q, 24) * 8)),
           (ARRAY[12, 11, 19])[1 + floor(sim_u(k, d * 1000 + i, q, 25) * 3)::INTEGER],
           NULL, NULL, 3
      FROM s`);

  // Daily bars of stocks and the index, from their minute bars.
  await store.run(`
    INSERT INTO bars ${BAR_COLUMNS}
    -- Regular-session minutes (13:30–21:00 UTC) fall on the UTC date of their New York trading day.
    SELECT b.ticker, 'day', d.midnight_ms, arg_min(o, t), max(h), min(l), arg_max(c, t), sum(v ORDER BY t),
           CASE WHEN sum(v) > 0 THEN round(sum(vw * v ORDER BY t) / sum(v ORDER BY t), 4) END, sum(n)
      FROM bars b JOIN sim_days d ON b.t // ${DAY} = d.open_ms // ${DAY}
     WHERE b.resolution = 'minute' AND NOT starts_with(b.ticker, 'O:') GROUP BY b.ticker, d.midnight_ms`);

  // Pairs trade up to the New York midnight that ends the year's last day: the server's "now" (the end
  // of the last daily bar) then falls inside the pairs' last UTC day, so their snapshots have a day.
  await simulatePairs(store, startOfDay(addDays(last.day, 1), NEW_YORK));
  await simulateOptions(store, days, last.day);
  await writeReference(store);
  await store.run(
    `INSERT INTO meta VALUES ('simulated', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [`simulated market v${SIM_VERSION} seed ${SIM_SEED}`],
  );
  const rows: Record<string, number> = {};
  for (const table of ['bars', 'trades', 'quotes', 'quote_bars', 'option_contracts', 'tickers', 'splits']) {
    const r = await store.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table}`);
    rows[table] = Number(r[0]?.n ?? 0);
  }
  return { rows, elapsedMs: performance.now() - started };
}

/** Forex and crypto minute bars (with bid/ask quote bars) over the last `SIM_PAIR_DAYS` days, around the clock. */
async function simulatePairs(store: DuckDbStore, endMs: number): Promise<void> {
  const pairRows = SIM_PAIRS.map(
    (p, k) =>
      `(${k + 100}, ${sqlString(p.ticker)}, ${p.price}::DOUBLE, ${p.vol}, ${p.decimals}, ${p.weekends})`,
  );
  await store.run(
    `CREATE OR REPLACE TEMP TABLE sim_pairs AS SELECT * FROM (VALUES ${pairRows.join(', ')}) v(k, ticker, p0, vol, dec, weekends)`,
  );
  const startMs = endMs - SIM_PAIR_DAYS * DAY;
  await store.run(`
    CREATE OR REPLACE TEMP TABLE sim_pair_path AS
    WITH g AS (
      SELECT p.*, m AS t FROM sim_pairs p CROSS JOIN (SELECT unnest(range(${startMs}::BIGINT, ${endMs}::BIGINT, ${MINUTE})) AS m)
       WHERE weekends OR dayofweek(make_timestamp(m * 1000)) NOT IN (0, 6)),
    r AS (
      SELECT *, ((t % ${DAY}) / 3600000)::INTEGER AS hr,
             vol / sqrt(CASE WHEN weekends THEN 365 ELSE 260 END * 1440)
               * (0.6 + 0.8 * exp(-pow((((t % ${DAY}) / 3600000.0) - 14.5) / 3, 2))) AS si FROM g),
    r2 AS (SELECT *, si * sim_z(k, t // ${MINUTE}, 0, 31) - 0.5 * si * si AS ret FROM r),
    p AS (SELECT *, ln(p0) + sum(ret) OVER (PARTITION BY k ORDER BY t ROWS UNBOUNDED PRECEDING) AS lc FROM r2)
    SELECT ticker, k, t, dec, si, p0, exp(lc - ret) AS o, exp(lc) AS c,
           greatest(exp(lc - ret), exp(lc)) * exp(sim_e(k, t // ${MINUTE}, 0, 32) * si * 0.5) AS h,
           least(exp(lc - ret), exp(lc)) * exp(-sim_e(k, t // ${MINUTE}, 0, 33) * si * 0.5) AS l,
           (0.6 + 0.8 * exp(-pow((((t % ${DAY}) / 3600000.0) - 14.5) / 3, 2))) * exp(0.4 * sim_z(k, t // ${MINUTE}, 0, 34)) AS vf
      FROM p`);
  await store.run(`
    INSERT INTO bars ${BAR_COLUMNS}
    SELECT ticker, 'minute', t, round(o, dec), round(greatest(h, o, c), dec), round(least(l, o, c), dec), round(c, dec),
           CASE WHEN starts_with(ticker, 'X:') THEN round(vf * 400000 / p0, 4) ELSE round(vf * 60) END,
           round((o + h + l + c) / 4, dec), greatest(1, round(vf * 60))::BIGINT
      FROM sim_pair_path`);
  await store.run(`
    INSERT INTO quote_bars
    SELECT ticker, 'minute', t, round(o - sp, dec), round(h - sp, dec), round(l - sp, dec), round(c - sp, dec), 1000000,
           round(o + sp, dec), round(h + sp, dec), round(l + sp, dec), round(c + sp, dec), 1000000
      FROM (SELECT *, p0 * 0.00004 AS sp FROM sim_pair_path)`);
  await store.run(`
    INSERT INTO bars ${BAR_COLUMNS}
    SELECT ticker, 'day', t // ${DAY} * ${DAY} AS day, arg_min(o, t), max(h), min(l), arg_max(c, t), round(sum(v ORDER BY t), 4),
           round(sum(vw * v ORDER BY t) / sum(v ORDER BY t), 6), sum(n)
      FROM bars WHERE resolution = 'minute' AND (starts_with(ticker, 'C:') OR starts_with(ticker, 'X:'))
     GROUP BY ticker, day`);
}

/** Implied volatility of the chain: a smile in log-moneyness over a term structure. */
function smileVol(spot: number, strike: number, years: number): number {
  const m = Math.log(strike / spot);
  return 0.28 * (1 + 2.5 * m * m) * (1 + 0.06 / Math.sqrt(Math.max(years, 1 / 365) * 12));
}

/**
 * The option chain on the simulated underlying: calls and puts at strikes 5 apart within ±20% of its
 * last close, for each expiry; daily bars over the last weeks and minute bars on the last day, each
 * price the Black–Scholes value of the underlying's price at that moment on the smile (so implied
 * volatility recovered from any bar lands on the smile).
 */
async function simulateOptions(
  store: DuckDbStore,
  days: readonly { d: number; day: string; openMs: number; minutes: number; midnightMs: number }[],
  lastDay: string,
): Promise<void> {
  const u = SIM_OPTION_UNDERLYING;
  const dayBars = await store.all<{ t: number; o: number; h: number; l: number; c: number }>(
    `SELECT t::DOUBLE AS t, o, h, l, c FROM bars WHERE ticker = $1 AND resolution = 'day' ORDER BY t DESC LIMIT ${SIM_OPTION_DAYS}`,
    [u],
  );
  const lastClose = dayBars[0]?.c ?? 100;
  const lastSession = days[days.length - 1] as (typeof days)[number];
  const minuteBars = await store.all<{ t: number; o: number; h: number; l: number; c: number }>(
    `SELECT t::DOUBLE AS t, o, h, l, c FROM bars WHERE ticker = $1 AND resolution = 'minute' AND t >= $2 ORDER BY t`,
    [u, BigInt(lastSession.openMs)],
  );
  const strikes: number[] = [];
  for (let k = Math.ceil((lastClose * 0.8) / 5) * 5; k <= lastClose * 1.2; k += 5) strikes.push(k);
  const appender = await store.connection.createAppender('bars');
  const contracts: string[] = [];
  const quotes: [ticker: string, t: number, o: number, h: number, l: number, c: number][] = [];
  let seq = 0;
  const rand = () => {
    // A small deterministic generator (mulberry32) for the chain's sparse trading.
    seq = (seq + 0x6d2b79f5) | 0;
    let x = Math.imul(seq ^ (seq >>> 15), 1 | seq);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  seq = SIM_SEED;
  for (const expiry of SIM_OPTION_EXPIRIES) {
    const [y, m, d] = expiry.split('-').map(Number) as [number, number, number];
    const expiryClose = zonedToUtc(NEW_YORK, y, m, d, 16);
    for (const strike of strikes) {
      for (const type of ['call', 'put'] as const) {
        const ticker = buildOptionSymbol(u, expiry, type, strike, { prefixO: true });
        contracts.push(
          `(${sqlString(ticker)}, ${sqlString(u)}, '${type}', 'american', DATE '${expiry}', ${strike}, 100, 'BATO')`,
        );
        const value = (spot: number, atMs: number) => {
          const years = Math.max((expiryClose - atMs) / (DAYS_PER_YEAR * DAY), 1 / (DAYS_PER_YEAR * 24 * 60));
          return Math.max(
            0.01,
            Math.round(
              blackScholesPrice({ type, spot, strike, years }, smileVol(spot, strike, years)) * 100,
            ) / 100,
          );
        };
        const liquidity = Math.exp(-(((strike - lastClose) / (lastClose * 0.08)) ** 2));
        const bar = (
          t: number,
          res: 'day' | 'minute',
          o: number,
          h: number,
          l: number,
          c: number,
          atOpen: number,
          atClose: number,
          volume: number,
        ) => {
          const po = value(o, atOpen);
          const pc = value(c, atClose);
          const [hiSpot, loSpot] = type === 'call' ? [h, l] : [l, h];
          const ph = Math.max(po, pc, value(hiSpot, atClose));
          const pl = Math.min(po, pc, value(loSpot, atClose));
          appender.appendVarchar(ticker);
          appender.appendVarchar(res);
          appender.appendBigInt(BigInt(t));
          for (const p of [po, ph, pl, pc]) appender.appendDouble(p);
          appender.appendDouble(volume);
          appender.appendDouble(Math.round(((po + ph + pl + pc) / 4) * 10000) / 10000);
          appender.appendBigInt(BigInt(Math.max(1, Math.round(volume / 3))));
          // settlement_price: the service's, of futures only.
          appender.appendNull();
          appender.endRow();
        };
        // Day bars before the last day; the last day's bar comes from its minute bars below.
        for (const b of dayBars.slice(1)) {
          const session = days.find((x) => x.midnightMs === b.t);
          if (!session) continue;
          const close = session.openMs + session.minutes * MINUTE;
          bar(
            b.t,
            'day',
            b.o,
            b.h,
            b.l,
            b.c,
            session.openMs,
            close,
            Math.round(50 + 2000 * liquidity * rand()),
          );
        }
        let lastDayVolume = 0;
        for (const mb of minuteBars) {
          // Every minute of the last day is quoted (bid and ask around the model value), traded or not.
          const [bo, bh, bl, bc] = [
            mb.o,
            type === 'call' ? mb.h : mb.l,
            type === 'call' ? mb.l : mb.h,
            mb.c,
          ].map((spot, k) => value(spot, k === 0 ? mb.t : mb.t + MINUTE)) as [number, number, number, number];
          quotes.push([ticker, mb.t, bo, bh, bl, bc]);

          if (rand() > 0.08 + 0.5 * liquidity) continue;
          const v = 1 + Math.round(40 * liquidity * rand());
          bar(mb.t, 'minute', mb.o, mb.h, mb.l, mb.c, mb.t, mb.t + MINUTE, v);
          lastDayVolume += v;
        }
        if (lastDayVolume > 0) {
          const first = minuteBars[0] as (typeof minuteBars)[number];
          const lastMinute = minuteBars[minuteBars.length - 1] as (typeof minuteBars)[number];
          const hi = Math.max(...minuteBars.map((x) => x.h));
          const lo = Math.min(...minuteBars.map((x) => x.l));
          bar(
            lastSession.midnightMs,
            'day',
            first.o,
            hi,
            lo,
            lastMinute.c,
            lastSession.openMs,
            lastSession.openMs + lastSession.minutes * MINUTE,
            lastDayVolume,
          );
        }
      }
    }
  }
  appender.closeSync();
  const quoteAppender = await store.connection.createAppender('quote_bars');
  for (const [ticker, t, ...prices] of quotes) {
    quoteAppender.appendVarchar(ticker);
    quoteAppender.appendVarchar('minute');
    quoteAppender.appendBigInt(BigInt(t));
    const spread = (p: number) => Math.max(0.02, Math.round(p * 0.03 * 100) / 100);
    for (const p of prices)
      quoteAppender.appendDouble(Math.max(0, Math.round((p - spread(p) / 2) * 100) / 100));
    quoteAppender.appendDouble(10 + (t % 7) * 10);
    for (const p of prices) quoteAppender.appendDouble(Math.round((p + spread(p) / 2) * 100) / 100);
    quoteAppender.appendDouble(10 + (t % 11) * 10);
    quoteAppender.endRow();
  }
  quoteAppender.closeSync();
  await store.run(`INSERT INTO option_contracts VALUES ${contracts.join(', ')}`);
  await store.run(
    `INSERT INTO open_interest SELECT ticker, $1, 100 + (hash(ticker) % 5000)::DOUBLE FROM option_contracts`,
    [BigInt(startOfDay(lastDay, NEW_YORK))],
  );
}

/** Reference rows: tickers named "Simulated …", and the split. */
async function writeReference(store: DuckDbStore): Promise<void> {
  const rows = [
    ...SIM_STOCKS.map(
      (s) =>
        `(${sqlString(s.ticker)}, ${sqlString(s.name)}, 'stocks', 'us', 'CS', TRUE, ${sqlString(s.exchange)}, 'usd', NULL, NULL, NULL, DATE '2010-01-04', NULL)`,
    ),
    `(${sqlString(SIM_INDEX.ticker)}, ${sqlString(SIM_INDEX.name)}, 'indices', 'us', 'INDEX', TRUE, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
    ...SIM_PAIRS.map(
      (p) =>
        `(${sqlString(p.ticker)}, ${sqlString(p.name)}, ${p.ticker.startsWith('C:') ? "'fx'" : "'crypto'"}, 'global', NULL, TRUE, NULL, ${sqlString(p.quote)}, ${sqlString(p.quote)}, ${sqlString(p.base)}, ${sqlString(p.base)}, NULL, NULL)`,
    ),
  ];
  await store.run(
    `INSERT INTO tickers (ticker, name, market, locale, type, active, primary_exchange, currency_name,
      currency_symbol, base_currency_symbol, base_currency_name, list_date, delisted_utc)
      VALUES ${rows.join(', ')}`,
  );
  for (const s of SIM_STOCKS) {
    if (s.split) {
      await store.run('INSERT INTO splits VALUES ($1, $2::DATE, 1, $3)', [
        s.ticker,
        s.split.date,
        s.split.to,
      ]);
    }
  }
}
