import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FaultServer, startFaultServer } from '../support/fault-server.js';
import { assertNoKey, KEY, runBin } from './support.js';

/** The CLI prints an error a 200 body reports as an error, exit 1, and prints no data. */
describe('mdq with an answer of 200 whose body reports an error', () => {
  let server: FaultServer;
  before(async () => {
    server = await startFaultServer([
      {
        body: {
          status: 'NOT_AUTHORIZED',
          request_id: 'req-cli-1',
          message: `You are not entitled to this data (${KEY}).`,
        },
      },
    ]);
  });
  after(() => server.close());

  test('exit 1, the error class, the status, the request id and the message on standard error', async () => {
    const r = await runBin(['stocks', 'get-previous-close', 'AAPL'], {
      MDQ_BASE_URL: server.url,
      MASSIVE_API_KEY: KEY,
    });
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /^mdq: PermissionDeniedError \(status 403; request id req-cli-1\): HTTP 200 with status NOT_AUTHORIZED for \/v2\/aggs\/ticker\/AAPL\/prev: You are not entitled to this data \(<api key>\)\./,
    );
    assertNoKey(r);
  });
});
