/**
 * Every environment variable of mdq's own that the code reads (`MDQ_*`, the API key's) is documented in
 * the README, so a user can find what changes mdq's behaviour without reading its sources.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

test('the README names every MDQ_* and API-key variable the code reads', () => {
  const read = new Set<string>();
  for (const file of sources(join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(
      /\benv(?:\.|\[['"])((?:MDQ|MASSIVE|POLYGON)_[A-Z_]+)/g,
    ))
      read.add(m[1] as string);
  }
  assert.ok(read.has('MDQ_BASE_URL'), 'the scan finds what the clients read');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const missing = [...read].filter((name) => !readme.includes(name)).sort();
  assert.deepEqual(missing, [], `read by mdq, absent from the README: ${missing.join(', ')}`);
});
