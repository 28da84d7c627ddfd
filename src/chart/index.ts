/** Candlestick charts: as text for the terminal, as SVG, and as PNG. */
export { type Candle, hasVolume, niceTicks, resample } from './candles.js';
export { type ChartRequest, chartTitle, writeChartFile } from './file.js';
export { svgToPng } from './png.js';
export { renderSvgChart, type SvgChartOptions } from './svg.js';
export { renderTerminalChart, type TerminalChartOptions } from './terminal.js';
