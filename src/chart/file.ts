import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { InvalidParameterError } from '../core/errors.js';
import type { Candle } from './candles.js';
import { svgToPng } from './png.js';
import { renderSvgChart } from './svg.js';

/** What a chart shows, as `mdq chart` and the demo draw it. */
export interface ChartRequest {
  symbol: string;
  from: string | number;
  to: string | number;
  timespan: string;
  multiplier: number;
  adjusted?: boolean;
  /** Replaces the default title. */
  title?: string;
}

/** The default title: `SIMA · 5-minute bars · 2024-01-02 → 2024-03-28`. */
export function chartTitle(req: ChartRequest): string {
  const size = req.multiplier === 1 ? req.timespan : `${req.multiplier}-${req.timespan}`;
  return req.title ?? `${req.symbol} · ${size} bars · ${req.from} → ${req.to}`;
}

/** Writes a chart picture, `.svg` or `.png` by the file's extension (any other is refused). */
export function writeChartFile(
  path: string,
  candles: readonly Candle[],
  req: ChartRequest,
  timeZone: string,
  size: { width?: number; height?: number } = {},
): void {
  const ext = extname(path).toLowerCase();
  if (ext !== '.svg' && ext !== '.png') {
    throw new InvalidParameterError('out', path, 'the file name must end in .svg or .png');
  }
  const svg = renderSvgChart(candles, {
    title: chartTitle(req),
    subtitle: `${candles.length} bars · times in ${timeZone} · source mdq`,
    timeZone,
    ...size,
  });
  writeFileSync(path, ext === '.svg' ? svg : svgToPng(svg));
}
