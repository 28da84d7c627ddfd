import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { resolveClientOptions } from '../../src/core/client-options.js';
import { type APIError, isAPIError } from '../../src/core/errors.js';
import { KEY_MASK, maskKey, maskKeyDeep } from '../../src/core/mask-key.js';
import { Transport } from '../../src/core/transport.js';
import { ReferenceClient } from '../../src/index.js';
import { type FaultServer, startFaultServer } from '../support/fault-server.js';

describe('maskKey', () => {
  // [key, text, masked text]
  const cases: [string, string, string][] = [
    // One-letter keys, which the local server accepts: the words around them stay intact.
    ['k', 'Ticker not found.', 'Ticker not found.'],
    ['a', 'status: Data not available', 'status: Data not available'],
    ['a', 'Unknown API Key a', `Unknown API Key ${KEY_MASK}`],
    ['a', 'GET /v3/trades/X?apiKey=a&limit=2', `GET /v3/trades/X?apiKey=${KEY_MASK}&limit=2`],
    ['k', '"k"', `"${KEY_MASK}"`],
    ['k', 'k', KEY_MASK],
    ['k', 'k-k k_k', `${KEY_MASK}-${KEY_MASK} k_k`],
    // Keys that are substrings of words.
    ['tick', 'Ticker tick ticks', `Ticker ${KEY_MASK} ticks`],
    ['found', 'Ticker not found.', `Ticker not ${KEY_MASK}.`],
    ['not', 'nothing is not here', `nothing is ${KEY_MASK} here`],
    ['été', 'Été, été, étés', `Été, ${KEY_MASK}, étés`],
    // URL-encoded as well as plain.
    ['a/b+c', 'apiKey=a%2Fb%2Bc or a/b+c', `apiKey=${KEY_MASK} or ${KEY_MASK}`],
    ['k.y', 'k.y kxy', `${KEY_MASK} kxy`],
    // A long key is masked even inside a longer token: no word holds it by chance.
    ['abcdef0123456789XYZ', 'req-abcdef0123456789XYZ42', `req-${KEY_MASK}42`],
    ['', 'nothing to mask', 'nothing to mask'],
  ];
  for (const [key, text, masked] of cases) {
    test(`key ${JSON.stringify(key)} in ${JSON.stringify(text)}`, () => {
      assert.equal(maskKey(text, key), masked);
    });
  }

  test('maskKeyDeep masks strings in objects and arrays, and leaves other values', () => {
    assert.deepEqual(
      maskKeyDeep({ status: 'ERROR', n: 1, error: 'bad key a', list: ['a', 'ab'], nested: { a: 'a' } }, 'a'),
      {
        status: 'ERROR',
        n: 1,
        error: `bad key ${KEY_MASK}`,
        list: [KEY_MASK, 'ab'],
        nested: { [KEY_MASK]: KEY_MASK },
      },
    );
  });
});

describe('errors over loopback never carry the key, and never corrupt text around it', () => {
  let server: FaultServer;
  const transports: Transport[] = [];
  const transport = (key: string) => {
    const t = new Transport(resolveClientOptions(key, { baseUrl: server.url, maxRetries: 0 }));
    transports.push(t);
    return t;
  };
  before(async () => {
    server = await startFaultServer();
  });
  after(async () => {
    await Promise.all(transports.map((t) => t.close()));
    await server.close();
  });

  async function apiError(key: string, target = '/v3/reference/tickers/NOPE'): Promise<APIError> {
    try {
      await transport(key).get(target);
    } catch (error) {
      assert.ok(isAPIError(error), String(error));
      return error as APIError;
    }
    assert.fail('expected an APIError');
  }

  test('one-letter keys leave the service message as it was', async () => {
    server.setScript([
      { status: 404, body: { status: 'NOT_FOUND', request_id: 'r1', message: 'Ticker not found.' } },
    ]);
    for (const key of ['k', 'a', 't', 'r', 'i']) {
      const error = await apiError(key);
      assert.equal(error.apiMessage, 'Ticker not found.', key);
      assert.equal((error.body as { status: string }).status, 'NOT_FOUND', key);
      assert.equal(error.requestId, 'r1', key);
      assert.match(error.message, /Ticker not found\. \(request id r1\)$/, key);
    }
  });

  test('a request id or header echoing the key, plain or URL-encoded, is masked in every field', async () => {
    for (const key of ['k', 'secret/key+1', 'abcdef0123456789abcdef0123456789']) {
      const encoded = encodeURIComponent(key);
      server.setScript([
        {
          status: 401,
          body: { status: 'ERROR', error: `Unknown API Key ${encoded}` },
          headers: {
            'X-Request-ID': key,
            'X-Echo-Key': `apiKey=${encoded}`,
            'X-Other': `key ${key}; token`,
          },
        },
      ]);
      const error = await apiError(key);
      assert.equal(error.requestId, KEY_MASK, key);
      assert.equal(error.headers['x-request-id'], KEY_MASK, key);
      assert.equal(error.headers['x-echo-key'], `apiKey=${KEY_MASK}`, key);
      assert.equal(error.headers['x-other'], `key ${KEY_MASK}; token`, key);
      assert.equal(error.apiMessage, `Unknown API Key ${KEY_MASK}`, key);
      const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack });
      for (const form of [key, encoded]) {
        if (form.length > 1) assert.ok(!everything.includes(form), `${form} leaks: ${everything}`);
      }
    }
  });

  test('the request id from a header masks the key only as a whole token', async () => {
    server.setScript([{ status: 500, body: '', headers: { 'X-Request-ID': 'keystone-k-1' } }]);
    const error = await apiError('k');
    assert.equal(error.requestId, `keystone-${KEY_MASK}-1`);
  });

  test('through a client, against a path holding a short key: the message keeps its words', async () => {
    server.setScript([
      { status: 404, body: { status: 'NOT_FOUND', request_id: 'x', message: 'Ticker not found.' } },
    ]);
    const client = ReferenceClient('a', { useAsync: true, baseUrl: server.url, maxRetries: 0 });
    try {
      await assert.rejects(client.getTickerDetails('NAAA'), (e: unknown) => {
        assert.ok(isAPIError(e));
        assert.match(
          e.message,
          /^HTTP 404 for \/v3\/reference\/tickers\/NAAA: Ticker not found\. \(request id x\)$/,
        );
        return true;
      });
    } finally {
      await client.close();
    }
  });
});
