import { existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

/** `../shared` beside the repository: recorded responses and real market data, read at run time. */
export const sharedDir = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const referenceDir = `${sharedDir}reference/`;
export const recordedDir = `${sharedDir}reference/recorded/`;
export const marketDataDir = `${sharedDir}marketdata/`;
export const leanDir = `${sharedDir}marketdata/lean/`;

/**
 * True when `../shared` (or the given file under it) is present. When absent, the test is skipped with a
 * printed reason, except in CI (`CI=true`), where its absence fails the test.
 */
export function hasShared(t: TestContext, path: string = sharedDir): boolean {
  if (existsSync(path)) return true;
  const reason = `${path} is absent`;
  if (process.env.CI === 'true') throw new Error(`${reason}: CI needs ../shared beside the repository`);
  console.log(`# skipped: ${reason}`);
  t.skip(reason);
  return false;
}
