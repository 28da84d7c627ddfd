import assert from 'node:assert/strict';
import type { Bar } from '../../../src/server/market/bars.js';

/**
 * Bars equal but for the last bits of `vw`: a sum of products that DuckDB adds up in parallel, in no
 * fixed order, so they vary from run to run whatever the sources (the wire has four decimals).
 */
export function assertSameBars(actual: readonly Bar[], expected: readonly Bar[]): void {
  const exact = (bars: readonly Bar[]) => bars.map(({ vw: _, ...bar }) => bar);
  assert.deepEqual(exact(actual), exact(expected));
  actual.forEach((bar, i) => {
    const other = expected[i]?.vw;
    if (bar.vw === undefined || other === undefined) assert.equal(bar.vw, other);
    else assert.ok(Math.abs(bar.vw - other) <= 1e-9 * Math.abs(other), `vw ${bar.vw} vs ${other}`);
  });
}
