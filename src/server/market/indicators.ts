/**
 * Technical indicators over a price series (oldest first). Each returns one value per input index,
 * `undefined` until enough history exists.
 */

/** Simple moving average: the mean of the last `window` values. */
export function sma(series: readonly number[], window: number): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(series.length).fill(undefined);
  let sum = 0;
  for (let i = 0; i < series.length; i++) {
    sum += series[i] as number;
    if (i >= window) sum -= series[i - window] as number;
    if (i >= window - 1) out[i] = sum / window;
  }
  return out;
}

/**
 * Exponential moving average with smoothing 2 / (window + 1), seeded with the simple average of the
 * first `window` values (the first value appears at index window − 1). `undefined` entries of the input
 * (a series that starts late, such as the MACD line) are skipped before seeding.
 */
export function ema(series: readonly (number | undefined)[], window: number): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(series.length).fill(undefined);
  const k = 2 / (window + 1);
  let seen = 0;
  let sum = 0;
  let prev: number | undefined;
  for (let i = 0; i < series.length; i++) {
    const x = series[i];
    if (x === undefined) continue;
    seen++;
    if (prev === undefined) {
      sum += x;
      if (seen === window) prev = sum / window;
    } else {
      prev = x * k + prev * (1 - k);
    }
    out[i] = prev;
  }
  return out;
}

/**
 * Relative strength index with Wilder's smoothing: the first average gain and loss are the simple
 * means of the first `window` changes, then avg = (prev × (window − 1) + current) / window;
 * RSI = 100 − 100 / (1 + avgGain / avgLoss), 100 when there is no loss. First value at index `window`.
 */
export function rsi(series: readonly number[], window: number): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(series.length).fill(undefined);
  let gain = 0;
  let loss = 0;
  for (let i = 1; i < series.length; i++) {
    const change = (series[i] as number) - (series[i - 1] as number);
    const g = Math.max(change, 0);
    const l = Math.max(-change, 0);
    if (i <= window) {
      gain += g / window;
      loss += l / window;
      if (i < window) continue;
    } else {
      gain = (gain * (window - 1) + g) / window;
      loss = (loss * (window - 1) + l) / window;
    }
    out[i] = loss === 0 ? 100 : 100 - 100 / (1 + gain / loss);
  }
  return out;
}

/** One MACD point. */
export interface MacdPoint {
  value: number;
  signal: number;
  histogram: number;
}

/**
 * MACD: EMA(short) − EMA(long) (both seeded as in {@link ema}); signal = EMA(signalWindow) of the MACD
 * line; histogram = MACD − signal. A point exists once the signal does.
 */
export function macd(
  series: readonly number[],
  shortWindow: number,
  longWindow: number,
  signalWindow: number,
): (MacdPoint | undefined)[] {
  const short = ema(series, shortWindow);
  const long = ema(series, longWindow);
  const line = short.map((s, i) => {
    const l = long[i];
    return s === undefined || l === undefined ? undefined : s - l;
  });
  const signal = ema(line, signalWindow);
  return line.map((value, i) => {
    const s = signal[i];
    return value === undefined || s === undefined ? undefined : { value, signal: s, histogram: value - s };
  });
}
