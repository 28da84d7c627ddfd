import { blackScholesPrice, type OptionInputs, RISK_FREE_RATE } from './black-scholes.js';
import { normalPdf } from './normal.js';

/** Volatilities the solver searches between (0.01% to 1000%). */
const MIN_VOL = 1e-4;
const MAX_VOL = 10;

/**
 * The volatility at which the Black–Scholes price equals `price`, or `undefined` when none exists:
 * a price at or below the option's lower bound (intrinsic value of the discounted strike) or at or
 * above its upper bound (the spot for a call, the discounted strike for a put), a non-positive price
 * or expiry. Newton's method from a Brenner–Subrahmanyam start, falling back to bisection whenever a
 * step leaves the bracket or vega is too small to steer by.
 */
export function impliedVolatility(price: number, o: OptionInputs): number | undefined {
  if (!(price > 0) || !(o.years > 0) || !(o.spot > 0) || !(o.strike > 0)) return undefined;
  const discountedStrike = o.strike * Math.exp(-(o.rate ?? RISK_FREE_RATE) * o.years);
  const lower = Math.max(0, o.type === 'call' ? o.spot - discountedStrike : discountedStrike - o.spot);
  const upper = o.type === 'call' ? o.spot : discountedStrike;
  if (price <= lower || price >= upper) return undefined;

  let lo = MIN_VOL;
  let hi = MAX_VOL;
  if (blackScholesPrice(o, lo) > price || blackScholesPrice(o, hi) < price) return undefined;
  let vol = Math.min(Math.max(Math.sqrt((2 * Math.PI) / o.years) * (price / o.spot), 0.05), 3);
  for (let i = 0; i < 100; i++) {
    const diff = blackScholesPrice(o, vol) - price;
    if (Math.abs(diff) < 1e-12 * Math.max(1, price)) return vol;
    if (diff > 0) hi = vol;
    else lo = vol;
    const sd = vol * Math.sqrt(o.years);
    const d1 = (Math.log(o.spot / o.strike) + ((o.rate ?? RISK_FREE_RATE) + 0.5 * vol * vol) * o.years) / sd;
    const vega = o.spot * normalPdf(d1) * Math.sqrt(o.years);
    const next = vega > 1e-12 ? vol - diff / vega : Number.NaN;
    vol = next > lo && next < hi ? next : (lo + hi) / 2;
    if (hi - lo < 1e-14) return vol;
  }
  return vol;
}
