/**
 * Helpers of the snapshot, reference and market-status route tests: servers over the prepared test store
 * at a fixed "now", raw Lean zip readers (expectations come from the files, not from the server) and
 * validators against the schemas of `openapi.json`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { unzipSync } from 'fflate';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { hasShared, leanDir, referenceDir } from '../../support/shared.js';
import { openTestStore } from '../../support/store.js';

/**
 * Starts a server over the prepared test store (everything in `../shared/marketdata`, opened read-only)
 * on a free loopback port with "now" fixed; `undefined` (test skipped) when the store was not built.
 */
export async function snapshotServer(
  t: TestContext,
  now: string | number,
): Promise<RunningServer | undefined> {
  if (!hasShared(t, leanDir)) return undefined;
  const store = await openTestStore(t);
  if (!store) return undefined;
  const server = await startServer({ store, port: 0, now, log: () => {} });
  t.after(async () => {
    await server.close();
    store.close();
  });
  return server;
}

/** GETs `path` (with an API key) and returns the status and the parsed body. */
export async function get(server: RunningServer, path: string): Promise<{ status: number; body: any }> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await fetch(`${server.url}${path}${sep}apiKey=test-key`);
  return { status: res.status, body: await res.json() };
}

/** GETs an absolute `next_url` as the official JS client does: the URL plus `&apiKey=`. */
export async function follow(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}&apiKey=test-key`);
  return { status: res.status, body: await res.json() };
}

/**
 * The CSV rows of the entries of a Lean zip (or of a plain CSV file), by entry name; with `only`, just
 * the entries it accepts are inflated (option zips hold thousands of contracts).
 */
export function leanEntries(relative: string, only?: (name: string) => boolean): Map<string, string[][]> {
  const bytes = readFileSync(join(leanDir, relative));
  const texts: [string, Uint8Array][] = relative.endsWith('.zip')
    ? Object.entries(unzipSync(bytes, only ? { filter: (f) => only(f.name) } : {}))
    : [[relative, bytes]];
  const out = new Map<string, string[][]>();
  for (const [name, data] of texts) {
    out.set(
      name,
      new TextDecoder()
        .decode(data)
        .split(/\r?\n/)
        .filter((l) => l.trim() !== '')
        .map((l) => l.split(',')),
    );
  }
  return out;
}

/** The entry names of a Lean zip, without inflating anything. */
export function leanEntryNames(relative: string): string[] {
  const names: string[] = [];
  unzipSync(readFileSync(join(leanDir, relative)), {
    filter: (f) => {
      names.push(f.name);
      return false;
    },
  });
  return names;
}

/** The rows of the single entry of a Lean zip. */
export function leanRows(relative: string): string[][] {
  const [rows] = leanEntries(relative).values();
  if (!rows) throw new Error(`${relative} is empty`);
  return rows;
}

let openapi: any;

/**
 * A validator of the 200 response body of `path` (the OpenAPI path template) against the schema of
 * `openapi.json`; it returns the errors, an empty list when the body conforms. `allOfPart` checks one
 * member of a top-level `allOf` only (for schemas whose other members are spec bugs).
 */
export function responseValidator(
  path: string,
  options: { allOfPart?: number } = {},
): (body: unknown) => string[] {
  openapi ??= JSON.parse(readFileSync(join(referenceDir, 'openapi.json'), 'utf8'));
  const whole = openapi.paths[path]?.get?.responses?.['200']?.content?.['application/json']?.schema;
  if (!whole) throw new Error(`openapi.json has no 200 JSON schema for ${path}`);
  const schema = options.allOfPart === undefined ? whole : whole.allOf[options.allOfPart];
  const ajv = new Ajv({ strict: false, allErrors: true });
  (formats as unknown as { default: (a: Ajv) => void }).default(ajv);
  // OpenAPI's numeric formats say nothing JSON Schema can check.
  for (const f of ['double', 'float', 'int32', 'int64']) ajv.addFormat(f, true);
  const validate = ajv.compile(schema);
  return (body) =>
    validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
