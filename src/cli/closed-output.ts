/**
 * Ends the process quietly, exit 0, once the reader of `output` has gone (`mdq … | head -1`): the rest
 * of the output is not wanted, which is no failure, and Node would otherwise crash on the write with an
 * EPIPE stack trace. Any other error of the stream is thrown as before.
 *
 * @param exit - ends the process; the default is `process.exit`.
 */
export function exitOnClosedOutput(
  output: NodeJS.WritableStream,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  output.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    exit(0);
  });
}
