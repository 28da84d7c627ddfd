/**
 * mdq installed into a project of one's own, as a user does it: the packed package installed from its
 * tarball into a fresh folder, where `npx mdq` runs and `import`/`require` load it. `npm test` builds
 * first. The install prefers npm's cache, so it needs no network once the dependencies were installed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
};
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

describe('installed into a fresh project', () => {
  // Outside the repository, so that 'mdq' can only resolve to the installed copy.
  const project = mkdtempSync(join(tmpdir(), 'mdq-install-'));
  const run = (cmd: string, args: readonly string[], input?: string) =>
    execFileSync(cmd, args, {
      cwd: project,
      encoding: 'utf8',
      ...(input !== undefined && { input }),
      env: {
        ...process.env,
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
      },
      timeout: 300_000,
    });
  let installed = false;

  before(() => {
    if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
      if (process.env.CI === 'true') throw new Error('dist/ is missing: npm test builds it first');
      return;
    }
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-app', private: true }));
    // The build is already there: packing need not run `prepare` (which would rebuild dist/ under the
    // other tests' feet).
    execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', project], {
      cwd: root,
      stdio: 'ignore',
    });
    const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote a tarball');
    run(npm, ['install', '--prefer-offline', '--no-save', `./${tarball}`]);
    installed = true;
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  test('npx mdq --version prints the version, and npx mdq runs a command', (t) => {
    if (!installed) return t.skip('dist/ is absent: run npm run build');
    assert.equal(run(npx, ['--no-install', 'mdq', '--version']), `${pkg.version}\n`);
    const built = run(npx, ['--no-install', 'mdq', 'symbols', 'build', 'AMD', '2022-01-21', 'call', '100']);
    assert.equal(built.trim(), '"AMD220121C00100000"');
  });

  test('import and require load the installed package and its entry points', (t) => {
    if (!installed) return t.skip('dist/ is absent: run npm run build');
    const probe = (mdq: string, server: string) =>
      `JSON.stringify([typeof ${mdq}.StocksClient, ${mdq}.VERSION, ${mdq}.buildOptionSymbol('AMD', '2022-01-21', 'call', 100), typeof ${server}.startServer])`;
    const esm = run(process.execPath, [
      '--input-type=module',
      '-e',
      `const mdq = await import('mdq'); const s = await import('mdq/server'); console.log(${probe('mdq', 's')});`,
    ]);
    const cjs = run(process.execPath, [
      '-e',
      `const mdq = require('mdq'); const s = require('mdq/server'); console.log(${probe('mdq', 's')});`,
    ]);
    const want = ['function', pkg.version, 'AMD220121C00100000', 'function'];
    assert.deepEqual(JSON.parse(esm), want);
    assert.deepEqual(JSON.parse(cjs), want);
  });

  test("the README's TypeScript examples compile in the project under every module resolution", (t) => {
    if (!installed) return t.skip('dist/ is absent: run npm run build');
    const examples = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => {
      // In a function, so that `await` compiles in a CommonJS project too.
      const lines = (m[1] as string).split('\n');
      const imports = lines.filter((line) => line.startsWith('import '));
      const body = lines.filter((line) => !line.startsWith('import '));
      const file = join(project, `example-${i + 1}.ts`);
      writeFileSync(
        file,
        `${imports.join('\n')}\nexport async function example() {\n${body.join('\n')}\n}\n`,
      );
      return file;
    });
    assert.ok(examples.length >= 3, 'the README has TypeScript examples');
    // Projects set up long ago still say `node` (node10), which knows no exports map: the subpaths
    // ('mdq/server') need their types found another way.
    const settings = [
      { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
      { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
      // As `tsc --init` wrote it: esModuleInterop, which the DuckDB driver's declarations need.
      {
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        esModuleInterop: true,
      },
    ];
    for (const setting of settings) {
      const program = ts.createProgram(examples, {
        ...setting,
        target: ts.ScriptTarget.ES2022,
        strict: true,
        noEmit: true,
        // The package's own declarations are checked too: a user's tsconfig rarely skips them.
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(root, 'node_modules', '@types')],
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => {
        const where = d.file ? `${d.file.fileName.slice(project.length + 1)} ` : '';
        return `${where}${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
      const name = ts.ModuleResolutionKind[setting.moduleResolution];
      assert.deepEqual(problems, [], `moduleResolution ${name}`);
    }
  });

  test('the installed server serves the web page from the package’s own files', (t) => {
    if (!installed) return t.skip('dist/ is absent: run npm run build');
    const db = join(project, 'empty.duckdb');
    const answer = run(process.execPath, [
      '--input-type=module',
      '-e',
      `const { startServer } = await import('mdq/server');
       const server = await startServer({ db: ${JSON.stringify(db)}, port: 0, log() {} });
       const res = await fetch(server.url + '/');
       const html = await res.text();
       await server.close();
       console.log(JSON.stringify([res.status, res.headers.get('content-type'), html.includes('<title>mdq'), html.length]));`,
    ]);
    const [status, type, titled, length] = JSON.parse(answer);
    assert.deepEqual([status, type, titled], [200, 'text/html; charset=UTF-8', true]);
    // The charting library is inside: the page is far larger than its own markup.
    assert.ok(length > 100_000, `${length} characters`);
  });
});

describe('package scripts', () => {
  test('installing from git or a folder builds dist/ (prepare), quietly', () => {
    // npm runs `prepare` after installing a git or folder dependency, and on `npm ci` in the repository
    // (so that `npx mdq` works there at once); the published files hold only dist/.
    assert.match(pkg.scripts.prepare ?? '', /^tsup --silent$/);
  });

  test('npm start does not print the build log', () => {
    const build = (pkg.scripts.start ?? '').split('&&')[0]?.trim() ?? '';
    assert.match(build, /^tsup --silent$/, `start builds with ${build}`);
  });
});
