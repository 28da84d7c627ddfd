#!/usr/bin/env node
/**
 * The `mdq` command line: `mdq <client> <operation> [args] [--options]`, the option-symbol and date
 * helpers, charts, the local server, ingest and the demo. See `mdq --help`.
 */
import { runCli } from './run.js';

// No top-level await: the same entry is also built as CommonJS.
void runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
);
