/**
 * The web page in a real browser: headless Chromium loads `/` from a server over the Lean test store
 * and is checked against the server's own API answers: the chart holds the stored bars (stocks,
 * futures, forex), the trades table pages by next_url, the option chain shows its contracts with
 * greeks, the live view receives the replay, bad input is answered with the API's message, keys are
 * asked for as by the API, nothing is fetched from elsewhere, and a screenshot is not blank.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { buildWebPage, webPageIsStale } from '../../scripts/build-web-page.js';
import { parseJson } from '../../src/core/json.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { fixtureStorePath } from '../server/app-fixture.js';
import { launchChromium } from '../support/chromium.js';
import { hasShared, leanDir } from '../support/shared.js';

const tmp = fileURLToPath(new URL('../../.tmp/', import.meta.url));
const KEY = 'web-page-test-key-0123456789';

/** Every item of a paged answer, each next_url followed. */
async function allResults(server: RunningServer, path: string): Promise<any[]> {
  const out: any[] = [];
  let next: string | undefined = `${server.url}${path}`;
  while (next) {
    const res = await fetch(next);
    assert.equal(res.status, 200, next);
    const body = parseJson(await res.text()) as { results?: any[]; next_url?: string };
    out.push(...(body.results ?? []));
    next = body.next_url;
  }
  return out;
}

async function firstPage(url: string): Promise<{ results: any[]; next_url?: string }> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return parseJson(await res.text()) as { results: any[]; next_url?: string };
}

/** Whether the store holds the ES December 2013 contract (the test store does; the small fixture store not). */
async function hasEsz3(server: RunningServer): Promise<boolean> {
  const contracts = await allResults(server, '/futures/v1/contracts?product_code=ES');
  return contracts.some((c) => c.ticker === 'ESZ3');
}

/** Opens the page at `query` and waits until `view` has loaded (or failed). */
async function open(page: Page, server: RunningServer, query: string, view: string): Promise<string> {
  await page.goto(`${server.url}/?${query}`);
  return waitView(page, view);
}

async function waitView(page: Page, view: string): Promise<string> {
  const section = page.locator(`#view-${view}`);
  await section
    .and(page.locator('[data-status="ready"], [data-status="error"]'))
    .waitFor({ timeout: 60_000 });
  return (await section.getAttribute('data-status')) ?? '';
}

/** The page's status line (role status): progress and errors. */
const statusLine = async (page: Page) => (await page.getByRole('status').textContent()) ?? '';

type DrawnBar = { time: number; open: number; high: number; low: number; close: number; volume: number };
const drawnBars = (page: Page) => page.evaluate(() => (globalThis as any).mdqPage.chartBars() as DrawnBar[]);

/** The cells of a table's body, row by row, as the page shows them. */
const tableRows = (page: Page, id: string) =>
  page
    .locator(`#${id} tbody tr`)
    .evaluateAll((rows) =>
      rows.map((r) => [...(r as any).cells].map((c: any) => String(c.textContent ?? ''))),
    );
const tableHeaders = (page: Page, id: string) => page.locator(`#${id} thead th`).allTextContents();

/** Distinct colours of a PNG and whether each wanted colour appears, decoded by the browser itself. */
async function pngColours(browser: Browser, png: Buffer, wanted: string[]) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async ({ src, wanted }) => {
        // Runs in the browser: its globals, not Node's.
        const { Image, document } = globalThis as any;
        const img = new Image();
        img.src = src;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const g = canvas.getContext('2d')!;
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, img.width, img.height).data;
        const seen = new Set<number>();
        for (let i = 0; i < d.length; i += 4) seen.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
        return {
          distinct: seen.size,
          present: wanted.map((hex) => seen.has(Number.parseInt(hex.slice(1), 16))),
        };
      },
      { src: `data:image/png;base64,${png.toString('base64')}`, wanted },
    );
  } finally {
    await page.close();
  }
}

test('the web page in headless Chromium, over the Lean test store', async (t) => {
  if (!hasShared(t, leanDir)) return;
  const browser = await launchChromium(t);
  if (!browser) return;
  if (webPageIsStale()) await buildWebPage();
  const server = await startServer({
    db: await fixtureStorePath(),
    port: 0,
    log: () => {},
    // A few seconds before SPY's first regular-session trade, fast enough to see events at once.
    replayFrom: '2013-10-07T13:29:58Z',
    replaySpeed: 20,
  });
  t.after(() => server.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const elsewhere: string[] = [];
  const pageErrors: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(`${server.url}/`) && !r.url().startsWith('data:')) elsewhere.push(r.url());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));

  await t.test('the chart draws the stored minute bars of a stock, in New York time', async () => {
    const status = await open(
      page,
      server,
      'ticker=SPY&from=2013-10-07&to=2013-10-07&timespan=minute',
      'chart',
    );
    assert.equal(status, 'ready', await statusLine(page));
    const api = await allResults(
      server,
      '/v2/aggs/ticker/SPY/range/1/minute/2013-10-07/2013-10-07?limit=50000',
    );
    assert.ok(api.length > 300, `SPY has ${api.length} minute bars on 2013-10-07`);
    const drawn = await drawnBars(page);
    assert.equal(drawn.length, api.length);
    for (const [bar, want] of [
      [drawn[0], api[0]],
      [drawn.at(-1), api.at(-1)],
    ]) {
      assert.deepEqual(bar, {
        time: want.t / 1000,
        open: want.o,
        high: want.h,
        low: want.l,
        close: want.c,
        volume: want.v,
      });
    }
    assert.match((await page.locator('#chart-caption').textContent()) ?? '', /New York time/);
    // The state is in the address: the view is named there.
    assert.match(page.url(), /[?&]view=chart(&|$)/);
  });

  await t.test('the chart’s labels read in New York time, and it zooms and pans', async () => {
    const bars = await drawnBars(page);
    // SPY's first minute bar of 2013-10-07 starts 04:00 New York (08:00 UTC).
    assert.equal(
      await page.evaluate((s) => (globalThis as any).mdqPage.chartTimeLabel(s), bars[0]!.time),
      '2013-10-07 04:00',
    );
    type Range = { from: number; to: number };
    const range = () => page.evaluate(() => (globalThis as any).mdqPage.chartRange() as Range);
    const changed = (before: Range) =>
      page.waitForFunction((b) => {
        const r = (globalThis as any).mdqPage.chartRange();
        return r && (Math.abs(r.from - b.from) > 1 || Math.abs(r.to - b.to) > 1);
      }, before);
    const all = await range();
    const box = (await page.locator('#chart').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -600);
    await changed(all);
    const zoomed = await range();
    assert.ok(zoomed.to - zoomed.from < all.to - all.from, `zoomed in: ${JSON.stringify([all, zoomed])}`);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 300, box.y + box.height / 2, { steps: 10 });
    await page.mouse.up();
    await changed(zoomed);
    const panned = await range();
    assert.ok(panned.from < zoomed.from, `panned to earlier bars: ${JSON.stringify([zoomed, panned])}`);
    assert.ok(Math.abs(panned.to - panned.from - (zoomed.to - zoomed.from)) < 1, 'the same width');
  });

  await t.test('a ticker without days opens on its latest stored day', async () => {
    const status = await open(page, server, 'ticker=SPY', 'chart');
    assert.equal(status, 'ready', await statusLine(page));
    const latest = await firstPage(
      `${server.url}/v2/aggs/ticker/SPY/range/1/minute/1970-01-01/2100-01-01?sort=desc&limit=1`,
    );
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(
      latest.results[0].t,
    );
    const query = new URL(page.url()).searchParams;
    assert.deepEqual([query.get('from'), query.get('to'), query.get('view')], [day, day, 'chart']);
    assert.equal(await page.getByLabel('From').inputValue(), day);
    const api = await allResults(server, `/v2/aggs/ticker/SPY/range/1/minute/${day}/${day}?limit=50000`);
    assert.equal((await drawnBars(page)).length, api.length);
  });

  await t.test('a screenshot of the chart is not blank: candles of both colours on the page', async () => {
    mkdirSync(tmp, { recursive: true });
    const png = await page.locator('#chart').screenshot();
    writeFileSync(join(tmp, 'web-page-chart.png'), png);
    await page.screenshot({ path: join(tmp, 'web-page.png') });
    const { distinct, present } = await pngColours(browser, png, ['#26a69a', '#ef5350']);
    assert.ok(distinct >= 16, `the chart screenshot has ${distinct} distinct colours`);
    assert.deepEqual(present, [true, true], 'up and down candle colours drawn');
  });

  await t.test('the ticker search offers the store’s tickers of every class, futures included', async () => {
    const ticker = page.getByLabel('Ticker');
    const offered = async (text: string, want: string) => {
      await ticker.fill(text);
      await page.locator(`#ticker-list option[value="${want}"]`).waitFor({ state: 'attached' });
      return page
        .locator('#ticker-list option')
        .evaluateAll((os) => os.map((o) => (o as any).value as string));
    };
    assert.ok((await offered('eur', 'C:EURUSD')).every((v) => /EUR/.test(v)));
    assert.ok((await offered('btc', 'X:BTCUSD')).includes('X:BTCUSD'));
    if (await hasEsz3(server)) {
      const futures = await offered('ESZ', 'ESZ3');
      assert.ok(
        futures.every((v) => v.startsWith('ESZ')),
        futures.join(' '),
      );
    } else console.log('# futures search not checked: the store holds no ESZ3 (the small fixture store)');
    const options = await offered('O:SPY2309', 'O:SPY230901C00430000');
    assert.ok(
      options.every((v) => v.startsWith('O:SPY2309')),
      options.join(' '),
    );
  });

  await t.test('the chart draws futures bars from /futures/v1/aggs', async (t) => {
    if (!(await hasEsz3(server))) {
      t.skip('the store holds no ESZ3 (the small fixture store has no futures)');
      console.log('# skipped: the store holds no ESZ3');
      return;
    }
    const status = await open(
      page,
      server,
      'ticker=ESZ3&from=2013-10-07&to=2013-10-08&timespan=hour',
      'chart',
    );
    assert.equal(status, 'ready', await statusLine(page));
    const api = await allResults(
      server,
      '/futures/v1/aggs/ESZ3?resolution=1hour&window_start.gte=2013-10-07&window_start.lt=2013-10-09&sort=window_start.asc',
    );
    const drawn = await drawnBars(page);
    assert.ok(api.length > 10);
    assert.equal(drawn.length, api.length);
    assert.equal(drawn[0]!.time, Number(BigInt(api[0].window_start) / 1_000_000_000n));
    assert.equal(drawn.at(-1)!.close, api.at(-1).close);
    assert.equal(drawn.at(-1)!.volume, api.at(-1).volume);
  });

  await t.test('futures second bars are asked for as the futures route spells them (1sec)', async (t) => {
    if (!(await hasEsz3(server))) {
      t.skip('the store holds no futures ticks (the small fixture store has no futures)');
      console.log('# skipped: the store holds no futures');
      return;
    }
    const sent: string[] = [];
    const note = (r: { url(): string }) => sent.push(r.url());
    page.on('request', note);
    let status: string;
    try {
      status = await open(page, server, 'ticker=GCZ3&from=2013-10-07&to=2013-10-07&timespan=second', 'chart');
    } finally {
      page.off('request', note);
    }
    assert.equal(status, 'ready', await statusLine(page));
    const asked = sent.filter((u) => u.includes('/futures/v1/aggs/GCZ3'));
    assert.ok(asked.length > 0, sent.join('\n'));
    assert.ok(
      asked.every((u) => new URL(u).searchParams.get('resolution') === '1sec'),
      asked.join('\n'),
    );
    const api = await allResults(
      server,
      '/futures/v1/aggs/GCZ3?resolution=1sec&window_start.gte=2013-10-07&window_start.lt=2013-10-08&sort=window_start.asc&limit=50000',
    );
    assert.ok(api.length > 100, `${api.length} second bars`);
    const drawn = await drawnBars(page);
    assert.equal(drawn.length, api.length);
    assert.equal(drawn.at(-1)!.close, api.at(-1).close);
  });

  await t.test('forex bars are drawn and said to be in UTC', async () => {
    const status = await open(
      page,
      server,
      'ticker=C:EURUSD&from=2014-05-01&to=2014-05-01&timespan=hour',
      'chart',
    );
    assert.equal(status, 'ready', await statusLine(page));
    const api = await allResults(server, '/v2/aggs/ticker/C:EURUSD/range/1/hour/2014-05-01/2014-05-01');
    assert.ok(api.length > 0);
    assert.equal((await drawnBars(page)).length, api.length);
    assert.match((await page.locator('#chart-caption').textContent()) ?? '', /times in UTC/);
  });

  await t.test('a value the library refuses: no request, its message in the status line', async () => {
    const sent: string[] = [];
    const note = (r: { url(): string }) => sent.push(r.url());
    page.on('request', note);
    try {
      const status = await open(page, server, 'ticker=SPY&from=2013-10-07&timespan=fortnight', 'chart');
      assert.equal(status, 'error');
    } finally {
      page.off('request', note);
    }
    assert.deepEqual(
      sent.filter((u) => u.includes('/v2/aggs/')),
      [],
    );
    // The message of the library's clients: the parameter, the value and what is allowed.
    assert.match(
      await statusLine(page),
      /^Invalid timespan: "fortnight"; expected one of "second", "minute", "hour", "day"/,
    );
  });

  await t.test('an answer that is not 2xx: the API’s own message, in the status line', async () => {
    // The fault: the bars request is answered with the server's real refusal of another request.
    const res = await fetch(`${server.url}/v2/aggs/ticker/SPY/range/1/fortnight/2013-10-07/2013-10-07`);
    const text = await res.text();
    assert.equal(res.status, 400);
    await page.route('**/v2/aggs/ticker/SPY/**', (route) =>
      route.fulfill({ status: res.status, contentType: 'application/json', body: text }),
    );
    try {
      const status = await open(page, server, 'ticker=SPY&from=2013-10-08&to=2013-10-08', 'chart');
      assert.equal(status, 'error');
    } finally {
      await page.unroute('**/v2/aggs/ticker/SPY/**');
    }
    assert.equal(await statusLine(page), `400: ${(JSON.parse(text) as { error: string }).error}`);
  });

  await t.test('bad input the page can see is refused before any request, naming the values', async () => {
    assert.equal(await open(page, server, 'ticker=SPY&from=2013-10-07&to=2013-10-07', 'chart'), 'ready');
    const sent: string[] = [];
    const note = (r: { url(): string }) => sent.push(r.url());
    page.on('request', note);
    await page.getByLabel('From').fill('2013-10-09');
    await page.getByLabel('To').fill('2013-10-08');
    await page.getByRole('button', { name: 'Show' }).click();
    assert.equal(
      await statusLine(page),
      'From (2013-10-09) is after To (2013-10-08): choose a From on or before To.',
    );
    page.off('request', note);
    assert.deepEqual(sent, []);
    assert.match(page.url(), /from=2013-10-07&to=2013-10-07/);
  });

  await t.test('a newer chart load wins over an older one still running, which is abandoned', async () => {
    assert.equal(await open(page, server, 'ticker=IBM&from=2013-10-07&to=2013-10-07', 'chart'), 'ready');
    const ibm = (await drawnBars(page)).length;
    // The SPY answer is held back (the fault) until IBM has loaded again.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const abandoned = page.waitForEvent('requestfailed', {
      predicate: (r) => r.url().includes('/ticker/SPY/'),
      timeout: 60_000,
    });
    await page.route('**/v2/aggs/ticker/SPY/**', async (route) => {
      await held;
      await route.continue().catch(() => {});
    });
    const show = async (ticker: string) => {
      await page.getByLabel('Ticker').fill(ticker);
      await page.getByRole('button', { name: 'Show' }).click();
    };
    try {
      await show('SPY');
      await page.locator('#view-chart[data-status="loading"]').waitFor();
      await show('IBM');
      await page.locator('#view-chart[data-status="ready"]').waitFor();
      await abandoned;
    } finally {
      release();
      await page.unroute('**/v2/aggs/ticker/SPY/**');
    }
    assert.equal((await drawnBars(page)).length, ibm);
    assert.match((await page.locator('#chart-caption').textContent()) ?? '', /^IBM:/);
    assert.match(page.url(), /ticker=IBM/);
  });

  await t.test('the trades table pages by next_url, forward and back', async () => {
    const status = await open(page, server, 'ticker=SPY&from=2013-10-07&to=2013-10-07&view=trades', 'trades');
    assert.equal(status, 'ready', await statusLine(page));
    const headers = await tableHeaders(page, 'tick-table');
    assert.equal(headers[0], 'Time (New York)');
    const seq = headers.indexOf('sequence_number');
    assert.ok(seq > 0, `headers: ${headers.join(', ')}`);
    const first = await firstPage(
      `${server.url}/v3/trades/SPY?timestamp.gte=2013-10-07&timestamp.lt=2013-10-08&limit=100&sort=timestamp&order=asc`,
    );
    assert.ok(first.next_url);
    const second = await firstPage(first.next_url);
    const numbers = (rows: string[][]) => rows.map((r) => r[seq]);
    const page1 = await tableRows(page, 'tick-table');
    assert.deepEqual(
      numbers(page1),
      first.results.map((r) => String(r.sequence_number)),
    );
    // Exact nanoseconds: the first trade's time, to the digit.
    const ns = BigInt(first.results[0].sip_timestamp);
    assert.equal(page1[0]![0], `2013-10-07 ${nsClock(ns)}`);

    await page.getByRole('button', { name: 'Next page' }).first().click();
    await page.getByText(/^page 2:/).waitFor();
    assert.deepEqual(
      numbers(await tableRows(page, 'tick-table')),
      second.results.map((r) => String(r.sequence_number)),
    );
    await page.getByRole('button', { name: 'Previous page' }).first().click();
    await page.getByText(/^page 1:/).waitFor();
    assert.deepEqual(numbers(await tableRows(page, 'tick-table')), numbers(page1));
  });

  await t.test('quotes of a stock with quote ticks', async () => {
    const status = await open(
      page,
      server,
      'ticker=IBM&from=2013-10-07&to=2013-10-07&view=trades&kind=quotes',
      'trades',
    );
    assert.equal(status, 'ready', await statusLine(page));
    const headers = await tableHeaders(page, 'tick-table');
    assert.ok(headers.includes('bid_price') && headers.includes('ask_price'), headers.join(', '));
    assert.equal((await tableRows(page, 'tick-table')).length, 100);
  });

  await t.test('the option chain shows its contracts with greeks', async () => {
    const status = await open(page, server, 'ticker=SPY&view=chain', 'chain');
    assert.equal(status, 'ready', await statusLine(page));
    const api = await firstPage(`${server.url}/v3/snapshot/options/SPY?limit=100`);
    assert.ok(api.results.length > 0);
    const headers = await tableHeaders(page, 'chain-table');
    const rows = await tableRows(page, 'chain-table');
    assert.equal(rows.length, api.results.length);
    const col = (name: string) => headers.indexOf(name);
    assert.deepEqual(
      rows.map((r) => r[col('Contract')]),
      api.results.map((r) => r.details.ticker),
    );
    const withGreeks = api.results.findIndex((r) => r.greeks?.delta !== undefined);
    assert.ok(withGreeks >= 0, 'a contract with greeks');
    assert.equal(rows[withGreeks]![col('Delta')], api.results[withGreeks].greeks.delta.toFixed(4));
  });

  await t.test('the live view receives the replay over the WebSocket protocol', async () => {
    const status = await open(page, server, 'ticker=SPY&view=stream', 'stream');
    assert.equal(status, 'ready', await statusLine(page));
    assert.equal(await page.getByLabel('Channels').inputValue(), 'T.SPY,Q.SPY,AM.SPY');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForFunction(() => (globalThis as any).mdqPage.streamEvents() >= 20, null, {
      timeout: 60_000,
    });
    await page.locator('#stream-table tbody tr').first().waitFor();
    const rows = await tableRows(page, 'stream-table');
    assert.ok(
      rows.some((r) => r[1] === 'T' && r[2] === 'SPY' && r[0]!.startsWith('2013-10-07 09:')),
      rows[0]?.join(' '),
    );
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('disconnected').waitFor();
  });

  await t.test('the live view of a futures contract subscribes on the futures market', async (t) => {
    if (!(await hasEsz3(server))) {
      t.skip('the store holds no ESZ3 (the small fixture store has no futures)');
      console.log('# skipped: the store holds no ESZ3');
      return;
    }
    const status = await open(page, server, 'ticker=ESZ3&view=stream', 'stream');
    assert.equal(status, 'ready', await statusLine(page));
    assert.equal(await page.getByLabel('Channels').inputValue(), 'T.ESZ3,Q.ESZ3,AM.ESZ3');
  });

  await t.test('nothing was fetched from anywhere but the server, and no script failed', () => {
    assert.deepEqual(elsewhere, []);
    assert.deepEqual(pageErrors, []);
  });

  await t.test('with keys configured: the page needs one, as the API does, and passes it on', async () => {
    const keyed = await startServer({ db: await fixtureStorePath(), port: 0, log: () => {}, apiKeys: [KEY] });
    t.after(() => keyed.close());
    const refused = await fetch(`${keyed.url}/`);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { status: string }).status, 'ERROR');
    const status = await open(
      page,
      keyed,
      `apiKey=${KEY}&ticker=SPY&from=2013-10-07&to=2013-10-07&timespan=hour`,
      'chart',
    );
    assert.equal(status, 'ready', await statusLine(page));
    assert.ok((await drawnBars(page)).length > 0);
    assert.match(page.url(), new RegExp(`apiKey=${KEY}`));
  });
});

/** `HH:MM:SS.nnnnnnnnn` in New York (EDT, UTC−4, in October 2013) of a nanosecond timestamp. */
function nsClock(ns: bigint): string {
  const s = Number(ns / 1_000_000_000n) - 4 * 3600;
  const d = new Date(s * 1000);
  const hms = d.toISOString().slice(11, 19);
  return `${hms}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}`;
}
