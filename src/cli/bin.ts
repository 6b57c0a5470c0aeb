#!/usr/bin/env node
/** The `stitchkit-transport` executable (the package's `bin`): runs {@link main}, sets the exit code. */
import { main } from './main.js';
import { EXIT } from './probe-report.js';

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env })
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    process.stderr.write(
      `stitchkit-transport: ${error instanceof Error ? error.message : error}\n`,
    );
    process.exitCode = EXIT.other;
  });
