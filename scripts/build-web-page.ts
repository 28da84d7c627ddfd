/**
 * Builds the local server's web page into one HTML file: the page's TypeScript (with the library's
 * operation declarations and request builder it imports from `src/`) and the charting library bundled
 * and minified by esbuild, and the style sheet, inlined into `src/web/index.html`.
 * One file means one request, answered under the same key check as the API, and nothing to fetch
 * from anywhere else. Run by the build (tsup's onSuccess) and by the browser test when the built page
 * is older than its sources.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const src = join(root, 'src');
const sources = join(src, 'web');

/** Where the build writes the page; the server reads it from there (see `src/server/web-page.ts`). */
export const builtPagePath = join(root, 'dist', 'web', 'index.html');

/** Bundles the page and writes `out` (default {@link builtPagePath}). */
export async function buildWebPage(out: string = builtPagePath): Promise<void> {
  const bundle = await build({
    entryPoints: [join(sources, 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'chrome110',
    write: false,
    legalComments: 'eof',
    logLevel: 'warning',
  });
  const js = bundle.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script');
  const css = readFileSync(join(sources, 'page.css'), 'utf8');
  const html = readFileSync(join(sources, 'index.html'), 'utf8')
    .replace('<!-- style -->', () => `<style>\n${css}</style>`)
    .replace('<!-- script -->', () => `<script>${js}</script>`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, html);
}

/**
 * True when the built page is missing or older than a file of `src/`: the page imports the library's
 * operation declarations, so a change there counts too (a needless rebuild costs a fraction of a second).
 */
export function webPageIsStale(out: string = builtPagePath): boolean {
  let built: number;
  try {
    built = statSync(out).mtimeMs;
  } catch {
    return true;
  }
  return readdirSync(src, { recursive: true, encoding: 'utf8' }).some(
    (f) => statSync(join(src, f)).mtimeMs > built,
  );
}
