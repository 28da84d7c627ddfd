import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { inspect } from 'node:util';
import { DecodeError, StocksClient } from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';

const KEY = 'the-secret-key';

/** Every run of `size` characters of `text`: none may show up in what the error exposes. */
function windows(text: string, size = 4): string[] {
  const out: string[] = [];
  for (let i = 0; i + size <= text.length; i++) out.push(text.slice(i, i + size));
  return out;
}

/** Everything an error exposes: message, stack, every cause, and how `util.inspect` prints it. */
function exposed(error: unknown): string {
  const parts = [inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })];
  for (let e: unknown = error; e instanceof Error; e = e.cause)
    parts.push(e.message, e.stack ?? '', String(e));
  return parts.join('\n');
}

/** A 200 answer whose body is not JSON and echoes the key, over loopback HTTP. */
describe('a 2xx body that is not JSON: the DecodeError quotes none of it', () => {
  // In a worker thread: the sync client blocks this one while it waits.
  const server = new RecordingServer();
  let body = '';
  before(() => server.start());
  after(() => server.stop());

  for (const variant of ['async', 'sync'] as const) {
    test(`${variant}: a truncated body names the position where parsing failed`, async () => {
      body = `{"x": "${KEY}`;
      await server.respond(body);
      await server.take();
      const error = await callLastTrade(variant, 1);
      assert.ok(error instanceof DecodeError, `got ${String(error)}`);
      assert.equal(error.status, 200);
      assert.equal((await server.take()).length, 2, 'fetched again once (maxRetries 1) before giving up');
      const text = exposed(error);
      for (const part of windows(body)) assert.ok(!text.includes(part), `exposes ${JSON.stringify(part)}`);
      assert.equal(error.cause, undefined);
      // The string opened at `"` is never closed: parsing fails at the end of the text.
      assert.match(
        error.message,
        new RegExp(`\\(${body.length} characters; unterminated string at position ${body.length}\\)`),
      );
    });
  }

  test('a body the parser would quote (an HTML page) is not quoted either', async () => {
    body = `<html><body>${KEY}: denied</body></html>`;
    await server.respond(body);
    const error = await callLastTrade('async', 0);
    assert.ok(error instanceof DecodeError, `got ${String(error)}`);
    // V8's own message for this body quotes it; the DecodeError says what went wrong in its own words.
    const v8 = (() => {
      try {
        JSON.parse(body);
      } catch (e) {
        return (e as Error).message;
      }
    })();
    assert.ok(
      windows(body).some((part) => v8?.includes(part)),
      'the parser quotes the body',
    );
    const text = exposed(error);
    for (const part of windows(body)) assert.ok(!text.includes(part), `exposes ${JSON.stringify(part)}`);
    assert.match(error.message, /unexpected character/);
  });

  async function callLastTrade(variant: 'async' | 'sync', maxRetries: number): Promise<unknown> {
    if (variant === 'sync') {
      const client = StocksClient(KEY, { baseUrl: server.url, maxRetries });
      try {
        client.getLastTrade('AAPL');
      } catch (error) {
        return error;
      } finally {
        client.close();
      }
      return assert.fail('the call returned');
    }
    const client = StocksClient(KEY, { baseUrl: server.url, maxRetries, useAsync: true });
    try {
      return await client.getLastTrade('AAPL').then(
        () => assert.fail('the call resolved'),
        (e: unknown) => e,
      );
    } finally {
      await client.close();
    }
  }
});
