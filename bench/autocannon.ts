/** Runs autocannon in its own process against a loopback URL and returns its summary. */
import { fileURLToPath } from 'node:url';
import { runJson } from './measure.js';

const CLI = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));

/** What the load run reports (a subset of autocannon's JSON result). */
export interface LoadResult {
  /** Requests completed. */
  requests: number;
  /** Mean requests per second. */
  rps: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  max: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  /** Responses with a status other than 2xx. */
  non2xx: number;
  /** Mean response throughput, bytes per second. */
  bytesPerSecond: number;
}

/** Load options; defaults are the benchmark's 100 connections for 30 s. */
export interface LoadOptions {
  /** @default 100 */
  connections?: number;
  /** Seconds. @default 30 */
  duration?: number;
  /** A fixed number of requests to complete instead of a duration (however long they take). */
  amount?: number;
  /** Seconds a request may take before it counts as a timeout. @default 10 (autocannon's) */
  timeout?: number;
  /** Request headers. @default {} */
  headers?: Record<string, string>;
}

/**
 * Loads `url` (which must be on 127.0.0.1) from a second process.
 * @throws Error for a URL that is not loopback.
 */
export async function loadTest(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`load tests run on 127.0.0.1 only, not ${url}`);
  const args = [
    CLI,
    '-j',
    '-c',
    String(options.connections ?? 100),
    ...(options.amount === undefined
      ? ['-d', String(options.duration ?? 30)]
      : ['-a', String(options.amount)]),
    ...(options.timeout === undefined ? [] : ['-t', String(options.timeout)]),
    ...Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
    url,
  ];
  const r = await runJson<{
    requests: { total: number; average: number };
    latency: { p50: number; p99: number; max: number };
    throughput: { average: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }>(args);
  return {
    requests: r.requests.total,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    bytesPerSecond: r.throughput.average,
  };
}
