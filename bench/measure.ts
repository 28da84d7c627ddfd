/** Timing, statistics and child-process helpers shared by the benchmarks. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * One timed run, in milliseconds: wall time, this process's CPU time and, when measured, the CPU time
 * of the server process it talked to (every thread of it).
 */
export interface Sample {
  wallMs: number;
  cpuMs: number;
  serverCpuMs?: number;
}

/** Runs `fn` once and measures it; `serverCpu` reads the server's CPU time so far (ms). */
export async function timed(
  fn: () => Promise<unknown>,
  serverCpu?: () => number | undefined,
): Promise<Sample> {
  const server = serverCpu?.();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const serverAfter = server === undefined ? undefined : serverCpu?.();
  const sample: Sample = { wallMs, cpuMs: (used.user + used.system) / 1000 };
  if (server !== undefined && serverAfter !== undefined) sample.serverCpuMs = serverAfter - server;
  return sample;
}

let ticksPerSecond: number | undefined;

/**
 * CPU time (user and system, every thread) a process has used so far, in ms, from Linux's
 * `/proc/<pid>/stat` (counted in clock ticks, 10 ms on most systems); undefined where that is not
 * available.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses): state is the 3rd
    // field, utime the 14th and stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Runs every contender once per round, in turn (baseline, mdq, baseline, mdq, …), after one untimed
 * warm-up round, and returns each contender's samples. With `slices`, a round runs each contender that
 * many times, in turn, and its sample is their sum: contenders that are each a slice of a long run then
 * take turns every slice, so a change in the machine's load falls on all of them alike.
 */
export async function interleave(
  rounds: number,
  contenders: Record<string, () => Promise<unknown>>,
  { slices = 1, serverCpu }: { slices?: number; serverCpu?: (() => number | undefined) | undefined } = {},
): Promise<Record<string, Sample[]>> {
  const samples: Record<string, Sample[]> = {};
  for (const [name, fn] of Object.entries(contenders)) {
    await fn();
    samples[name] = [];
  }
  for (let r = 0; r < rounds; r++) {
    const round: Record<string, Sample> = {};
    for (let s = 0; s < slices; s++) {
      for (const [name, fn] of Object.entries(contenders)) {
        const sample = await timed(fn, serverCpu);
        const sum = round[name];
        round[name] = sum ? addSamples(sum, sample) : sample;
      }
    }
    for (const [name, sample] of Object.entries(round)) samples[name]?.push(sample);
  }
  return samples;
}

function addSamples(a: Sample, b: Sample): Sample {
  const sum: Sample = { wallMs: a.wallMs + b.wallMs, cpuMs: a.cpuMs + b.cpuMs };
  if (a.serverCpuMs !== undefined && b.serverCpuMs !== undefined)
    sum.serverCpuMs = a.serverCpuMs + b.serverCpuMs;
  return sum;
}

/** Median wall and CPU times of samples (the server's where every sample has it). */
export function summarize(samples: readonly Sample[]): Sample {
  const summary: Sample = {
    wallMs: median(samples.map((s) => s.wallMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
  };
  const server = samples.map((s) => s.serverCpuMs);
  if (server.length > 0 && server.every((ms) => ms !== undefined)) summary.serverCpuMs = median(server);
  return summary;
}

/** A child process that printed a JSON line when ready. */
export interface Child<T> {
  readonly process: ChildProcess;
  readonly ready: T;
  /** Peak resident set size of the child so far, in MiB (Linux `VmHWM`). */
  peakRssMiB(): Promise<number | undefined>;
  /** CPU time the child has used so far, in ms (see {@link processCpuMs}). */
  cpuMs(): number | undefined;
  stop(): Promise<void>;
}

/** Spawns `node --import tsx <script> ...args` and waits for its first stdout line (JSON). */
export async function spawnReady<T>(script: string, args: readonly string[]): Promise<Child<T>> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> });
  const ready = await new Promise<T>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as T));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  return {
    process: child,
    ready,
    peakRssMiB: () => peakRss(child.pid),
    cpuMs: () => processCpuMs(child.pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** `VmHWM` of a process in MiB, read from `/proc`; undefined where that is not available. */
export async function peakRss(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const { readFile } = await import('node:fs/promises');
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** `VmRSS` (the resident set size now) of a process in MiB, read from `/proc`; undefined elsewhere. */
export async function currentRss(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const { readFile } = await import('node:fs/promises');
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** Runs a script to completion and returns its last stdout line, parsed as JSON. */
export function runJson<T>(args: readonly string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      try {
        if (code !== 0) throw new Error(`exit code ${code}`);
        resolve(JSON.parse(last) as T);
      } catch (e) {
        reject(new Error(`${args.join(' ')} failed (${(e as Error).message}): ${out.slice(-500)}`));
      }
    });
  });
}
