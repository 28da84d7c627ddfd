import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StocksClient } from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';
import type { MinuteBarsConfig } from '../support/server-handlers.js';

// The async client's full range decodes each page as its body arrives and makes the bar objects from
// the decoded columns; a page the decoder does not take (other fields, such as `otc`) is parsed from the
// same body. Either way the bars must be the objects `JSON.parse` makes of the pages, key order
// included, and no page may be requested twice.

const KEY = 'full-range-objects-key';
const FROM = '2024-01-02';
const TO = '2024-04-30';
const START = Date.parse('2024-01-02T00:00:00-05:00');
const END = Date.parse('2024-05-01T00:00:00-04:00');

const SHAPES = [undefined, 'sparse', 'numbers', 'otc', 'pageOrder'] as const;

describe('async full range: the bar objects JSON.parse makes of the pages, each page fetched once', () => {
  const server = new RecordingServer();
  before(() => server.start());
  after(() => server.stop());

  for (const barShape of SHAPES) {
    test(`bars ${barShape ?? 'as the service writes them'}`, async () => {
      await server.use('minuteBars', {
        stepMinutes: 11,
        // Nothing outside the range: every chunk answers only its own bars, so the pages joined in
        // order of `t` are the answer.
        dataStart: START,
        dataEnd: END,
        cap: 1500,
        ...(barShape ? { barShape } : {}),
      } satisfies MinuteBarsConfig);
      await server.take();
      const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
      const got = await client.getFullRangeAggregateBars('AAPL', FROM, TO, {
        maxConcurrentWorkers: 3,
        info: false,
      });
      await client.close();
      const seen = await server.take();

      const targets = seen.map((r) => `${r.path}?${new URLSearchParams(r.query)}`);
      assert.equal(new Set(targets).size, targets.length, 'no page requested twice');
      const want: { t: number }[] = [];
      for (const target of targets) {
        const response = await fetch(`${server.url}${target}`, {
          headers: { authorization: `Bearer ${KEY}` },
        });
        const page = JSON.parse(await response.text()) as { results?: { t: number }[] };
        want.push(...(page.results ?? []));
      }
      want.sort((a, b) => a.t - b.t);
      assert.ok(seen.length > 3 && want.length > 5000, `pages (${seen.length}) and bars (${want.length})`);
      assert.equal(JSON.stringify(got), JSON.stringify(want));
      await server.take();
    });
  }
});
