import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

// Public entry points plus the sync client's worker, which runs in its own thread.
const entries = [
  'src/index.ts',
  'src/server/index.ts',
  'src/legacy.ts',
  'src/cli/main.ts',
  'src/core/sync/worker.ts',
].filter((f) => existsSync(f));

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
});
