/**
 * Small statistics and table helpers shared by the benchmarks. Nothing here is timed itself.
 */
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { log } from './transcript.js';

/** The value at quantile `q` (0..1) of `samples`, nearest-rank on a sorted copy. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);
export const p95 = (samples: readonly number[]): number => quantile(samples, 0.95);

/** Formats a number with a fixed count of decimals and thousands separators. */
export function fmt(value: number, decimals = 2): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

/** A process's CPU time in µs: user + system, as `process.cpuUsage()` reports them. */
export const cpuMicros = (usage: NodeJS.CpuUsage): number => usage.user + usage.system;

const MAIN_THREAD_SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/**
 * The CPU time the main thread has run, in µs, from Linux's `schedstat` (nanoseconds on the CPU);
 * `NaN` where there is none. `process.cpuUsage()` also counts V8's and libuv's helper threads
 * (concurrent GC and compilation), which this leaves out.
 */
export function mainThreadCpuMicros(): number {
  try {
    return Number(readFileSync(MAIN_THREAD_SCHEDSTAT, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return Number.NaN;
  }
}

/** `ours / other` as `1.23x`. */
export function ratio(ours: number, other: number): string {
  if (!Number.isFinite(ours) || !Number.isFinite(other) || other === 0) return 'n/a';
  return `${(ours / other).toFixed(2)}x`;
}

/**
 * Prints a plain-text table: the first `leftColumns` columns left-aligned (text), the others
 * right-aligned (numbers).
 */
export function printTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  leftColumns = 1,
): void {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column < leftColumns
          ? cell.padEnd(widths[column] ?? 0)
          : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  log(line(header));
  log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) log(line(row));
}

/** The machine in one line: CPU model, core count, total memory, OS release. */
export function osDescription(): string {
  const list = cpus();
  const model = list[0]?.model.trim() ?? 'unknown CPU';
  const memory = (totalmem() / 1024 ** 3).toFixed(1);
  return `${model}, ${list.length} cores, ${memory} GiB memory, ${process.platform} ${release()}`;
}

/** Node version, the machine and the date: printed at the top of every run. */
export function machineInfo(): string {
  return [
    `node ${process.version} (${process.platform} ${process.arch}, V8 ${process.versions.v8})`,
    `machine: ${osDescription()}`,
    `date: ${new Date().toISOString()}`,
  ].join('\n');
}

/** Runs `task` `count` times, at most `concurrency` at once; resolves when all are done. */
export async function runConcurrently(
  count: number,
  concurrency: number,
  task: () => Promise<unknown>,
): Promise<void> {
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started += 1;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Warm-up calls in flight at once: V8 tiers code up by how often it runs, not by how fast. */
export const WARMUP_IN_FLIGHT = 8;

/**
 * Runs `count` warm-up calls, {@link WARMUP_IN_FLIGHT} at a time: about a third faster than one
 * by one on this 2-core VM, for the same compile work.
 */
export function warmUp(count: number, call: () => Promise<unknown>): Promise<void> {
  return runConcurrently(count, WARMUP_IN_FLIGHT, call);
}

/** Awaits a macrotask boundary so pending I/O callbacks run before the next measurement. */
export const settle = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The heap in use after full collections (`gc` needs `--expose-gc`): several passes with a
 * macrotask between them, so closed sockets and timers are collectable.
 */
export async function heapAfterGc(): Promise<number> {
  for (let pass = 0; pass < 4; pass++) {
    await settle(20);
    gc?.();
  }
  return process.memoryUsage().heapUsed;
}
