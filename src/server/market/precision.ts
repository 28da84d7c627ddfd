import { assetClassOf } from './now.js';

/**
 * Decimals a price of the ticker's asset class carries on the wire: the sources' precision (US stock
 * and option prices in ten-thousandths of a dollar, which is also how the service writes split-adjusted
 * prices, e.g. AAPL's 1.5032; forex bars are midpoints of five-decimal quotes; crypto to the satoshi).
 */
export function priceDecimals(ticker: string): number {
  const cls = assetClassOf(ticker);
  return cls === 'fx' ? 6 : cls === 'crypto' ? 8 : 4;
}

/** Below this, `x × 10^d` is an exact integer step: rounding there cannot add noise. */
const EXACT = 2 ** 52;

/**
 * `x` rounded to `decimals` decimals, so that sums and quotients of stored values print as the
 * decimals they stand for (`1.38718`, not `1.3871799999999999`); values too large for that many
 * decimals keep 15 significant digits, which drops the noise of the last bits the same way.
 */
export function roundTo(x: number, decimals: number): number {
  return roundScaled(x, 10 ** decimals);
}

/**
 * {@link roundTo} for one number of decimals, for many values (the bars of a page): the scale is
 * computed once, and the same values come out.
 */
export function rounder(decimals: number): (x: number) => number {
  const scale = 10 ** decimals;
  return (x) => roundScaled(x, scale);
}

function roundScaled(x: number, scale: number): number {
  if (!Number.isFinite(x)) return x;
  if (Math.abs(x) * scale < EXACT) return Math.round(x * scale) / scale;
  return Number(x.toPrecision(15));
}

/** Rounds prices of `ticker` at its asset class's precision ({@link priceDecimals}). */
export function priceRounder(ticker: string): (x: number) => number {
  return rounder(priceDecimals(ticker));
}

/** A price of `ticker` at its asset class's precision ({@link priceDecimals}). */
export function roundPrice(ticker: string, x: number): number {
  return roundTo(x, priceDecimals(ticker));
}

/** A volume or size: fractional crypto units keep eight decimals; sums lose their float noise. */
export function roundVolume(x: number): number {
  return roundVolumeScaled(x);
}

const roundVolumeScaled = rounder(8);

/**
 * A size as the service's decimal strings write it (`decimal_size`, `ds`, `dv`): a whole number with
 * `.0` (`"100.0"`), else its decimals (`"0.001933"`).
 */
export function decimalString(x: number): string {
  const v = roundVolume(x);
  return Number.isInteger(v) ? `${v}.0` : String(v);
}
