import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../../src/server/index.js';
import { openTestStore } from '../support/store.js';

/**
 * Numbers far beyond the int64 range in number-typed query parameters are valid numbers to filter by:
 * the server answers them (an empty or filtered OK result, or a 400 where the parameter has a range),
 * never a 500.
 */
test('number parameters beyond int64 never cause a 500', async (t) => {
  const store = await openTestStore(t);
  if (!store) return;
  const server = await startServer({ store, port: 0, log: () => {} });
  try {
    for (const query of [
      'strike_price=9223372036854776000',
      'strike_price.gte=1e300',
      'strike_price=1e20',
      'strike_price.lt=1e20',
    ]) {
      for (const path of ['/v3/snapshot/options/SPY', '/v3/reference/options/contracts']) {
        // Contracts of the data expired long before the store's "now": ask for expired ones.
        const extra = path.includes('reference') ? '&expired=true' : '';
        const res = await fetch(`${server.url}${path}?${query}${extra}&apiKey=k`);
        const body = (await res.json()) as {
          status: string;
          results?: { details?: { strike_price: number } }[];
        };
        assert.equal(res.status, 200, `${path}?${query}: ${JSON.stringify(body)}`);
        assert.equal(body.status, 'OK');
        if (query.includes('.lt=') && extra) {
          assert.ok((body.results ?? []).length > 0, `${path}?${query}: every strike is below`);
        }
        if (!query.includes('.lt='))
          assert.deepEqual(body.results ?? [], [], `${path}?${query}: no strike that large`);
      }
    }
  } finally {
    await server.close();
    store.close();
  }
});
