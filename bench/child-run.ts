/**
 * Runs a client child process (`node <flags> --import tsx bench/<script> …`) to completion and
 * returns the last line it printed on stdout. The child is killed if the runner is interrupted or
 * the child overruns its time limit, so no client process outlives the benchmark; the long-lived
 * client children of the per-call tables (`client-process.ts`) are tracked here too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { recordCommand } from './transcript.js';

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Kills every client child still running (used by the runner's signal handlers). */
export function killAllClients(): void {
  for (const child of live) child.kill('SIGKILL');
}

/** Counts `child` among the client children killed on exit, until it exits by itself. */
export function trackClientChild(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/** How to run one client child. */
export interface ClientChild {
  /** Node flags before `--import tsx`, e.g. `--expose-gc`. */
  readonly nodeFlags: readonly string[];
  /** The script, relative to `bench/`. */
  readonly script: string;
  readonly args: readonly string[];
  /** Killed (and the promise rejected) after this long. */
  readonly timeoutMs: number;
}

/** Runs `spec` and resolves with its last stdout line; rejects on a non-zero exit or timeout. */
export function runClientChild(spec: ClientChild): Promise<string> {
  const script = fileURLToPath(new URL(spec.script, import.meta.url));
  const args = [...spec.nodeFlags, '--import', 'tsx', script, ...spec.args];
  recordCommand(process.execPath, args);
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    trackClientChild(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), spec.timeoutMs);
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      output += text;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = output.trim().split('\n').pop() ?? '';
      if (code === 0) resolve(line);
      else reject(new Error(`${spec.script} ended with ${code ?? signal}: ${output.trim()}`));
    });
  });
}
