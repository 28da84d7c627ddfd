/**
 * The built package streams in both module formats: `mdq/server`'s server thread (what `mdq serve`
 * runs), given a replay start and speed, answers `StocksStream` of `mdq`, loaded by `import()` and by
 * `require()`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testStorePath } from '../support/store.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

for (const kind of ['esm', 'cjs'] as const) {
  test(`${kind === 'esm' ? 'import()' : 'require()'}: a server thread replays to StocksStream`, (t) => {
    for (const needed of [`${root}dist/index.js`, testStorePath]) {
      if (!existsSync(needed)) {
        if (process.env.CI === 'true') throw new Error(`${needed} is missing`);
        t.skip(`${needed} is absent`);
        return;
      }
    }
    const load =
      kind === 'esm'
        ? "const mdq = await import('mdq'); const srv = await import('mdq/server');"
        : "const mdq = require('mdq'); const srv = require('mdq/server');";
    const body = `
      ${load}
      const server = await srv.startServerThread({ db: process.env.DB, port: 0, apiKeys: ['k'],
        replayFrom: '2013-10-07', replaySpeed: 'max', log: () => {} });
      const stream = mdq.StocksStream('k', { baseUrl: server.url.replace('http', 'ws') });
      stream.subscribe('T.SPY');
      const got = [];
      for await (const ev of stream) { got.push([ev.ev, ev.sym, ev.q]); if (got.length === 3) break; }
      await server.close();
      console.log(JSON.stringify(got));`;
    const script =
      kind === 'esm'
        ? body
        : `(async () => { ${body} })().catch((e) => { console.error(e); process.exit(1); });`;
    const args = kind === 'esm' ? ['--input-type=module', '-e', script] : ['-e', script];
    const out = execFileSync(process.execPath, args, {
      cwd: root,
      env: { ...process.env, DB: testStorePath },
      encoding: 'utf8',
    });
    assert.deepEqual(JSON.parse(out.trim().split('\n').pop() as string), [
      ['T', 'SPY', 1],
      ['T', 'SPY', 2],
      ['T', 'SPY', 3],
    ]);
  });
}
