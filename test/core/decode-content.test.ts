/**
 * A server may send a body with a content coding (mdq asks for none, and HTTP then allows any; a proxy
 * or a `headers: { 'accept-encoding': … }` option leads to it): gzip, deflate and br bodies give the
 * same answer as a plain one, to the async and the sync client, for a single page, for pages followed,
 * and for a columnar full range (whose pages are decoded as they arrive). A coding mdq cannot decode, or
 * bytes not valid in theirs, fail with a DecodeError naming the coding.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { DecodeError, isMdqError, StocksClient } from '../../src/index.js';

// The server runs in a worker thread, so it answers while the sync client blocks this one. The query
// parameter `coding` (else the header `x-coding`) chooses the coding; `/v3/trades` pages once, to a second page.
const SERVER = `
const { createServer } = require('node:http');
const zlib = require('node:zlib');
const { parentPort } = require('node:worker_threads');
const encoders = {
  gzip: (b) => zlib.gzipSync(b),
  deflate: (b) => zlib.deflateSync(b),
  'raw-deflate': (b) => zlib.deflateRawSync(b),
  br: (b) => zlib.brotliCompressSync(b),
  'gzip, br': (b) => zlib.brotliCompressSync(zlib.gzipSync(b)),
  identity: (b) => b,
  zstd: (b) => b,
  'bad-gzip': (b) => Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), b]),
};
const header = { 'raw-deflate': 'deflate', 'bad-gzip': 'gzip' };
createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const coding = url.searchParams.get('coding') ?? req.headers['x-coding'] ?? 'identity';
  let body;
  if (url.pathname.startsWith('/v3/trades')) {
    const first = !url.searchParams.has('cursor');
    body = {
      status: 'OK',
      request_id: 'r',
      results: first ? [{ price: 1, size: 2 }] : [{ price: 3, size: 4 }],
      ...(first && { next_url: 'http://' + req.headers.host + '/v3/trades/AAPL?cursor=p2&coding=' + encodeURIComponent(coding) }),
    };
  } else {
    const parts = url.pathname.split('/');
    const from = Number(parts[8]);
    body = {
      ticker: 'AAPL', queryCount: 3, resultsCount: 3, adjusted: true, status: 'OK', request_id: 'r',
      results: [0, 1, 2].map((i) => ({ v: 100 + i, vw: 1.25, o: 1, c: 2, h: 3, l: 0.5, t: from + i * 86400000, n: 7 })),
    };
  }
  const bytes = encoders[coding](Buffer.from(JSON.stringify(body)));
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': header[coding] ?? coding, 'content-length': bytes.length });
  res.end(bytes);
}).listen(0, '127.0.0.1', function () { parentPort.postMessage(this.address().port); });
`;

let worker: Worker;
let baseUrl: string;

before(async () => {
  worker = new Worker(SERVER, { eval: true });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  baseUrl = `http://127.0.0.1:${port}`;
});
after(async () => {
  await worker.terminate();
});

const CODINGS = ['gzip', 'deflate', 'raw-deflate', 'br', 'gzip, br'];
const ONE_DAY = '/v2/aggs/ticker/AAPL/range/1/day/1704171600000/1704344400000';

describe('bodies sent with a content coding', () => {
  test('the async client: one page, pages followed and a full range equal the plain answers', async () => {
    const range = ['AAPL', '2024-01-02', '2024-01-04'] as const;
    const options = { timespan: 'day', info: false, warnings: false } as const;
    const answers = async (coding: string) => {
      const client = StocksClient('k', {
        useAsync: true,
        baseUrl,
        maxRetries: 0,
        headers: { 'x-coding': coding },
      });
      try {
        return {
          page: await client.getPageByUrl(ONE_DAY),
          pages: await client.getTradesV3('AAPL', { allPages: true }),
          bars: await client.getFullRangeAggregateBars(...range, options),
          columns: await client.getFullRangeAggregateBars(...range, { ...options, columnar: true }),
        };
      } finally {
        await client.close();
      }
    };
    const plain = await answers('identity');
    assert.equal((plain.pages as { results: unknown[] }).results.length, 2);
    assert.ok(plain.columns.length > 0);
    for (const coding of CODINGS) assert.deepEqual(await answers(coding), plain, coding);
  });

  test('the sync client decodes them the same way', async () => {
    const async = StocksClient('k', { useAsync: true, baseUrl, maxRetries: 0 });
    const plain = await async.getPageByUrl(`${ONE_DAY}?coding=identity`);
    await async.close();
    const sync = StocksClient('k', { baseUrl, maxRetries: 0 });
    try {
      for (const coding of CODINGS) {
        assert.deepEqual(sync.getPageByUrl(`${ONE_DAY}?coding=${encodeURIComponent(coding)}`), plain, coding);
      }
    } finally {
      sync.close();
    }
  });

  test('an unknown coding, or bytes not valid in theirs: a DecodeError naming the coding', async () => {
    const client = StocksClient('k', { useAsync: true, baseUrl, maxRetries: 0 });
    try {
      for (const [coding, named] of [
        ['zstd', /content-encoding zstd: unsupported content-encoding "zstd"/],
        ['bad-gzip', /content-encoding gzip: /],
      ] as const) {
        await assert.rejects(
          client.getPageByUrl(`${ONE_DAY}?coding=${coding}`),
          (e: unknown) => e instanceof DecodeError && isMdqError(e) && named.test(e.message),
          coding,
        );
      }
    } finally {
      await client.close();
    }
  });
});
