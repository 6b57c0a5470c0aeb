/**
 * Memory: bytes allocated per call, retained heap per call and resources left behind. Each
 * alternative runs in its own child process started with `--expose-gc`, against a server child,
 * so only the client's heap is measured. Every child first samples what one sequential call
 * allocates. The heap is then measured after forced GCs before the calls, halfway and at the
 * end; after closing, the child lists the active resources (`process.getActiveResourcesInfo()`)
 * beyond those it had before its first call. The children run at once: heap numbers do not depend
 * on speed. Ours runs the target's count; the SDK's reference child a quarter of it; the two raw
 * floors only have their allocation sampled.
 */
import { runClientChild } from './child-run.js';
import type { ServerProcess } from './server-process.js';
import { fmt, printTable, ratio } from './stats.js';
import { log } from './transcript.js';

/** One child's report (its JSON line). */
export interface MemoryReport {
  readonly name: string;
  /** Median heap growth over sequential calls during which no collection ran, in bytes. */
  readonly allocatedBytesPerCall: number;
  /** How many of the sampled calls ran without a collection. */
  readonly allocationCalls: number;
  /** How many sequential calls were sampled. */
  readonly allocationSampled: number;
  readonly calls: number;
  readonly inFlight: number;
  readonly baseline: number;
  readonly half: number;
  readonly final: number;
  readonly elapsedMs: number;
  /** Resources beyond the baseline 100 ms after closing (idle pooled sockets included). */
  readonly leftAfterClose: readonly string[];
  /** Resources beyond the baseline once the server's keep-alive timeout has passed. */
  readonly leftAfterIdle: readonly string[];
  readonly idleWaitMs: number;
}

/** Calls each memory child keeps in flight. */
const IN_FLIGHT = 4;

const kib = (bytes: number) => `${fmt(bytes / 1024, 0)} KiB`;
const listed = (resources: readonly string[]) =>
  resources.length === 0 ? 'none' : resources.join(', ');

/** Runs the memory benchmark against `server` and prints its table; ours is the first report. */
export async function runMemory(
  server: ServerProcess,
  options: { readonly calls: number; readonly warmupCalls: number },
): Promise<MemoryReport[]> {
  const { calls } = options;
  const stateful = server.spec.id === 'stateful';
  // A generous limit: a stuck child must not hang the run, a slow machine must not fail it.
  const timeoutMs = 60_000 + calls * 50;
  // The target is ours over `calls`; the SDK's child is a reference and runs a quarter as many
  // (its bytes per call compare), which keeps the whole benchmark under five minutes.
  const callsOf = {
    ours: calls,
    'sdk-per-call': Math.max(1, Math.round(calls / 4)),
    'raw-fetch': 0,
    'raw-undici': 0,
  };
  // Heap growth does not depend on speed, nor on how many calls overlap: a few in flight halve the
  // section's time, and a leak per call still shows as growth per call.
  const reports = await Promise.all(
    (['ours', 'sdk-per-call', 'raw-fetch', 'raw-undici'] as const).map(async (which) => {
      const line = await runClientChild({
        nodeFlags: ['--expose-gc'],
        script: 'memory-child.ts',
        args: [
          server.url,
          which,
          String(callsOf[which]),
          String(stateful),
          String(options.warmupCalls),
          String(IN_FLIGHT),
        ],
        timeoutMs,
      });
      return JSON.parse(line) as MemoryReport;
    }),
  );
  log(
    `\nAllocated per call on ${server.spec.path}: median heap growth over sequential calls after the warm-up, calls during which a collection ran left out`,
  );
  printTable(
    ['alternative', 'KiB allocated per call', 'ours/alt', 'calls kept'],
    reports.map((report) => [
      report.name,
      fmt(report.allocatedBytesPerCall / 1024, 1),
      ratio(reports[0]?.allocatedBytesPerCall ?? Number.NaN, report.allocatedBytesPerCall),
      `${report.allocationCalls} of ${report.allocationSampled}`,
    ]),
  );
  const grown = reports.filter((report) => report.calls > 0);
  log(
    `\nMemory: calls on ${server.spec.path}, ${IN_FLIGHT} in flight, heap after forced GC (client child, --expose-gc)`,
  );
  printTable(
    ['alternative', 'calls', 'heap before', 'halfway', 'after', 'growth', 'bytes/call'],
    grown.map((report) => [
      report.name,
      report.calls.toLocaleString('en-US'),
      kib(report.baseline),
      kib(report.half),
      kib(report.final),
      kib(report.final - report.baseline),
      fmt((report.final - report.baseline) / report.calls, 1),
    ]),
  );
  log(
    '\nResources left after closing, beyond the child baseline (process.getActiveResourcesInfo()):',
  );
  printTable(
    ['alternative', 'after close (+100 ms)', 'after the keep-alive timeout', 'waited'],
    reports.map((report) => [
      report.name,
      listed(report.leftAfterClose),
      listed(report.leftAfterIdle),
      `${fmt(report.idleWaitMs / 1000, 1)} s`,
    ]),
    3,
  );
  return reports;
}
