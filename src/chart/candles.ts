import { wallTime } from '../dates/time-zone.js';

/** One candle: window start (Unix ms), open, high, low, close, volume. */
export interface Candle {
  readonly t: number;
  readonly o: number;
  readonly h: number;
  readonly l: number;
  readonly c: number;
  readonly v: number;
}

/**
 * Whether the candles have a volume worth a pane: forex bars (quotes, no trades) carry none or only
 * zeros, and an empty volume pane would only take room from the prices.
 */
export function hasVolume(candles: readonly Candle[]): boolean {
  return candles.some((c) => typeof c.v === 'number' && c.v > 0);
}

/**
 * Merges consecutive candles so that at most `max` remain (a chart cannot draw more candles than it
 * has columns): each merged candle opens with the first, closes with the last, and spans their range.
 */
export function resample(candles: readonly Candle[], max: number): Candle[] {
  if (candles.length <= max) return [...candles];
  const per = Math.ceil(candles.length / max);
  const out: Candle[] = [];
  for (let i = 0; i < candles.length; i += per) {
    const group = candles.slice(i, i + per);
    const first = group[0] as Candle;
    const last = group[group.length - 1] as Candle;
    out.push({
      t: first.t,
      o: first.o,
      c: last.c,
      h: Math.max(...group.map((g) => g.h)),
      l: Math.min(...group.map((g) => g.l)),
      v: group.reduce((a, g) => a + (g.v || 0), 0),
    });
  }
  return out;
}

/** About `count` round values (1, 2 or 5 × 10^k steps) covering `[min, max]`. */
export function niceTicks(min: number, max: number, count: number): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag) as number;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step)
    ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** Decimals that tell apart ticks `step` apart (prices of a few cents need two, of yen pairs three). */
export function decimalsFor(step: number): number {
  if (!(step > 0)) return 2;
  return Math.min(6, Math.max(0, Math.ceil(-Math.log10(step)) + (step < 1 ? 1 : 0)));
}

/** A price with the given decimals and thousands separators. */
export function formatPrice(value: number, decimals: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** 1.2K, 3.4M: volumes in little space. */
export function formatVolume(v: number): string {
  if (v >= 1e9) return `${(v / 1e9).toFixed(1)}B`;
  if (v >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(1)}K`;
  return String(Math.round(v));
}

/** Wall-clock parts of a Unix ms time in `timeZone`. */
export function wallParts(ms: number, timeZone: string): { date: string; time: string } {
  const w = wallTime(ms, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return { date: `${w.year}-${two(w.month)}-${two(w.day)}`, time: `${two(w.hour)}:${two(w.minute)}` };
}

/**
 * A label for the time axis: the date for daily and longer candles or when the chart spans days, the
 * time when all candles fall within one day, both where the day changes on an intraday chart.
 */
export function timeLabel(
  candles: readonly Candle[],
  index: number,
  timeZone: string,
  short = false,
): string {
  const c = candles[index] as Candle;
  const first = wallParts((candles[0] as Candle).t, timeZone);
  const last = wallParts((candles[candles.length - 1] as Candle).t, timeZone);
  const here = wallParts(c.t, timeZone);
  const intraday = candles.some((x) => wallParts(x.t, timeZone).time !== '00:00');
  // Short labels drop the year, unless the chart spans several years.
  const oneYear = first.date.slice(0, 4) === last.date.slice(0, 4);
  if (!intraday) return short && oneYear ? here.date.slice(5) : here.date;
  if (first.date === last.date) return here.time;
  return short ? `${here.date.slice(5)} ${here.time}` : `${here.date} ${here.time}`;
}
