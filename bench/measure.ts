/** Timing, statistics and child-process helpers shared by the benchmarks. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** One timed run: wall time and this process's CPU time, in milliseconds. */
export interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** Runs `fn` once and measures it. */
export async function timed(fn: () => Promise<unknown>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
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
  { slices = 1 }: { slices?: number } = {},
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
        const sample = await timed(fn);
        const sum = round[name];
        round[name] = sum ? { wallMs: sum.wallMs + sample.wallMs, cpuMs: sum.cpuMs + sample.cpuMs } : sample;
      }
    }
    for (const [name, sample] of Object.entries(round)) samples[name]?.push(sample);
  }
  return samples;
}

/** Median wall and CPU time of samples. */
export function summarize(samples: readonly Sample[]): { wallMs: number; cpuMs: number } {
  return { wallMs: median(samples.map((s) => s.wallMs)), cpuMs: median(samples.map((s) => s.cpuMs)) };
}

/** A child process that printed a JSON line when ready. */
export interface Child<T> {
  readonly process: ChildProcess;
  readonly ready: T;
  /** Peak resident set size of the child so far, in MiB (Linux `VmHWM`). */
  peakRssMiB(): Promise<number | undefined>;
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
