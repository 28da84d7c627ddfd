/**
 * The README's examples, as a user copies them: every TypeScript example compiles against the built
 * package's types, the results its comments state are what the built package returns, and its
 * command-line examples that need no server run. `npm test` builds first.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The fenced code blocks of the README in the given language, in order. */
function blocks(lang: string): string[] {
  return [...readme.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (m) => m[1] as string,
  );
}

/** Whether the build is there; in CI its absence fails the test. */
function built(t: TestContext): boolean {
  if (existsSync(join(root, 'dist', 'index.d.ts'))) return true;
  if (process.env.CI === 'true') throw new Error('dist/ is missing: npm test builds it first');
  t.skip('dist/ is absent: run npm run build');
  return false;
}

test('the README has TypeScript and shell examples', () => {
  assert.ok(blocks('ts').length >= 3);
  assert.ok(blocks('sh').length >= 3);
});

test('every TypeScript example of the README compiles against the built package', (t) => {
  if (!built(t)) return;
  // Inside the package, so that 'mdq' and 'mdq/server' resolve to it through its exports map.
  const dir = join(root, '.tmp', 'readme-examples');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = blocks('ts').map((code, i) => {
    const file = join(dir, `example-${i + 1}.ts`);
    writeFileSync(file, code);
    return file;
  });
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    types: ['node'],
    noEmit: true,
    skipLibCheck: true,
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  assert.deepEqual(problems, []);
});

test("the results the README's comments state are what the built package returns", (t) => {
  if (!built(t)) return;
  // Lines of the form `expression; // 'result'`, run as written after their block's imports.
  const checks: { block: string; expressions: string[]; expected: string[] }[] = [];
  for (const code of blocks('ts')) {
    const lines = code.split('\n');
    const stated = lines
      .map((line) => /^(?<expr>[^/].*?);\s*\/\/\s*(?<result>'[^']*'|-?\d+(?:\.\d+)?)\s*$/.exec(line)?.groups)
      .filter((g) => g !== undefined);
    if (stated.length === 0) continue;
    checks.push({
      block: lines.filter((line) => line.startsWith('import ')).join('\n'),
      expressions: stated.map((g) => g.expr as string),
      expected: stated.map((g) => g.result as string),
    });
  }
  assert.ok(checks.length > 0, 'the README states results in comments');
  for (const { block, expressions, expected } of checks) {
    const script = `${block}\nconsole.log(JSON.stringify([${expressions.join(', ')}]));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    const actual = JSON.parse(out) as unknown[];
    expected.forEach((result, i) => {
      const value = result.startsWith("'") ? result.slice(1, -1) : Number(result);
      assert.deepEqual(actual[i], value, `${expressions[i]} should give ${result}`);
    });
  }
});

test('the command-line examples that need no server run', (t) => {
  if (!built(t)) return;
  const commands = blocks('sh')
    .flatMap((code) => code.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => /^mdq (symbols|dates|--help)\b/.test(line));
  assert.ok(commands.length >= 3, `found ${commands.join('; ')}`);
  for (const command of commands) {
    const args = command.split(/\s+/).slice(1);
    const out = execFileSync(process.execPath, [join(root, 'dist', 'cli', 'main.js'), ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    });
    assert.ok(out.trim().length > 0, `${command} printed nothing`);
    // Piped, the CLI prints JSON.
    if (command.startsWith('mdq symbols convert AMD220121C00100000'))
      assert.equal(JSON.parse(out), 'AMD_012122C100');
  }
});
