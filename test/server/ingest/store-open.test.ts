import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { defaultDbPath } from '../../../src/server/store/default-db-path.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { withStoreFile } from '../../support/store.js';

describe('Store.open and defaultDbPath', () => {
  it('opens read-only after a writer closed, and refuses writes', async () => {
    await withStoreFile(async (path) => {
      const writer = await DuckDbStore.open(path);
      await writer.run("INSERT INTO tickers (ticker, market, locale) VALUES ('SPY', 'stocks', 'us')");
      writer.close();
      const reader = await DuckDbStore.open(path, { readOnly: true });
      try {
        assert.deepEqual(await reader.all('SELECT ticker FROM tickers'), [{ ticker: 'SPY' }]);
        await assert.rejects(
          reader.run("INSERT INTO tickers (ticker, market, locale) VALUES ('QQQ', 'stocks', 'us')"),
          /read-only/i,
        );
      } finally {
        reader.close();
      }
      await assert.rejects(DuckDbStore.open(join(dirname(path), 'missing.duckdb'), { readOnly: true }));
    });
  });

  it('defaultDbPath: MDQ_DB, then XDG_DATA_HOME, then ~/.local/share', () => {
    assert.equal(defaultDbPath({ MDQ_DB: '/x/y.duckdb', XDG_DATA_HOME: '/data' }), '/x/y.duckdb');
    assert.equal(defaultDbPath({ XDG_DATA_HOME: '/data' }), '/data/mdq/mdq.duckdb');
    assert.equal(defaultDbPath({}), join(homedir(), '.local', 'share', 'mdq', 'mdq.duckdb'));
  });
});
