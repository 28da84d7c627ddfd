/**
 * What a small synchronous call costs in messages when it goes through the worker (`directHttp: false`,
 * as every call over `https:` does): none. The calling thread writes the request as JSON
 * into shared memory and wakes the worker, the worker answers the response's text through shared memory
 * and wakes it once, and the calling thread decodes it. Results
 * equal the async client's, exact big integers included; a method that composes its operation's result
 * (a `getCurrentPrice`) and a raw response take the port, as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { syncTraffic } from '../../src/clients/sync-client.js';
import { StocksClient } from '../../src/index.js';
import { type FaultServerThread, startFaultServerThread } from '../support/fault-server.js';

const KEY = 'sync-small-key-31';
const CLOSE = JSON.stringify({
  ticker: 'AAPL',
  queryCount: 1,
  resultsCount: 1,
  adjusted: true,
  results: [
    {
      T: 'AAPL',
      v: 47_471_868,
      vw: 190.6,
      o: 190.9,
      c: 191.5,
      h: 192.1,
      l: 189.2,
      t: 1704229200000,
      n: 612_103,
    },
  ],
  status: 'OK',
  request_id: 'close-é-1',
});
// Written out: a number literal in code would round the nanoseconds before they are sent.
const TRADE =
  '{"status":"OK","request_id":"last","results":{"T":"AAPL","p":191.5,"s":100,"t":1704205800000000001}}';

describe('sync client: small calls', () => {
  let server: FaultServerThread;
  const sync = () => StocksClient(KEY, { baseUrl: server.url, directHttp: false });
  before(async () => {
    server = await startFaultServerThread([{ body: CLOSE }]);
  });
  after(() => server.close());

  test('each call writes its request to shared memory and wakes the caller once; no message either way', async () => {
    const client = sync();
    const async = StocksClient(KEY, { baseUrl: server.url, useAsync: true });
    try {
      const expected = await async.getPreviousClose('AAPL');
      client.getPreviousClose('AAPL'); // the first call also hands the log sink over
      const before = syncTraffic(client);
      assert.ok(before);
      const calls = 25;
      for (let i = 0; i < calls; i++) assert.deepEqual(client.getPreviousClose('AAPL'), expected);
      const after = syncTraffic(client);
      assert.ok(after);
      assert.deepEqual(
        {
          posted: after.posted - before.posted,
          written: after.written - before.written,
          received: after.received - before.received,
          wakes: after.wakes - before.wakes,
          shared: after.shared - before.shared,
        },
        { posted: 0, written: calls, received: 0, wakes: calls, shared: calls },
      );
    } finally {
      client.close();
      await async.close();
    }
  });
});

describe('sync client: answers that take the port', () => {
  let server: FaultServerThread;
  before(async () => {
    server = await startFaultServerThread([{ body: TRADE }]);
  });
  after(() => server.close());

  test('exact integers survive the text path; a composed result and a raw response are posted', async () => {
    const client = StocksClient(KEY, { baseUrl: server.url, directHttp: false });
    try {
      const last = client.getLastTrade('AAPL');
      assert.equal(last.results?.t, 1704205800000000001n);
      const before = syncTraffic(client);
      assert.ok(before);
      assert.equal(client.getCurrentPrice('AAPL'), 191.5);
      const raw = client.getLastTrade('AAPL', { rawResponse: true });
      assert.equal(raw.status, 200);
      assert.equal(raw.body, TRADE);
      const after = syncTraffic(client);
      assert.ok(after);
      assert.equal(after.shared - before.shared, 0, 'neither answer is a response as decoded');
      assert.equal(after.received - before.received, 2, 'both are posted');
    } finally {
      client.close();
    }
  });
});
