/**
 * The web page's route without a browser: one self-contained document under a policy that lets it
 * run only its own inline script and talk only to this server, behind the same key check as the API.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildWebPage, webPageIsStale } from '../../../scripts/build-web-page.js';
import { createApp } from '../../../src/server/app.js';
import { startServer } from '../../../src/server/index.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { loadWebPage, webPagePath } from '../../../src/server/web-page.js';
import { withStoreFile } from '../../support/store.js';

async function app(t: import('node:test').TestContext, apiKeys?: string[]) {
  if (webPageIsStale()) await buildWebPage();
  const store = await DuckDbStore.open(':memory:');
  t.after(() => store.close());
  return createApp({ store, now: async () => 0, log: () => {} }, apiKeys ? { apiKeys } : {});
}

test('GET / answers the built page, its one inline script allowed by hash and nothing from elsewhere', async (t) => {
  const res = await (await app(t)).request('/', { headers: { Authorization: 'Bearer k' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=UTF-8');
  assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f]{32}$/);
  const html = await res.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  assert.equal(scripts[0]![1], '', 'an inline script, no src');
  const hash = createHash('sha256').update(scripts[0]![2]!, 'utf8').digest('base64');
  const policy = res.headers.get('content-security-policy') ?? '';
  assert.ok(policy.includes(`script-src 'sha256-${hash}'`), policy);
  assert.ok(policy.includes("default-src 'none'") && policy.includes("connect-src 'self'"), policy);
  // No style sheet, image or frame is loaded from anywhere: the only outside address is a link.
  assert.deepEqual(html.match(/\b(?:src|href)="(?:https?:)?\/\/[^"]*"/g), [
    'href="https://www.tradingview.com/"',
  ]);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
});

test('with keys configured, / needs one as the API does: 401 in the API’s error shape, else the page', async (t) => {
  const server = await app(t, ['web-page-key-0123456789']);
  const refused = await server.request('/');
  assert.equal(refused.status, 401);
  const body = (await refused.json()) as { status: string; error: string; request_id: string };
  assert.equal(body.status, 'ERROR');
  assert.equal(body.error, 'API Key was not provided');
  const wrong = await server.request('/?apiKey=another-key-0123456789');
  assert.equal(wrong.status, 401);
  const ok = await server.request('/?apiKey=web-page-key-0123456789');
  assert.equal(ok.status, 200);
  assert.match(await ok.text(), /^<!doctype html>/);
});

test('a page that was not built is absent, not an error', () => {
  assert.equal(loadWebPage(join(webPagePath()!, '..', 'no-such-page.html')), undefined);
  assert.ok(webPagePath()!.endsWith(join('dist', 'web', 'index.html')));
});

test('the server names the page’s address when it starts', async () => {
  if (webPageIsStale()) await buildWebPage();
  await withStoreFile(async (db) => {
    const lines: string[] = [];
    const server = await startServer({ db, port: 0, log: (l) => lines.push(l) });
    try {
      assert.ok(lines.includes(`web page: ${server.url}/`), lines.join('\n'));
      assert.equal((await fetch(`${server.url}/`)).status, 200);
    } finally {
      await server.close();
    }
  });
});
