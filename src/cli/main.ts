/**
 * The `stitchkit-transport` command line: `stitchkit-transport probe …` points the package at a
 * server of one's own (see `PROBE_USAGE`); the exit code is the failure class's (`EXIT`). The
 * `bin` entry (`bin.ts`) runs it; the tests call it with their own streams.
 */
import { PROBE_USAGE, ProbeUsageError, parseProbeArgs } from './probe-args.js';
import { EXIT, exitCodeOf } from './probe-report.js';
import { runProbe } from './probe-run.js';
import { probeText, wantsColor } from './probe-text.js';
import { watchProbe } from './probe-watch.js';

/** Runs the command line `argv` (without `node` and the script); resolves with the exit code. */
export async function main(
  argv: readonly string[],
  io: {
    readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
    readonly stderr: NodeJS.WritableStream;
    readonly env: NodeJS.ProcessEnv;
  },
): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    io.stdout.write(`${PROBE_USAGE}\n`);
    return command === undefined ? EXIT.other : EXIT.ok;
  }
  if (command !== 'probe') {
    io.stderr.write(`stitchkit-transport: unknown command "${command}"\n\n${PROBE_USAGE}\n`);
    return EXIT.other;
  }
  try {
    const args = parseProbeArgs(rest);
    if (args === 'help') {
      io.stdout.write(`${PROBE_USAGE}\n`);
      return EXIT.ok;
    }
    if (args.watch !== undefined) return await watchProbe(args, io);
    const report = await runProbe(args, io.env);
    if (args.json) {
      io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      const color = wantsColor(io.stdout, io.env);
      io.stdout.write(probeText(report, { color, verbose: args.verbose }));
    }
    return exitCodeOf(report);
  } catch (error) {
    if (!(error instanceof ProbeUsageError)) throw error;
    io.stderr.write(`stitchkit-transport probe: ${error.message}\n`);
    return EXIT.other;
  }
}
