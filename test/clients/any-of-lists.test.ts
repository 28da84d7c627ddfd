import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FuturesClient, isInvalidParameterError, ReferenceClient } from '../../src/index.js';
import { type FaultServer, startFaultServer } from '../support/fault-server.js';

/**
 * Every `.any_of` option takes an array or one comma-separated string, the same way, whether its items
 * are tickers and codes or an enumeration's values (`ipoStatusAnyOf`, the futures `typeAnyOf`); a bad
 * item is refused before any request, naming the option, the value and what is allowed.
 */
describe('.any_of options: an array or a comma-separated string, checked item by item', () => {
  let server: FaultServer;
  before(async () => {
    server = await startFaultServer([{ body: { status: 'OK', request_id: 'x', results: [] } }]);
  });
  after(() => server.close());

  const queryOf = (url: string, name: string) => new URL(url, 'http://x').searchParams.get(name);

  test('an enumeration list as an array or a string sends the same query', async () => {
    const reference = ReferenceClient('k', { useAsync: true, baseUrl: server.url });
    const futures = FuturesClient('k', { useAsync: true, baseUrl: server.url });
    try {
      const sent = async (call: () => Promise<unknown>, name: string) => {
        await call();
        return queryOf(server.requests.at(-1)?.url ?? '', name);
      };
      for (const value of [['pending', 'history'], 'pending,history', [' pending ', 'history']]) {
        assert.equal(
          await sent(() => reference.getIposV1({ ipoStatusAnyOf: value as never }), 'ipo_status.any_of'),
          'pending,history',
          JSON.stringify(value),
        );
      }
      for (const value of [['AAPL', 'msft'], 'AAPL,msft']) {
        assert.equal(
          await sent(() => reference.getIposV1({ tickerAnyOf: value }), 'ticker.any_of'),
          'AAPL,MSFT',
        );
      }
      for (const value of [['single', 'combo'], 'single,combo']) {
        assert.equal(
          await sent(() => futures.getContracts({ typeAnyOf: value as never }), 'type.any_of'),
          'single,combo',
        );
      }
    } finally {
      await reference.close();
      await futures.close();
    }
  });

  test('a bad item is refused before any request, naming the option, the value and what is allowed', async () => {
    const reference = ReferenceClient('k', { useAsync: true, baseUrl: server.url });
    try {
      const before = server.requests.length;
      for (const value of [['pending', 'bogus'], 'pending,bogus', ['pending', 7], [], 'pending,', 42]) {
        assert.throws(
          () => reference.getIposV1({ ipoStatusAnyOf: value as never }),
          (e: unknown) => {
            assert.ok(isInvalidParameterError(e), String(e));
            assert.equal(e.parameter, 'ipoStatusAnyOf');
            assert.deepEqual(e.value, value);
            assert.match(e.message, /^Invalid ipoStatusAnyOf: /);
            if (value !== 'pending,' && !(Array.isArray(value) && value.length === 0)) {
              assert.match(
                e.message,
                /"direct_listing_process", "history", "new", "pending", "postponed", "rumor", "withdrawn"/,
              );
            }
            return true;
          },
          JSON.stringify(value),
        );
      }
      assert.throws(
        () => reference.getIposV1({ ipoStatusAnyOf: ['pending', 'bogus'] as never }),
        /"bogus" is not one of them/,
      );
      assert.equal(server.requests.length, before, 'nothing was sent');
    } finally {
      await reference.close();
    }
  });
});
