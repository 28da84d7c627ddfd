import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { buildWebPage } from './scripts/build-web-page.js';

// Public entry points plus the sync client's worker, which runs in its own thread.
// The worker is emitted as dist/sync-worker.{js,cjs}, beside the shared chunks that load it.
const entries = Object.fromEntries(
  Object.entries({
    index: 'src/index.ts',
    'server/index': 'src/server/index.ts',
    legacy: 'src/legacy.ts',
    'cli/main': 'src/cli/main.ts',
    'sync-worker': 'src/core/sync/worker.ts',
  }).filter(([, file]) => existsSync(file)),
);

export default defineConfig({
  entry: entries,
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  shims: true,
  splitting: true,
  target: 'node20',
  outDir: 'dist',
  // The local server's web page (dist/web/index.html), a browser bundle apart from the Node entries.
  onSuccess: () => buildWebPage(),
});
