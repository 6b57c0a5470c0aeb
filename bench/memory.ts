/**
 * Benchmark 3: retained heap per call. Each alternative runs in its own child process started
 * with `--expose-gc` (only the client is measured; the server stays in this process). The heap is
 * measured after forced GCs before the calls, halfway and at the end. Both children run at once
 * (their speed is not what is measured here).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchPath, BenchServer } from './server.js';
import { fmt, printTable } from './stats.js';

export interface MemoryOptions {
  readonly calls: number;
  readonly path: BenchPath;
}

interface ChildReport {
  readonly name: string;
  readonly calls: number;
  readonly baseline: number;
  readonly half: number;
  readonly final: number;
  readonly elapsedMs: number;
}

function runChild(url: string, which: 'ours' | 'sdk', calls: number, stateful: boolean) {
  const script = fileURLToPath(new URL('./memory-child.ts', import.meta.url));
  return new Promise<ChildReport>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', script, url, which, String(calls), String(stateful)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      output += text;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = output.trim().split('\n').pop() ?? '';
      if (code !== 0) reject(new Error(`memory child ${which} exited with ${code}: ${output}`));
      else resolve(JSON.parse(line) as ChildReport);
    });
  });
}

const kib = (bytes: number) => `${fmt(bytes / 1024, 0)} KiB`;

/** Runs benchmark 3 and prints its table. */
export async function runMemory(
  server: BenchServer,
  options: MemoryOptions,
): Promise<ChildReport[]> {
  const url = server.url(options.path);
  const stateful = options.path === '/stateful';
  // The two children run at the same time: heap numbers do not depend on speed, wall time does.
  const reports = await Promise.all(
    (['ours', 'sdk'] as const).map((which) => runChild(url, which, options.calls, stateful)),
  );
  console.log(
    `\nMemory: ${options.calls.toLocaleString('en-US')} sequential calls on ${options.path}, heap after forced GC (child process, --expose-gc)`,
  );
  printTable(
    ['alternative', 'heap before', 'halfway', 'after', 'growth', 'bytes/call'],
    reports.map((report) => [
      report.name,
      kib(report.baseline),
      kib(report.half),
      kib(report.final),
      kib(report.final - report.baseline),
      fmt((report.final - report.baseline) / report.calls, 1),
    ]),
  );
  return reports;
}
