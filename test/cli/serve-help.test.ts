/** The help of `mdq` and `mdq serve` names both stores `serve` runs on, as `--store` takes them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runBin } from './support.js';

test('mdq --help and mdq serve --help say the server runs over DuckDB or ClickHouse', async () => {
  const top = await runBin(['--help']);
  assert.equal(top.code, 0, top.stderr);
  assert.match(top.stdout, /serve\s+Run the local server over a DuckDB or ClickHouse store/);
  const serve = await runBin(['serve', '--help']);
  assert.equal(serve.code, 0, serve.stderr);
  assert.match(serve.stdout.split('\n')[2] ?? '', /from a DuckDB or ClickHouse store/);
});
