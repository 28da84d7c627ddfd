import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { get, snapshotServer } from './snapshot-fixture.js';

/** Paths and query keys of the snapshot, reference and market-status routes. */
const ROUTES: readonly [string, readonly string[]][] = [
  ['/v2/snapshot/locale/us/markets/stocks/tickers', ['tickers', 'include_otc']],
  ['/v2/snapshot/locale/us/markets/stocks/tickers/{x}', []],
  ['/v2/snapshot/locale/us/markets/stocks/{x}', ['include_otc']],
  ['/v2/snapshot/locale/global/markets/crypto/tickers/{x}/book', []],
  ['/v2/snapshot/locale/global/markets/forex/tickers', ['tickers']],
  [
    '/v3/snapshot/options/{x}',
    [
      'strike_price',
      'strike_price.gte',
      'expiration_date',
      'contract_type',
      'order',
      'limit',
      'sort',
      'cursor',
    ],
  ],
  ['/v3/snapshot/options/GOOG/{x}', []],
  ['/v3/snapshot/indices', ['ticker.any_of', 'ticker.gt', 'order', 'limit', 'sort', 'cursor']],
  [
    '/v3/reference/tickers',
    ['ticker', 'ticker.lt', 'type', 'market', 'search', 'active', 'date', 'sort', 'order', 'limit', 'cursor'],
  ],
  ['/v3/reference/tickers/{x}', ['date']],
  [
    '/v3/reference/options/contracts',
    ['underlying_ticker', 'as_of', 'expired', 'strike_price.lte', 'sort', 'limit', 'cursor'],
  ],
  ['/v3/reference/options/contracts/{x}', ['as_of']],
  [
    '/v3/reference/splits',
    ['ticker', 'execution_date.gte', 'reverse_split', 'order', 'sort', 'limit', 'cursor'],
  ],
  ['/v3/reference/conditions', ['asset_class', 'data_type', 'id', 'sip', 'sort', 'limit', 'cursor']],
  ['/v3/reference/exchanges', ['asset_class', 'locale']],
  ['/v3/reference/dividends', ['ticker', 'frequency', 'limit']],
  ['/v1/marketstatus/now', []],
];

// Values near the edges of what the parameters take: numbers, dates, tickers, booleans, junk.
const value = fc.oneof(
  fc.constantFrom('', '0', '-1', '1', '250', '1001', '1e9', 'NaN', 'true', 'false', 'asc', 'desc', 'ticker'),
  fc.constantFrom(
    '2015-12-24',
    '2015-02-30',
    '20151224',
    'GOOG',
    'O:GOOG151224C00750000',
    'X:BTCUSD',
    'I:SPX',
  ),
  fc.constantFrom("'; DROP TABLE tickers; --", '%', '%00', ',,,', 'A,B,C', 'bGltaXQ9Mg', 'gainers', 'losers'),
  fc.string({ maxLength: 12 }),
);

describe('snapshot, reference and market-status routes under arbitrary input', () => {
  it('answer 200, 400 or 404 in the service shape, never 500', async (t) => {
    const server = await snapshotServer(t, '2015-12-24T12:00:00-05:00');
    if (!server) return;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        value,
        fc.array(fc.tuple(fc.nat(), value), { maxLength: 3 }),
        async ([path, keys], segment, pairs) => {
          const url = path.replace('{x}', encodeURIComponent(segment || 'X'));
          const query = new URLSearchParams();
          for (const [i, v] of pairs) if (keys.length > 0) query.append(keys[i % keys.length] as string, v);
          const qs = query.toString();
          const { status, body } = await get(server, qs ? `${url}?${qs}` : url);
          assert.ok([200, 400, 404].includes(status), `${url}?${qs} → ${status} ${JSON.stringify(body)}`);
          if (status !== 200) {
            assert.match(body.request_id, /^[0-9a-f]{32}$/);
            assert.ok(body.status === 'ERROR' || body.status === 'NOT_FOUND');
          }
        },
      ),
      { numRuns: 120, seed: 20261121 },
    );
  });
});
