/** Candlestick charts: as text for the terminal, as SVG, and as PNG. */
export { type Candle, niceTicks, resample } from './candles.js';
export { svgToPng } from './png.js';
export { renderSvgChart, type SvgChartOptions } from './svg.js';
export { renderTerminalChart, type TerminalChartOptions } from './terminal.js';
