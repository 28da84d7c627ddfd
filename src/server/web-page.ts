import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built web page: its HTML (style and script inlined) and the Content-Security-Policy that fits it. */
export interface WebPage {
  readonly html: string;
  readonly contentSecurityPolicy: string;
}

/**
 * The package's root: the nearest folder above this module whose package.json is mdq's (the
 * repository when run from source, `node_modules/mdq` when installed).
 */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if (JSON.parse(readFileSync(manifest, 'utf8')).name === 'mdq') return dir;
      } catch {
        // An unreadable manifest is not ours: keep looking above.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Where the build writes the page (`scripts/build-web-page.ts`), or undefined outside the package. */
export function webPagePath(): string | undefined {
  const root = packageRoot();
  return root === undefined ? undefined : join(root, 'dist', 'web', 'index.html');
}

/**
 * The policy the page runs under: its one inline script (by hash) and nothing from any other origin,
 * so the page can fetch and stream only from this server.
 */
function policyFor(html: string): string {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  return [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    // The charting library sizes its canvases through style attributes.
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

let loaded: { path: string; page: WebPage } | undefined;

/** Reads the built page once (it does not change while a server runs); undefined when it is not built. */
export function loadWebPage(path: string | undefined = webPagePath()): WebPage | undefined {
  if (path === undefined) return undefined;
  if (loaded?.path === path) return loaded.page;
  let html: string;
  try {
    html = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const page = { html, contentSecurityPolicy: policyFor(html) };
  loaded = { path, page };
  return page;
}
