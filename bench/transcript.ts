/**
 * What the run printed and which commands it started, kept so `--results` can write them to a
 * file exactly as they appeared on the terminal.
 */
import { relative } from 'node:path';

const lines: string[] = [];
const started: string[] = [];

/** Prints one line (or several) and keeps it for the results file. */
export function log(text = ''): void {
  console.log(text);
  lines.push(text);
}

/** Everything {@link log} printed so far, one string. */
export function transcript(): string {
  return lines.join('\n');
}

/**
 * Records a child process command line, with paths relative to the working directory, so the
 * results file can list the exact commands; identical lines are kept once.
 */
export function recordCommand(executable: string, args: readonly string[]): void {
  const shown = [executable === process.execPath ? 'node' : executable, ...args]
    .map((part) => (part.startsWith('/') ? relative(process.cwd(), part) || '.' : part))
    .join(' ');
  if (!started.includes(shown)) started.push(shown);
}

/** The child command lines recorded by {@link recordCommand}, in start order. */
export function recordedCommands(): readonly string[] {
  return started;
}
