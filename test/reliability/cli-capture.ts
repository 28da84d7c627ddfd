/** Runs the CLI in this process, with standard output and error captured. */
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/run.js';

/** Runs `mdq <argv>` in this process and returns its exit code and what it wrote. */
export async function runCliCaptured(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        into.push(chunk.toString());
        done();
      },
    });
  const code = await runCli(argv, { stdout: sink(out), stderr: sink(err), env });
  return { code, stdout: out.join(''), stderr: err.join('') };
}
