/**
 * Benchmark 4: what the `mcpOperation` state machine itself costs per call. Every actor is
 * stubbed to resolve at once, so a run is only XState: actor creation, the transitions of a
 * whole call of a connection without a token provider (initialize, initialized, tools/call,
 * closing [+ ending the session]), the deadline timers each waiting state arms and cancels, and
 * the final output. A third row is XState's floor for a chart of such a call that invokes one
 * actor per POST: three states in a row, each invoking one promise actor under one deadline, and
 * nothing else. A fourth is the other shape (decision 0017): one actor for the run, messaged.
 */

import {
  type McpOperationInput,
  mcpOperationMachine,
  runMachine,
  SecretValue,
} from 'stitchkit-transport/machines';
import { fromCallback, fromPromise, sendTo, setup } from 'xstate';
import { createHostFence } from '../dist/wire/index.js';
import { formatOrders, roundOrders } from './run-order.js';
import { cpuMicros, fmt, median, p95, printTable, settle } from './stats.js';
import { log } from './transcript.js';

export interface MachineOptions {
  readonly warmupRuns: number;
  readonly rounds: number;
  readonly runsPerRound: number;
}

export interface MachineResult {
  readonly name: string;
  readonly microsecondsMedian: number;
  readonly runsPerSecond: number;
  /** CPU per run when every actor sleeps 1 ms before answering, as on the network (timers off). */
  readonly afterIdleMicrosMedian: number;
}

/**
 * The wait each stubbed actor makes in the after-idle measure before it answers: as on the network,
 * the thread sleeps between the steps of a run (1 ms is shorter than any loopback round trip).
 */
const IDLE_MS = 1;

const cpuNow = () => cpuMicros(process.cpuUsage());

/**
 * Client CPU (µs) per run of `run`, less that of `steps` bare sleeps of {@link IDLE_MS}: the two
 * alternate run by run, so load changes on the machine hit both alike.
 */
async function cpuBeyondSleeps(
  run: () => Promise<unknown>,
  steps: number,
  count: number,
): Promise<number> {
  let sleeps = 0;
  let runs = 0;
  for (let index = 0; index < count; index++) {
    const start = cpuNow();
    for (let step = 0; step < steps; step++) await settle(IDLE_MS);
    const between = cpuNow();
    await run();
    const end = cpuNow();
    sleeps += between - start;
    runs += end - between;
  }
  return (runs - sleeps) / count;
}

const CALL_RESULT = {
  content: [{ type: 'text', text: 'Echo: hello' }],
  structuredContent: { echoed: 'hello' },
};

/** Each stubbed actor answers at once, or after `idleMs` of sleep. */
function stubbedMachine(stateful: boolean, idleMs: number) {
  const idle = () => (idleMs > 0 ? settle(idleMs) : undefined);
  return mcpOperationMachine.provide({
    actors: {
      resolveCredentials: fromPromise(async () => undefined),
      exchange: fromPromise(async ({ input }: { input: { expectId?: number } }) => {
        await idle();
        if (input.expectId === undefined) return { kind: 'accepted' as const, status: 202 };
        if (input.expectId === 1) {
          return {
            kind: 'response' as const,
            value: { protocolVersion: '2025-11-25' },
            sessionId: stateful ? new SecretValue('session-1') : undefined,
          };
        }
        return { kind: 'response' as const, value: CALL_RESULT, sessionId: undefined };
      }),
      deleteSession: fromPromise(async () => {
        await idle();
      }),
    } as never,
  });
}

/** The three steps of a call, `initializing` first; `step(next)` builds each, the last to `end`. */
function threeSteps<T>(step: (next: string) => T, end: string) {
  return {
    initializing: step('notifying'),
    notifying: step('requesting'),
    requesting: step(end),
  };
}

/**
 * The smallest chart of a per-call client that awaits three POSTs, each under a deadline: three
 * states invoking a promise actor that resolves at once, then a final state with an ok output.
 */
function floorMachine(idleMs: number) {
  const step = (next: string) => ({
    invoke: { src: 'post' as const, onDone: next },
    after: { DEADLINE: 'failed' },
  });
  return setup({
    actors: {
      post: fromPromise(async () => {
        if (idleMs > 0) await settle(idleMs);
      }),
    },
    delays: { DEADLINE: 30_000 },
  }).createMachine({
    id: 'floor',
    initial: 'initializing',
    states: {
      ...threeSteps(step, 'closed'),
      failed: { type: 'final' },
      closed: { type: 'final' },
    },
    output: () => ({ ok: true as const }),
  });
}

/**
 * The other shape of the same call (decision 0017): one callback actor invoked once for the run;
 * each of the three states messages it on entry and waits, under a deadline, for its answer
 * event. One child actor per run instead of one per POST; what it gives up is that leaving a state
 * no longer stops its request by construction.
 */
function wireActorMachine(idleMs: number) {
  const step = (next: string) => ({
    entry: 'post' as const,
    on: { ANSWER: next },
    after: { DEADLINE: '#wireActor.failed' },
  });
  return setup({
    types: {} as { events: { type: 'ANSWER' } | { type: 'POST' } },
    actors: {
      wire: fromCallback<{ type: 'POST' }>(({ sendBack, receive }) => {
        receive(() => {
          const answered = idleMs > 0 ? settle(idleMs) : Promise.resolve();
          void answered.then(() => sendBack({ type: 'ANSWER' }));
        });
      }),
    },
    actions: { post: sendTo('wire', { type: 'POST' }) },
    delays: { DEADLINE: 30_000 },
  }).createMachine({
    id: 'wireActor',
    initial: 'calling',
    states: {
      calling: {
        invoke: { id: 'wire', src: 'wire' },
        initial: 'initializing',
        states: threeSteps(step, '#wireActor.closed'),
      },
      failed: { type: 'final' },
      closed: { type: 'final' },
    },
    output: () => ({ ok: true as const }),
  });
}

function machineInput(): McpOperationInput {
  const url = 'http://127.0.0.1:9/mcp';
  return {
    connectionName: 'bench',
    url,
    fence: createHostFence('bench', new URL(url)),
    resolvesToken: false,
    headers: {},
    request: { method: 'tools/call', params: { name: 'echo', arguments: { message: 'hello' } } },
    limits: {
      handshake: { timeoutMs: 30_000, maxResponseBytes: 1024 * 1024 },
      request: { timeoutMs: 30_000, maxResponseBytes: 1024 * 1024 },
    },
  };
}

/**
 * Runs benchmark 4 and prints its table; each round runs the variants (back to back, then after
 * idle) in an order drawn from `seed` (`run-order.ts`).
 */
export async function runMachineOverhead(
  options: MachineOptions,
  seed: number,
): Promise<MachineResult[]> {
  // `steps`: the actors a run awaits, so the after-idle measure can take as many sleeps' CPU off.
  const variants = [
    {
      name: 'mcpOperation, stateless path (no session)',
      machine: (idleMs: number) => stubbedMachine(false, idleMs),
      steps: 3,
    },
    {
      name: 'mcpOperation, stateful path (+ endingSession)',
      machine: (idleMs: number) => stubbedMachine(true, idleMs),
      steps: 4,
    },
    {
      name: 'XState floor: 3 states, 3 invoked promise actors, 3 deadlines',
      machine: (idleMs: number) =>
        floorMachine(idleMs) as unknown as ReturnType<typeof stubbedMachine>,
      steps: 3,
    },
    {
      name: 'XState, other shape: 1 callback actor messaged by 3 states, 3 deadlines',
      machine: (idleMs: number) =>
        wireActorMachine(idleMs) as unknown as ReturnType<typeof stubbedMachine>,
      steps: 3,
    },
  ].map((variant) => ({ ...variant, hot: variant.machine(0), idle: variant.machine(IDLE_MS) }));
  for (const variant of variants) {
    for (let run = 0; run < options.warmupRuns; run++) {
      const output = await runMachine(variant.hot, machineInput());
      if (!output.ok) throw new Error('the stubbed run failed');
    }
  }
  const seconds = variants.map(() => [] as number[]);
  const afterIdle = variants.map(() => [] as number[]);
  // Fewer runs after idle: each waits a few 1 ms timers, and the figure settles within a hundred.
  const idleRuns = Math.max(1, Math.round(options.runsPerRound / 10));
  const orders = roundOrders(seed, 'machine overhead', variants.length, options.rounds);
  for (const order of orders) {
    for (const index of order) {
      const variant = variants[index] as (typeof variants)[number];
      const start = performance.now();
      for (let run = 0; run < options.runsPerRound; run++) {
        await runMachine(variant.hot, machineInput());
      }
      (seconds[index] as number[]).push((performance.now() - start) / 1000);
    }
    for (const index of order) {
      const variant = variants[index] as (typeof variants)[number];
      const run = () => runMachine(variant.idle, machineInput());
      (afterIdle[index] as number[]).push(await cpuBeyondSleeps(run, variant.steps, idleRuns));
    }
  }
  const results = variants.map((variant, index) => {
    const samples = seconds[index] as number[];
    return {
      name: variant.name,
      microsecondsMedian: (median(samples) / options.runsPerRound) * 1e6,
      microsecondsP95: (p95(samples) / options.runsPerRound) * 1e6,
      runsPerSecond: options.runsPerRound / median(samples),
      afterIdleMicrosMedian: median(afterIdle[index] as number[]),
    };
  });
  log(
    `\nMachine overhead: all actors stubbed, ${options.rounds} rounds x ${options.runsPerRound} runs back to back, then ${idleRuns} runs whose actors each sleep ${IDLE_MS} ms before answering`,
  );
  log(`rounds' order (rows as listed, seed ${seed}): ${formatOrders(orders)}`);
  printTable(
    [
      'machine run',
      'us/run median',
      'us/run (p95 round)',
      'runs/s',
      'CPU us/run, actors after idle',
    ],
    results.map((result) => [
      result.name,
      fmt(result.microsecondsMedian, 1),
      fmt(result.microsecondsP95, 1),
      fmt(result.runsPerSecond, 0),
      fmt(result.afterIdleMicrosMedian, 1),
    ]),
  );
  return results;
}
