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

/** Options of {@link renderSvgChart}. */
export interface SvgChartOptions {
  /** Title above the chart (symbol, bar size, range). */
  title: string;
  /** Second line under the title (source, time zone). */
  subtitle?: string;
  /** Time zone of the date labels. */
  timeZone: string;
  /**
   * Picture width in px.
   * @default 1200
   */
  width?: number;
  /**
   * Picture height in px.
   * @default 700
   */
  height?: number;
  /**
   * Most candles drawn; more bars are merged.
   * @default 240
   */
  maxCandles?: number;
}

const FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif';
const UP = '#1a9850';
const DOWN = '#d73027';

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const r2 = (n: number) => Math.round(n * 100) / 100;

/**
 * A candlestick chart as a standalone SVG document: title, price axis with gridlines and labels on
 * the right, candles (green up, red down), a volume panel with its own scale (when the candles have
 * volumes: not for forex), and dated time labels.
 * Every candle is a `<g class="candle">` carrying its data (`data-t`, `data-o`, ...), so the picture
 * can be checked by a program as well as by eye.
 */
export function renderSvgChart(input: readonly Candle[], options: SvgChartOptions): string {
  const width = options.width ?? 1200;
  const height = options.height ?? 700;
  const candles = resample(input, options.maxCandles ?? 240);
  const m = { left: 20, right: 90, top: 74, bottom: 56 };
  const withVolume = hasVolume(candles);
  const volumeH = withVolume ? Math.round((height - m.top - m.bottom) * 0.22) : 0;
  const gap = withVolume ? 14 : 0;
  const priceTop = m.top;
  const priceBottom = height - m.bottom - volumeH - gap;
  const volTop = priceBottom + gap;
  const volBottom = height - m.bottom;
  const plotW = width - m.left - m.right;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">`,
    `<title>${esc(options.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text class="title" x="${m.left}" y="30" font-size="20" font-weight="bold" fill="#222">${esc(options.title)}</text>`,
  );
  if (options.subtitle) {
    out.push(
      `<text class="subtitle" x="${m.left}" y="54" font-size="14" fill="#555">${esc(options.subtitle)}</text>`,
    );
  }
  if (candles.length === 0) {
    out.push(
      `<text x="${width / 2}" y="${height / 2}" font-size="18" text-anchor="middle" fill="#555">No bars in this range</text>`,
      '</svg>',
    );
    return `${out.join('\n')}\n`;
  }
  const lo = Math.min(...candles.map((c) => c.l));
  const hi = Math.max(...candles.map((c) => c.h));
  const pad = (hi - lo) * 0.04 || Math.abs(hi) * 0.01 || 1;
  const [pLo, pHi] = [lo - pad, hi + pad];
  const y = (p: number) => priceBottom - ((p - pLo) / (pHi - pLo)) * (priceBottom - priceTop);
  const slot = plotW / candles.length;
  const x = (i: number) => m.left + slot * (i + 0.5);
  const bodyW = Math.max(1, slot * 0.7);

  // Price grid and labels.
  const ticks = niceTicks(pLo, pHi, 7);
  const decimals = decimalsFor((ticks[1] ?? pHi) - (ticks[0] ?? pLo));
  out.push('<g class="price-axis">');
  for (const tick of ticks) {
    const ty = r2(y(tick));
    out.push(
      `<line x1="${m.left}" x2="${width - m.right}" y1="${ty}" y2="${ty}" stroke="#e5e5e5"/>`,
      `<text class="price-label" x="${width - m.right + 8}" y="${r2(ty + 4)}" font-size="13" fill="#333">${formatPrice(tick, decimals)}</text>`,
    );
  }
  out.push(
    `<line x1="${width - m.right}" x2="${width - m.right}" y1="${priceTop}" y2="${volBottom}" stroke="#888"/>`,
    '</g>',
  );

  // Volume scale.
  const vmax = Math.max(...candles.map((c) => c.v)) || 1;
  const vy = (v: number) => volBottom - (v / vmax) * (volBottom - volTop);
  if (withVolume)
    out.push(
      '<g class="volume-axis">',
      `<line x1="${m.left}" x2="${width - m.right}" y1="${volTop}" y2="${volTop}" stroke="#e5e5e5"/>`,
      `<text class="volume-label" x="${width - m.right + 8}" y="${volTop + 12}" font-size="12" fill="#555">${formatVolume(vmax)}</text>`,
      `<text class="volume-label" x="${width - m.right + 8}" y="${volBottom}" font-size="12" fill="#555">Volume</text>`,
      '</g>',
    );

  out.push('<g class="candles">');
  candles.forEach((c, i) => {
    const color = c.c >= c.o ? UP : DOWN;
    const cx = r2(x(i));
    const top = y(Math.max(c.o, c.c));
    const bodyH = Math.max(1, y(Math.min(c.o, c.c)) - top);
    out.push(
      `<g class="candle" data-t="${c.t}" data-o="${c.o}" data-h="${c.h}" data-l="${c.l}" data-c="${c.c}" data-v="${c.v}">`,
      `<line x1="${cx}" x2="${cx}" y1="${r2(y(c.h))}" y2="${r2(y(c.l))}" stroke="${color}"/>`,
      `<rect x="${r2(cx - bodyW / 2)}" y="${r2(top)}" width="${r2(bodyW)}" height="${r2(bodyH)}" fill="${color}"/>`,
      ...(withVolume
        ? [
            `<rect class="volume" x="${r2(cx - bodyW / 2)}" y="${r2(vy(c.v))}" width="${r2(bodyW)}" height="${r2(volBottom - vy(c.v))}" fill="${color}" opacity="0.55"/>`,
          ]
        : []),
      '</g>',
    );
  });
  out.push('</g>');

  // Time axis: about one label per 110 px, at candle centres.
  out.push(
    '<g class="time-axis">',
    `<line x1="${m.left}" x2="${width - m.right}" y1="${volBottom}" y2="${volBottom}" stroke="#888"/>`,
  );
  const every = Math.max(1, Math.ceil(candles.length / Math.max(1, Math.floor(plotW / 130))));
  let rightmost = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < candles.length; i += every) {
    const lx = r2(x(i));
    const label = timeLabel(candles, i, options.timeZone);
    // Centred under its candle, but kept inside the picture (about 7 px per character at 12 px).
    const half = label.length * 3.6;
    const anchor = lx - half < 2 ? 'start' : lx + half > width - 2 ? 'end' : 'middle';
    const tx = anchor === 'start' ? 2 : anchor === 'end' ? width - 2 : lx;
    const left = anchor === 'start' ? tx : anchor === 'end' ? tx - 2 * half : tx - half;
    out.push(`<line x1="${lx}" x2="${lx}" y1="${volBottom}" y2="${volBottom + 5}" stroke="#888"/>`);
    // A label that would run into the previous one is left out (its tick mark stays).
    if (left < rightmost + 8) continue;
    rightmost = left + 2 * half;
    out.push(
      `<text class="time-label" x="${tx}" y="${volBottom + 20}" font-size="12" text-anchor="${anchor}" fill="#333">${esc(label)}</text>`,
    );
  }
  out.push('</g>');
  if (candles.length < input.length) {
    out.push(
      `<text x="${m.left}" y="${height - 12}" font-size="12" fill="#777">${input.length} bars drawn as ${candles.length} candles</text>`,
    );
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
