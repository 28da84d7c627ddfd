import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { RecordingServer } from './recording-server.js';
import { hasShared, recordedDir, referenceDir } from './shared.js';

/**
 * One operation of a client: the call, the exact request the real API expects for it, and the answer
 * the server plays back: a recorded real answer (under ../shared/reference/recorded) when one exists,
 * else the spec's documented example for the operation (../shared/reference/spec-examples/<OperationId>.json).
 */
export interface OperationCase {
  method: string;
  args: unknown[];
  path: string;
  query: [string, string][];
  /** File under `recorded/`. */
  recorded?: string;
  /** OperationId of a file under `spec-examples/`. */
  example?: string;
  /** Path of `openapi.json` whose documented 200 example is played back (`/futures/v1/aggs/{ticker}`). */
  openapi?: string;
}

/** Where the body a case plays back lives, if anywhere. */
export function answerFile(c: OperationCase): string | undefined {
  if (c.recorded) return `${recordedDir}${c.recorded}`;
  if (c.example) return `${referenceDir}spec-examples/${c.example}.json`;
  if (c.openapi) return `${referenceDir}openapi.json`;
  return undefined;
}

/** The body a case plays back: the file's text, or the example `openapi.json` documents for its path. */
function answerBody(c: OperationCase, file: string | undefined): string {
  if (!file) return '{"status":"OK","request_id":"x","results":[]}';
  const text = readFileSync(file, 'utf8');
  if (!c.openapi) return text;
  const spec = JSON.parse(text) as {
    paths: Record<
      string,
      { get: { responses: { 200: { content: { 'application/json': { example: unknown } } } } } }
    >;
  };
  const example = spec.paths[c.openapi]?.get.responses[200].content['application/json'].example;
  assert.ok(example, `openapi.json documents an example for ${c.openapi}`);
  // The example's own text keeps its big integers exactly as written; it must be that same example.
  const own = exampleText(text, c.openapi);
  return own !== undefined && JSON.stringify(JSON.parse(own)) === JSON.stringify(example)
    ? own
    : JSON.stringify(example);
}

/** The raw text of a path's 200 example inside openapi.json (JSON.parse would round its nanoseconds). */
function exampleText(spec: string, path: string): string | undefined {
  const at = spec.indexOf(`${JSON.stringify(path)}:`);
  const example = at < 0 ? -1 : spec.indexOf('"example":', spec.indexOf('"200"', at));
  if (example < 0) return undefined;
  let i = spec.indexOf('{', example);
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < spec.length; i++) {
    const ch = spec[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return spec.slice(start, i + 1);
  }
  return undefined;
}

/** Replaces every bigint by the number JSON.parse would have produced, to compare with a plain parse. */
export function asParsed(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(asParsed);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asParsed(v)]));
  }
  return value;
}

const show = (a: unknown) =>
  typeof a === 'bigint' ? `${a}n` : JSON.stringify(a, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));

/** A client factory as the package exports it (`OptionsClient` and the like). */
type Factory = (apiKey: string, options: { useAsync?: boolean; baseUrl: string }) => unknown;
type Client = Record<string, (...a: unknown[]) => unknown> & { close(): unknown };

/**
 * Runs every case through the asynchronous and the synchronous client over loopback HTTP: exactly one
 * GET with the expected path and query (in order), the key only in the Authorization header, and the
 * decoded result equal to the body served.
 */
export function describeOperations(title: string, factory: Factory, key: string, cases: OperationCase[]) {
  describe(title, () => {
    const server = new RecordingServer();
    // One client per variant for every case: the sync client's worker starts once.
    const clients: { async?: Client; sync?: Client } = {};
    before(async () => {
      await server.start();
      clients.async = factory(key, { useAsync: true, baseUrl: server.url }) as Client;
      clients.sync = factory(key, { baseUrl: server.url }) as Client;
    });
    after(async () => {
      await clients.async?.close();
      clients.sync?.close();
      await server.stop();
    });

    for (const variant of ['async', 'sync'] as const) {
      for (const c of cases) {
        test(`${variant} ${c.method}(${c.args.map(show).join(', ')})`, async (t) => {
          const file = answerFile(c);
          if (file && !hasShared(t, file)) return;
          const raw = answerBody(c, file);
          await server.respond(raw);
          const client = clients[variant]!;
          assert.equal(typeof client[c.method], 'function', `${c.method} exists`);
          const result = await client[c.method]?.(...c.args);
          const requests = await server.take();
          assert.equal(requests.length, 1);
          const seen = requests[0]!;
          assert.equal(seen.method, 'GET');
          assert.equal(seen.path, c.path);
          assert.deepEqual(seen.query, c.query);
          assert.equal(seen.headers.authorization, `Bearer ${key}`);
          assert.ok(!seen.query.some(([k]) => k === 'apiKey'), 'the key is never in the query string');
          assert.deepEqual(asParsed(result), JSON.parse(raw), 'decoded body equals the body served');
        });
      }
    }
  });
}
