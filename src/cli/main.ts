#!/usr/bin/env node
/**
 * The `mdq` command line: `mdq <client> <operation> [args] [--options]`, the option-symbol and date
 * helpers, charts, the local server, ingest and the demo. See `mdq --help`.
 */
import { exitOnClosedOutput } from './closed-output.js';
import { runCli } from './run.js';

exitOnClosedOutput(process.stdout);

// No top-level await: the same entry is also built as CommonJS.
void runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
);
