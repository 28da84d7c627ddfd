/**
 * The benchmarks' CPU accounting (bench/measure.ts): the CPU time of another process, read from
 * Linux's /proc, attributed to the run it was spent on, and summarised with the run's own times.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { processCpuMs, summarize, timed } from '../../bench/measure.js';

const PROC = existsSync('/proc/self/stat');
const skip = PROC ? false : 'no /proc on this system: processCpuMs reads Linux /proc/<pid>/stat';

/**
 * A child that, on each line read from stdin, spins until it has used the given number of ms of its own
 * CPU time (not of wall time: on a loaded machine a wall-time spin gets only a share of a core), and says
 * "done".
 */
let spinner: ChildProcess;

function spin(ms: number): Promise<void> {
  return new Promise((resolve) => {
    spinner.stdout?.once('data', () => resolve());
    spinner.stdin?.write(`${ms}\n`);
  });
}

before(() => {
  spinner = spawn(
    process.execPath,
    [
      '-e',
      `require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {
         const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
         const end = cpu() + Number(l);
         while (cpu() < end);
         process.stdout.write('done\\n');
       });`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
});

after(() => {
  spinner.kill();
});

test('processCpuMs counts the CPU time a process spins, and not the time it waits', { skip }, async () => {
  await spin(1); // started and listening
  const start = processCpuMs(spinner.pid) as number;
  assert.equal(typeof start, 'number');
  await spin(400);
  const busy = (processCpuMs(spinner.pid) as number) - start;
  // /proc counts in clock ticks (10 ms): the count is the spun CPU time within a tick or two.
  assert.ok(busy >= 370 && busy < 2000, `spun 400 ms of CPU, counted ${busy} ms`);
  const before = processCpuMs(spinner.pid) as number;
  await new Promise((resolve) => setTimeout(resolve, 400));
  const idle = (processCpuMs(spinner.pid) as number) - before;
  assert.ok(idle < 100, `waited 400 ms, counted ${idle} ms`);
});

test('processCpuMs is undefined for a process that does not exist, or no process', () => {
  assert.equal(processCpuMs(undefined), undefined);
  assert.equal(processCpuMs(2 ** 30), undefined);
});

test('timed attributes the server CPU spent during the run to its sample', { skip }, async () => {
  await spin(1);
  const sample = await timed(
    () => spin(300),
    () => processCpuMs(spinner.pid),
  );
  assert.ok(sample.wallMs >= 300, `wall ${sample.wallMs} ms`);
  assert.ok((sample.serverCpuMs as number) >= 200, `server CPU ${sample.serverCpuMs} ms`);
  // The spinning is the other process's: this one mostly waited.
  assert.ok(sample.cpuMs < (sample.serverCpuMs as number), `own CPU ${sample.cpuMs} ms`);
  const plain = await timed(() => spin(1));
  assert.equal(plain.serverCpuMs, undefined);
});

test('summarize takes medians, and the server CPU only where every sample has it', () => {
  const samples = [
    { wallMs: 10, cpuMs: 1, serverCpuMs: 100 },
    { wallMs: 30, cpuMs: 3, serverCpuMs: 300 },
    { wallMs: 20, cpuMs: 2, serverCpuMs: 200 },
  ];
  assert.deepEqual(summarize(samples), { wallMs: 20, cpuMs: 2, serverCpuMs: 200 });
  assert.deepEqual(summarize([...samples, { wallMs: 40, cpuMs: 4 }]), { wallMs: 25, cpuMs: 2.5 });
});
