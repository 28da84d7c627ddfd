import { normalCdf, normalPdf } from './normal.js';

/**
 * The risk-free rate the server prices options with: 0. The data carries no rate curve, and over the
 * days-to-months horizons of the stored contracts a flat zero rate moves prices far less than the
 * bid-ask spread. Dividends are ignored too.
 */
export const RISK_FREE_RATE = 0;

/** Days per year for time to expiry and for theta per day (calendar days). */
export const DAYS_PER_YEAR = 365;

/** The inputs of a Black–Scholes valuation. */
export interface OptionInputs {
  readonly type: 'call' | 'put';
  /** Price of the underlying. */
  readonly spot: number;
  readonly strike: number;
  /** Time to expiry in years (> 0). */
  readonly years: number;
  /** Continuously compounded risk-free rate. @default RISK_FREE_RATE */
  readonly rate?: number;
}

/** Sensitivities of an option's price. */
export interface Greeks {
  /** dV/dS per 1 unit of the underlying's price. */
  readonly delta: number;
  /** d²V/dS². */
  readonly gamma: number;
  /** dV/dt per calendar day (negative: value lost per day that passes). */
  readonly theta: number;
  /** dV/dσ per 1 volatility point (0.01). */
  readonly vega: number;
}

function d1d2(o: OptionInputs, vol: number): [number, number] {
  const r = o.rate ?? RISK_FREE_RATE;
  const sd = vol * Math.sqrt(o.years);
  const d1 = (Math.log(o.spot / o.strike) + (r + 0.5 * vol * vol) * o.years) / sd;
  return [d1, d1 - sd];
}

/**
 * The Black–Scholes price of a European option with volatility `vol` (annualised, 0.2 = 20%). The
 * server applies it to American contracts as well: without dividends an American call is worth the
 * European one, and for puts the early-exercise premium is small at the stored maturities.
 */
export function blackScholesPrice(o: OptionInputs, vol: number): number {
  const r = o.rate ?? RISK_FREE_RATE;
  const discount = Math.exp(-r * o.years);
  const [d1, d2] = d1d2(o, vol);
  return o.type === 'call'
    ? o.spot * normalCdf(d1) - o.strike * discount * normalCdf(d2)
    : o.strike * discount * normalCdf(-d2) - o.spot * normalCdf(-d1);
}

/** Black–Scholes greeks at volatility `vol`, in the units of `Greeks`. */
export function blackScholesGreeks(o: OptionInputs, vol: number): Greeks {
  const r = o.rate ?? RISK_FREE_RATE;
  const discount = Math.exp(-r * o.years);
  const sqrtT = Math.sqrt(o.years);
  const [d1, d2] = d1d2(o, vol);
  const pdf = normalPdf(d1);
  const gamma = pdf / (o.spot * vol * sqrtT);
  const vega = (o.spot * pdf * sqrtT) / 100;
  const decay = -(o.spot * pdf * vol) / (2 * sqrtT);
  if (o.type === 'call') {
    return {
      delta: normalCdf(d1),
      gamma,
      theta: (decay - r * o.strike * discount * normalCdf(d2)) / DAYS_PER_YEAR,
      vega,
    };
  }
  return {
    delta: normalCdf(d1) - 1,
    gamma,
    theta: (decay + r * o.strike * discount * normalCdf(-d2)) / DAYS_PER_YEAR,
    vega,
  };
}
