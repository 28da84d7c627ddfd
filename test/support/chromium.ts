import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { TestContext } from 'node:test';
import { type Browser, chromium } from 'playwright-core';

/** Names Debian and other systems give the Chromium executable, tried in order on the PATH. */
const NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

/** The Chromium to drive: `$MDQ_CHROMIUM`, else the first of {@link NAMES} on the PATH. */
export function findChromium(): string | undefined {
  const given = process.env.MDQ_CHROMIUM;
  if (given) return given;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of NAMES) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // Not here: the next directory.
      }
    }
  }
  return undefined;
}

/**
 * Starts headless Chromium, closed after the test; `undefined` (the test skipped, with the reason
 * printed) when none is installed, except in CI (`CI=true`), where that fails the test (`.ci/run`
 * installs Debian's `chromium` package).
 */
export async function launchChromium(t: TestContext): Promise<Browser | undefined> {
  const executablePath = findChromium();
  if (!executablePath) {
    const reason = `no Chromium on the PATH (install Debian's chromium package: apt-get install chromium, or set MDQ_CHROMIUM)`;
    if (process.env.CI === 'true') throw new Error(`${reason}: CI needs it`);
    console.log(`# skipped: ${reason}`);
    t.skip(reason);
    return undefined;
  }
  // Chromium refuses its sandbox to root (CI containers); elsewhere it keeps it.
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const browser = await chromium.launch({ executablePath, args, headless: true });
  t.after(() => browser.close());
  return browser;
}
