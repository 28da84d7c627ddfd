export {
  blackScholesGreeks,
  blackScholesPrice,
  DAYS_PER_YEAR,
  type Greeks,
  type OptionInputs,
  RISK_FREE_RATE,
} from './black-scholes.js';
export { impliedVolatility } from './implied-volatility.js';
export { normalCdf, normalPdf } from './normal.js';
