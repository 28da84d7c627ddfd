import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The URL of tsx's ESM API (`register()`), resolved from the module at `from`. Worker threads do not
 * inherit tsx's loader, so code run from the TypeScript sources (tests, the bench) registers it in each
 * worker first; it is located here because eval'd worker code resolves packages from the working
 * directory.
 */
export function tsxEsmApi(from: string): string {
  const require = createRequire(from);
  const manifestPath = require.resolve('tsx/package.json');
  const manifest = require(manifestPath) as { exports: Record<string, { import: { default: string } }> };
  const api = manifest.exports['./esm/api']?.import.default;
  if (api === undefined) throw new Error(`tsx at ${manifestPath} exports no ./esm/api`);
  return pathToFileURL(join(dirname(manifestPath), api)).href;
}
