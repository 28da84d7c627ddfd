import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RecordingServer } from '../support/recording-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The built package, as a user installs it: `import` and `require` both load it, and the synchronous
 * client's worker starts from the built files. `npm test` builds first.
 */
describe('built package (dist)', () => {
  const server = new RecordingServer();
  before(async () => {
    await server.start();
    // Written as text: the nanosecond timestamp must reach the client exactly.
    await server.respond(
      '{"status":"OK","request_id":"r","results":{"T":"AAPL","p":189.5,"t":1704205800000000001}}',
    );
  });
  after(() => server.stop());

  const script = (kind: 'esm' | 'cjs') => {
    const load = kind === 'esm' ? "const mdq = await import('mdq');" : "const mdq = require('mdq');";
    const body = `
      ${load}
      const sync = mdq.StocksClient('k', { baseUrl: process.env.URL });
      const price = sync.getCurrentPrice('AAPL');
      sync.close();
      const a = mdq.StocksClient('k', { baseUrl: process.env.URL, useAsync: true });
      const last = await a.getLastTrade('AAPL');
      await a.close();
      const sym = mdq.buildOptionSymbol('AMD', '2022-01-21', 'call', 100);
      console.log(JSON.stringify({ price, t: String(last.results.t), sym, isError: typeof mdq.isNotFoundError }));
    `;
    return kind === 'esm'
      ? body
      : `(async () => { ${body} })().catch((e) => { console.error(e); process.exit(1); });`;
  };

  for (const kind of ['esm', 'cjs'] as const) {
    test(`${kind === 'esm' ? 'import()' : 'require()'} loads the build and the sync client works`, (t) => {
      if (!existsSync(`${root}dist/index.js`)) {
        if (process.env.CI === 'true') throw new Error('dist/ is missing: npm test builds it first');
        t.skip('dist/ is absent: run npm run build');
        return;
      }
      const args = kind === 'esm' ? ['--input-type=module', '-e', script(kind)] : ['-e', script(kind)];
      // Run from the package root so that 'mdq' resolves to this package through its exports map.
      const out = execFileSync(process.execPath, args, {
        cwd: root,
        env: { ...process.env, URL: server.url },
        encoding: 'utf8',
      });
      const result = JSON.parse(out.trim().split('\n').pop() as string);
      assert.deepEqual(result, {
        price: 189.5,
        t: '1704205800000000001',
        sym: 'AMD220121C00100000',
        isError: 'function',
      });
    });
  }
});

/**
 * The server on a thread from the build (what `mdq serve` runs): the thread finds the built server
 * module beside the code that starts it, in both module formats.
 */
describe('built package (dist): the server on a thread', () => {
  for (const kind of ['esm', 'cjs'] as const) {
    test(`${kind === 'esm' ? 'import()' : 'require()'} of mdq/server starts a server thread that answers`, (t) => {
      if (!existsSync(`${root}dist/server/index.js`)) {
        if (process.env.CI === 'true') throw new Error('dist/ is missing: npm test builds it first');
        t.skip('dist/ is absent: run npm run build');
        return;
      }
      const load =
        kind === 'esm' ? "const m = await import('mdq/server');" : "const m = require('mdq/server');";
      const body = `
        ${load}
        const { join } = await import('node:path');
        const { tmpdir } = await import('node:os');
        const { rmSync } = await import('node:fs');
        const path = join(tmpdir(), 'mdq-pkg-' + process.pid + '.duckdb');
        const store = await m.DuckDbStore.open(path);
        store.close();
        const server = await m.startServerThread({ db: path, port: 0, log: () => {} });
        const res = await fetch(server.url + '/v1/marketstatus/now', { headers: { authorization: 'Bearer k' } });
        await server.close();
        rmSync(path, { force: true });
        console.log(JSON.stringify({ status: res.status, young: server.youngGenerationMb }));
      `;
      const code =
        kind === 'esm'
          ? body
          : `(async () => { ${body} })().catch((e) => { console.error(e); process.exit(1); });`;
      const args = kind === 'esm' ? ['--input-type=module', '-e', code] : ['-e', code];
      const out = execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
      const result = JSON.parse(out.trim().split('\n').pop() as string);
      assert.deepEqual(result, { status: 200, young: 192 });
    });
  }
});
