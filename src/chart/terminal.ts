import {
  type Candle,
  decimalsFor,
  formatPrice,
  formatVolume,
  hasVolume,
  niceTicks,
  resample,
  timeLabel,
} from './candles.js';

/** Options of {@link renderTerminalChart}. */
export interface TerminalChartOptions {
  /** First line above the chart. */
  title: string;
  /**
   * Columns available (the chart and its price axis).
   * @default 80
   */
  width?: number;
  /**
   * Rows of the price area.
   * @default 16
   */
  height?: number;
  /**
   * Rows of the volume strip (none when no candle has a volume, as with forex).
   * @default 3
   */
  volumeHeight?: number;
  /** Time zone of the date labels. */
  timeZone: string;
  /**
   * Colour up candles green and down candles red with ANSI escapes.
   * @default false
   */
  color?: boolean;
}

const LEVELS = ' ▁▂▃▄▅▆▇█';

/**
 * A candlestick chart as text: one column per candle (candles merged to fit), bodies `┃` and wicks
 * `│`, a price axis on the right, a volume strip below (when the candles have volumes) and date labels
 * under it.
 */
export function renderTerminalChart(input: readonly Candle[], options: TerminalChartOptions): string {
  const height = Math.max(6, options.height ?? 16);
  const volumeHeight = Math.max(1, options.volumeHeight ?? 3);
  if (input.length === 0) return `${options.title}\n(no bars in this range)\n`;
  const lo0 = Math.min(...input.map((c) => c.l));
  const hi0 = Math.max(...input.map((c) => c.h));
  const ticks = niceTicks(lo0, hi0, Math.max(2, Math.floor(height / 4)));
  // Cents at least: the top and bottom labels show the exact extremes, not rounded ticks.
  const decimals = Math.max(2, decimalsFor((ticks[1] ?? hi0) - (ticks[0] ?? lo0) || hi0 - lo0));
  const axisWidth = Math.max(...[lo0, hi0, ...ticks].map((v) => formatPrice(v, decimals).length)) + 3;
  const plotWidth = Math.max(10, (options.width ?? 80) - axisWidth);
  // Two columns per candle (candle and gap) when there is room: easier to read than a solid block.
  const spacing = input.length * 2 <= plotWidth ? 2 : 1;
  const candles = resample(input, Math.floor(plotWidth / spacing));
  const lo = Math.min(...candles.map((c) => c.l));
  const hi = Math.max(...candles.map((c) => c.h));
  const span = hi - lo || Math.abs(hi) * 0.01 || 1;
  const rowOf = (price: number) =>
    Math.min(height - 1, Math.max(0, Math.round(((hi - price) / span) * (height - 1))));
  const paint = (text: string, up: boolean) => (options.color ? `\x1b[${up ? 32 : 31}m${text}\x1b[0m` : text);

  const grid: string[][] = Array.from({ length: height }, () => Array(candles.length * spacing).fill(' '));
  candles.forEach((c, i) => {
    const col = i * spacing;
    const up = c.c >= c.o;
    const [bodyTop, bodyBottom] = [rowOf(Math.max(c.o, c.c)), rowOf(Math.min(c.o, c.c))];
    for (let r = rowOf(c.h); r <= rowOf(c.l); r++) {
      const glyph = r >= bodyTop && r <= bodyBottom ? '┃' : '│';
      (grid[r] as string[])[col] = paint(glyph, up);
    }
  });

  const labelRows = new Map<number, string>();
  for (const tick of ticks)
    if (tick >= lo && tick <= hi) labelRows.set(rowOf(tick), formatPrice(tick, decimals));
  labelRows.set(0, formatPrice(hi, decimals));
  labelRows.set(height - 1, formatPrice(lo, decimals));

  const lines = [options.title];
  grid.forEach((cells, r) => {
    const label = labelRows.get(r);
    lines.push(`${cells.join('')} ${label ? `┤ ${label}` : '│'}`);
  });

  const vmax = Math.max(...candles.map((c) => c.v)) || 1;
  for (let r = hasVolume(candles) ? volumeHeight - 1 : -1; r >= 0; r--) {
    const cells = candles.map((c) => {
      const filled = (c.v / vmax) * volumeHeight * 8 - r * 8;
      const glyph = LEVELS[Math.max(0, Math.min(8, Math.round(filled)))] as string;
      return paint(glyph, c.c >= c.o) + ' '.repeat(spacing - 1);
    });
    lines.push(`${cells.join('')} ${r === volumeHeight - 1 ? `┤ vol ${formatVolume(vmax)}` : '│'}`);
  }

  // Date labels: spread across the width, never overlapping.
  const axis = Array(candles.length * spacing + axisWidth).fill(' ');
  let free = 0;
  const sample = `└${timeLabel(candles, 0, options.timeZone, true)}`;
  const step = Math.max(1, Math.ceil((sample.length + 2) / spacing));
  for (let i = 0; i < candles.length; i += step) {
    const label = `└${timeLabel(candles, i, options.timeZone, true)}`;
    const col = i * spacing;
    if (col < free || col + label.length > axis.length) continue;
    for (let k = 0; k < label.length; k++) axis[col + k] = label[k];
    free = col + label.length + 2;
  }
  lines.push(axis.join('').trimEnd());
  if (candles.length < input.length) lines.push(`(${input.length} bars drawn as ${candles.length} candles)`);
  return `${lines.join('\n')}\n`;
}
