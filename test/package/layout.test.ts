/**
 * Dependencies point one way: the date helpers depend only on themselves and on leaf modules (modules
 * that import nothing); of the request core they use only the error classes, a leaf. Read from the
 * source files' import statements.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

/** The module specifiers a source file imports or re-exports, static or dynamic. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return found.map((m) => m[1] as string);
}

/** The source file a relative specifier names (`./x.js` → `x.ts`). */
function target(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.js$/, '.ts');
}

test('src/core/errors.ts is a leaf: it imports nothing', () => {
  assert.deepEqual(importsOf(join(src, 'core', 'errors.ts')), []);
});

/** The modules outside `src/dates` it may use: leaves shared by every layer. */
const SHARED_LEAVES = new Set(['core/errors.ts']);

test('src/dates depends only on itself, on Node built-ins and on shared leaf modules', () => {
  const dates = join(src, 'dates');
  const files = readdirSync(dates).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 5);
  const outside: string[] = [];
  for (const name of files) {
    const file = join(dates, name);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('node:')) continue;
      assert.ok(specifier.startsWith('.'), `${name} imports the package ${specifier}`);
      const path = target(file, specifier);
      if (dirname(path) === dates) continue;
      const leafImports = importsOf(path);
      if (!SHARED_LEAVES.has(relative(src, path))) outside.push(`${name} → ${relative(src, path)}`);
      else if (leafImports.length > 0) {
        outside.push(`${name} → ${relative(src, path)} (not a leaf: it imports ${leafImports.join(', ')})`);
      }
    }
  }
  assert.deepEqual(outside, [], 'dates/ reaches beyond itself and the shared leaves');
});
