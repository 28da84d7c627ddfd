/**
 * The rounders that encode a page of bars give exactly what `roundTo` and `roundPrice` give value by
 * value: prices of every asset class, volumes, vw, values too large for their decimals, and the
 * non-finite ones.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { priceRounder, rounder, roundPrice, roundTo } from '../../../src/server/market/index.js';

const values = fc.oneof(
  fc.double({ noNaN: false }),
  fc.double({ min: -1e6, max: 1e6 }),
  fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 10_000 + 1e-9),
  fc.constantFrom(0, -0, 1.3871799999999999, 2 ** 52, 2 ** 53 + 2, 1e21, 5e-324, Infinity, -Infinity, NaN),
);

test('rounder(d) rounds as roundTo(x, d)', () => {
  fc.assert(
    fc.property(values, fc.integer({ min: 0, max: 10 }), (x, d) => {
      assert.ok(Object.is(rounder(d)(x), roundTo(x, d)), `${x} to ${d} decimals`);
    }),
    { numRuns: 20_000 },
  );
});

test('priceRounder(ticker) rounds as roundPrice(ticker, x)', () => {
  fc.assert(
    fc.property(
      values,
      fc.constantFrom('AAPL', 'I:SPX', 'C:EURUSD', 'X:BTCUSD', 'O:SPY240119C00470000'),
      (x, t) => {
        assert.ok(Object.is(priceRounder(t)(x), roundPrice(t, x)), `${x} of ${t}`);
      },
    ),
    { numRuns: 20_000 },
  );
});
