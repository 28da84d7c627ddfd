import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  blackScholesGreeks,
  blackScholesPrice,
  impliedVolatility,
  normalCdf,
  type OptionInputs,
} from '../../src/server/greeks/index.js';

const close = (actual: number, expected: number, tol: number, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what} ${actual} vs ${expected} (tolerance ${tol})`);

describe('normalCdf', () => {
  it('matches tabulated values of the standard normal distribution', () => {
    close(normalCdf(0), 0.5, 1e-15);
    close(normalCdf(1.959963984540054), 0.975, 1e-13);
    close(normalCdf(-1), 0.15865525393145707, 1e-13);
    close(normalCdf(3), 0.9986501019683699, 1e-13);
    close(normalCdf(-8), 6.22096057427178e-16, 1e-18);
  });
});

describe('Black–Scholes price', () => {
  it("reproduces Hull's worked example (S=42, K=40, r=10%, σ=20%, T=0.5: call 4.76, put 0.81)", () => {
    const o = { spot: 42, strike: 40, years: 0.5, rate: 0.1 };
    close(blackScholesPrice({ ...o, type: 'call' }, 0.2), 4.76, 0.005, 'call');
    close(blackScholesPrice({ ...o, type: 'put' }, 0.2), 0.81, 0.005, 'put');
  });

  it('satisfies put–call parity C − P = S − K·e^(−rT)', () => {
    for (const [spot, strike, years, rate, vol] of [
      [100, 90, 0.25, 0.03, 0.4],
      [160, 150, 1.1, 0, 0.35],
      [10, 25, 0.01, 0.05, 1.5],
    ] as const) {
      const o = { spot, strike, years, rate };
      const parity = spot - strike * Math.exp(-rate * years);
      const diff =
        blackScholesPrice({ ...o, type: 'call' }, vol) - blackScholesPrice({ ...o, type: 'put' }, vol);
      close(diff, parity, 1e-10, `S=${spot} K=${strike}`);
    }
  });
});

describe('Black–Scholes greeks', () => {
  it("reproduces Hull's greeks example (S=49, K=50, r=5%, σ=20%, 20 weeks)", () => {
    // Published: delta 0.522, gamma 0.066, vega 12.1 per unit of σ, theta −4.31 per year.
    const g = blackScholesGreeks({ type: 'call', spot: 49, strike: 50, years: 0.3846, rate: 0.05 }, 0.2);
    close(g.delta, 0.522, 0.0005, 'delta');
    close(g.gamma, 0.066, 0.0005, 'gamma');
    close(g.vega, 0.121, 0.0005, 'vega per vol point');
    close(g.theta, -4.31 / 365, 0.00005, 'theta per day');
  });

  for (const type of ['call', 'put'] as const) {
    it(`${type}: equal finite differences of the price function`, () => {
      const o: OptionInputs = { type, spot: 160, strike: 150, years: 0.4, rate: 0.02 };
      const vol = 0.35;
      const price = (p: Partial<OptionInputs>, v = vol) => blackScholesPrice({ ...o, ...p }, v);
      const g = blackScholesGreeks(o, vol);
      const h = 0.01;
      close(g.delta, (price({ spot: 160 + h }) - price({ spot: 160 - h })) / (2 * h), 1e-7, 'delta');
      close(
        g.gamma,
        (price({ spot: 160 + h }) - 2 * price({}) + price({ spot: 160 - h })) / (h * h),
        1e-5,
        'gamma',
      );
      close(g.vega, (price({}, vol + 1e-5) - price({}, vol - 1e-5)) / 2e-5 / 100, 1e-8, 'vega');
      const day = 1 / 365;
      // Theta is the value lost as one day passes: the price at T − 1 day minus the price now.
      close(
        g.theta,
        (price({ years: 0.4 - day / 100 }) - price({ years: 0.4 + day / 100 })) / 2 / 0.01,
        1e-7,
        'theta',
      );
    });
  }
});

describe('impliedVolatility', () => {
  it('recovers the volatility a price was made with', () => {
    for (const type of ['call', 'put'] as const) {
      for (const [spot, strike, years, vol] of [
        [100, 100, 0.5, 0.25],
        [160, 150, 1.1, 0.35],
        [50, 80, 0.05, 1.2],
        [430, 470, 0.08, 0.12],
        [760, 290, 2, 0.3],
      ] as const) {
        const o = { type, spot, strike, years };
        const price = blackScholesPrice(o, vol);
        if (price < 1e-6) continue;
        const iv = impliedVolatility(price, o);
        assert.ok(iv !== undefined, `${type} S=${spot} K=${strike}`);
        close(blackScholesPrice(o, iv), price, 1e-8, `${type} S=${spot} K=${strike} repriced`);
        close(iv, vol, 1e-5, `${type} S=${spot} K=${strike}`);
      }
    }
  });

  it('has no solution below intrinsic value, above the upper bound, or for a non-positive price', () => {
    const call: OptionInputs = { type: 'call', spot: 160, strike: 150, years: 0.5 };
    assert.equal(impliedVolatility(9.99, call), undefined);
    assert.equal(impliedVolatility(160, call), undefined);
    assert.equal(impliedVolatility(0, call), undefined);
    const put: OptionInputs = { type: 'put', spot: 140, strike: 150, years: 0.5 };
    assert.equal(impliedVolatility(9.5, put), undefined);
    assert.equal(impliedVolatility(150, put), undefined);
    assert.equal(impliedVolatility(5, { ...put, years: 0 }), undefined);
  });
});
