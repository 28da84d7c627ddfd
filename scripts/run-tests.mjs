#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner (TypeScript through tsx).
// Usage: node scripts/run-tests.mjs [filter...]  — a filter keeps files whose path contains it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.ts')) files.push(relative(root, p));
  }
})(join(root, 'test'));
const selected = filters.length ? files.filter((f) => filters.some((x) => f.includes(x))) : files;
if (selected.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
// Route tests read a store built from ../shared/marketdata; build it first (a no-op when up to date).
if (existsSync(join(root, '..', 'shared', 'marketdata'))) {
  const prepared = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prepare-test-store.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (prepared.status !== 0) process.exit(prepared.status ?? 1);
} else if (process.env.CI === 'true') {
  console.error('../shared/marketdata is absent: CI needs it beside the repository');
  process.exit(1);
} else {
  console.log('# ../shared/marketdata is absent: not building the test store; tests that need it skip');
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...selected],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
