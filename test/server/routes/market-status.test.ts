import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it, type TestContext } from 'node:test';
import { restClient } from '@polygon.io/client-js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, recordedDir } from '../../support/shared.js';
import { responseValidator } from './snapshot-fixture.js';

/** A server over an empty store: market status depends on "now" and the calendar only. */
async function statusServer(t: TestContext, now: string): Promise<RunningServer> {
  const store = await DuckDbStore.open(':memory:');
  const server = await startServer({ store, port: 0, now, log: () => {} });
  t.after(async () => {
    await server.close();
    store.close();
  });
  return server;
}

async function get(server: RunningServer, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}?apiKey=test-key`);
  return { status: res.status, body: await res.json() };
}

describe('GET /v1/marketstatus/now', () => {
  it('reproduces the recorded response at its own server time', async (t) => {
    const path = `${recordedDir}v1/marketstatus/now.json`;
    if (!hasShared(t, path)) return;
    const want = JSON.parse(readFileSync(path, 'utf8'));
    const server = await statusServer(t, want.serverTime);
    const { status, body } = await get(server, '/v1/marketstatus/now');
    assert.equal(status, 200);
    const { indicesGroups, ...rest } = body;
    assert.deepEqual(rest, want);
    assert.equal(indicesGroups.s_and_p, 'closed');
    assert.equal('status' in body || 'request_id' in body, false);
    assert.deepEqual(responseValidator('/v1/marketstatus/now')(body), []);
  });

  for (const [now, market, fx] of [
    ['2022-04-28T10:00:00-04:00', 'open', 'open'],
    ['2022-04-28T07:15:00-04:00', 'extended-hours', 'open'],
    ['2022-04-30T12:00:00-04:00', 'closed', 'closed'],
    ['2022-12-26T11:00:00-05:00', 'closed', 'open'],
    ['2022-11-25T14:00:00-05:00', 'extended-hours', 'open'],
  ] as const) {
    it(`is ${market} at ${now} (fx ${fx})`, async (t) => {
      const server = await statusServer(t, now);
      const { body } = await get(server, '/v1/marketstatus/now');
      assert.equal(body.market, market);
      assert.equal(body.exchanges.nyse, market);
      assert.equal(body.currencies.fx, fx);
      assert.equal(body.currencies.crypto, 'open');
      assert.equal(body.serverTime, now);
    });
  }

  it('is what the official JS client (v8) reads', async (t) => {
    const server = await statusServer(t, '2022-04-28T16:48:08-04:00');
    const rest = restClient('test-key', server.url);
    const status = (await rest.getMarketStatus()) as any;
    assert.equal(status.market, 'extended-hours');
    const holidays = (await rest.getMarketHolidays()) as any;
    assert.ok(Array.isArray(holidays));
  });
});

describe('GET /v1/marketstatus/upcoming', () => {
  it('lists the recorded NYSE and NASDAQ holidays after the recorded date, plus OTC', async (t) => {
    const path = `${recordedDir}v1/marketstatus/upcoming.json`;
    if (!hasShared(t, path)) return;
    const want = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>[];
    const server = await statusServer(t, '2022-04-28T16:48:08-04:00');
    const { status, body } = await get(server, '/v1/marketstatus/upcoming');
    assert.equal(status, 200);
    assert.ok(Array.isArray(body));
    const key = (h: Record<string, string>) => JSON.stringify(Object.entries(h).sort());
    assert.deepEqual(
      body
        .filter((h: Record<string, string>) => h.exchange !== 'OTC')
        .map(key)
        .sort(),
      want.map(key).sort(),
    );
    assert.equal(body.filter((h: Record<string, string>) => h.exchange === 'OTC').length, want.length / 2);
  });

  it('starts after "now" and carries 13:00 early closes', async (t) => {
    const server = await statusServer(t, '2023-11-01T12:00:00-04:00');
    const { body } = await get(server, '/v1/marketstatus/upcoming');
    assert.ok(body.every((h: { date: string }) => h.date > '2023-11-01'));
    const blackFriday = body.find(
      (h: { exchange: string; date: string }) => h.exchange === 'NYSE' && h.date === '2023-11-24',
    );
    assert.deepEqual(blackFriday, {
      exchange: 'NYSE',
      name: 'Thanksgiving',
      date: '2023-11-24',
      status: 'early-close',
      open: '2023-11-24T14:30:00.000Z',
      close: '2023-11-24T18:00:00.000Z',
    });
    // From November the list runs through the next year.
    assert.ok(
      body.some((h: { date: string; name: string }) => h.date === '2024-03-29' && h.name === 'Good Friday'),
    );
  });
});
