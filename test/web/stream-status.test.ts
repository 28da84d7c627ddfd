/**
 * The live view opened from its address waits for Connect: the status line says so, and does not go
 * on saying that the ticker is loading while nothing loads.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildWebPage, webPageIsStale } from '../../scripts/build-web-page.js';
import { startServer } from '../../src/server/index.js';
import { fixtureStorePath } from '../server/app-fixture.js';
import { launchChromium } from '../support/chromium.js';
import { hasShared, leanDir } from '../support/shared.js';

test('the live view, opened by its address, asks for Connect instead of showing "loading"', async (t) => {
  if (!hasShared(t, leanDir)) return;
  const browser = await launchChromium(t);
  if (!browser) return;
  t.after(() => browser.close());
  if (webPageIsStale()) await buildWebPage();
  const server = await startServer({ db: await fixtureStorePath(), port: 0, log: () => {} });
  t.after(() => server.close());
  const page = await browser.newPage();
  await page.goto(`${server.url}/?ticker=SPY&view=stream`);
  await page.locator('#view-stream[data-status="ready"]').waitFor({ timeout: 60_000 });
  const status = (await page.getByRole('status').textContent()) ?? '';
  assert.doesNotMatch(status, /loading/, status);
  assert.match(status, /Connect/, status);
  assert.match(status, /T\.SPY,Q\.SPY,AM\.SPY/, status);
});
