/**
 * A client child of the load curve (section 14), forked by `load.ts` with `--expose-gc` and an
 * IPC channel: it builds one alternative against the load server, runs calls at the level of
 * concurrency the runner names (each call's wall time, the failures, the process's CPU around the
 * run), and for the retained-heap reading starts calls without awaiting them, reads the heap after
 * a full collection while they are held by the server, and then awaits them. It exits when the
 * runner disconnects.
 */
import { type AlternativeSpec, buildAlternative } from './alternative-specs.js';
import type { CallAlternative } from './clients.js';
import { cpuMicros, heapAfterGc, quantile, runConcurrently } from './stats.js';

/** What one timed run at one level measured. */
export interface LoadSample {
  readonly calls: number;
  readonly failures: number;
  /** The first failure's message, when there was one. */
  readonly firstFailure: string | null;
  readonly elapsedMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The child's user + system CPU over the run, in µs. */
  readonly cpuMicros: number;
}

/** Runner to load child. */
export type LoadRequest =
  | { readonly type: 'build'; readonly id: number; readonly spec: AlternativeSpec }
  | {
      readonly type: 'run';
      readonly id: number;
      readonly calls: number;
      readonly concurrency: number;
    }
  | { readonly type: 'heap'; readonly id: number }
  | { readonly type: 'start-held'; readonly id: number; readonly count: number }
  | { readonly type: 'finish-held'; readonly id: number };

/** Load child to runner: the answer to the request with the same `id`. */
export type LoadReply =
  | { readonly type: 'built'; readonly id: number; readonly name: string }
  | { readonly type: 'ran'; readonly id: number; readonly sample: LoadSample }
  | { readonly type: 'heap'; readonly id: number; readonly bytes: number }
  | { readonly type: 'started'; readonly id: number }
  | {
      readonly type: 'finished';
      readonly id: number;
      readonly failures: number;
      readonly firstFailure: string | null;
    }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

let alternative: CallAlternative | undefined;
let held: Promise<boolean>[] = [];
let firstFailure: string | null = null;

function built(): CallAlternative {
  if (alternative === undefined) throw new Error('no alternative built yet');
  return alternative;
}

/** One call: `true` when it succeeded; a failure is counted, never thrown. */
async function tryCall(target: CallAlternative): Promise<boolean> {
  try {
    await target.call();
    return true;
  } catch (error) {
    const cause = (error as { cause?: { message?: unknown; code?: unknown } })?.cause;
    const why = cause === undefined ? '' : ` (cause: ${String(cause.code ?? cause.message)})`;
    firstFailure ??= `${String((error as Error)?.message ?? error)}${why}`;
    return false;
  }
}

async function run(calls: number, concurrency: number): Promise<LoadSample> {
  const target = built();
  const latencies: number[] = [];
  let failures = 0;
  firstFailure = null;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await runConcurrently(calls, concurrency, async () => {
    const callStart = performance.now();
    if (!(await tryCall(target))) failures += 1;
    latencies.push(performance.now() - callStart);
  });
  const elapsedMs = performance.now() - start;
  return {
    calls,
    failures,
    firstFailure,
    elapsedMs,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    cpuMicros: cpuMicros(process.cpuUsage(cpuStart)),
  };
}

async function answer(request: LoadRequest): Promise<LoadReply> {
  switch (request.type) {
    case 'build':
      alternative = await buildAlternative(request.spec);
      return { type: 'built', id: request.id, name: alternative.name };
    case 'run':
      return { type: 'ran', id: request.id, sample: await run(request.calls, request.concurrency) };
    case 'heap':
      return { type: 'heap', id: request.id, bytes: await heapAfterGc() };
    case 'start-held': {
      const target = built();
      firstFailure = null;
      held = Array.from({ length: request.count }, () => tryCall(target));
      return { type: 'started', id: request.id };
    }
    case 'finish-held': {
      const outcomes = await Promise.all(held);
      held = [];
      return {
        type: 'finished',
        id: request.id,
        failures: outcomes.filter((ok) => !ok).length,
        firstFailure,
      };
    }
  }
}

process.on('message', (request: LoadRequest) => {
  answer(request).then(
    (reply) => process.send?.(reply),
    (error: unknown) =>
      process.send?.({
        type: 'failed',
        id: request.id,
        message: String((error as Error)?.stack ?? error),
      }),
  );
});
process.on('disconnect', () => process.exit(0));
