/**
 * Per-call latency, client CPU and requests per call of one `echo` call, every alternative against
 * the same server child in one run, rounds interleaved; and throughput with many calls in flight.
 * The same table for an OpenAPI operation (section 9).
 */
import { availableParallelism } from 'node:os';
import { type AlternativeSpec, STREAMABLE_IDS, streamableSpec } from './alternative-specs.js';
import type { ClientProcesses, RemoteAlternative } from './client-process.js';
import {
  type AlternativeResult,
  formatRequests,
  type InterleavedRun,
  measureInterleaved,
  type RoundPlan,
} from './rounds.js';
import { formatOrders } from './run-order.js';
import type { ServerId } from './server-list.js';
import type { ServerProcess } from './server-process.js';
import { fmt, printTable, ratio } from './stats.js';
import { log } from './transcript.js';

/** The results of one table: one server, one plan. */
export interface PerCallResult {
  readonly server: ServerId;
  readonly results: readonly AlternativeResult[];
}

/**
 * Where a table's alternatives run, the run's seed for the order of its rounds (`run-order.ts`),
 * and a check each may need before its rounds.
 */
export interface TableClients {
  readonly clients: ClientProcesses;
  readonly seed: number;
  readonly check?: (server: ServerProcess, alternative: RemoteAlternative) => Promise<void>;
}

/**
 * Builds `specs` in their client children, measures them in interleaved rounds against `server`,
 * prints the table and closes them.
 */
export async function measureAndPrint(
  server: ServerProcess,
  { clients, seed, check }: TableClients,
  specs: readonly AlternativeSpec[],
  plan: RoundPlan,
): Promise<PerCallResult> {
  const alternatives: RemoteAlternative[] = [];
  let run: InterleavedRun;
  try {
    // Built all at once: a new client child's start (tsx, the imports) is not measured, and the
    // two cores run two at a time.
    alternatives.push(...(await Promise.all(specs.map((spec) => clients.build(spec)))));
    for (const alternative of alternatives) await check?.(server, alternative);
    run = await measureInterleaved(server, alternatives, plan, seed);
  } finally {
    for (const alternative of alternatives) await alternative.close();
  }
  const inFlight = plan.concurrency <= 1 ? 'sequential' : `${plan.concurrency} in flight`;
  const roundWarmup =
    (plan.roundWarmupCalls ?? 0) > 0
      ? `, and ${plan.roundWarmupCalls} untimed before each round`
      : '';
  log(
    `\n${server.spec.path} (${server.spec.title}): ${plan.rounds} rounds x ${plan.callsPerRound} calls, ${inFlight}, after ${plan.warmupCalls} warm-up calls each${roundWarmup}`,
  );
  log(`rounds' order (rows as listed, seed ${seed}): ${formatOrders(run.orders)}`);
  const { results } = run;
  printPerCall(results, plan.concurrency > 1);
  if (plan.concurrency > 1) printCeilings(results);
  return { server: server.spec.id, results };
}

/** The CPU both processes spend on one call, in µs: the client's and the server child's. */
function machineCpuPerCall(result: AlternativeResult): number {
  return result.cpuMicrosPerCall + result.serverCpuMicrosPerCall;
}

/** The goal of the throughput target, ours / SDK per call. */
export const THROUGHPUT_GOAL = 1.5;

/** The two ceilings on ours' calls/s in a throughput table, beside the SDK's measured calls/s. */
export interface ThroughputCeilings {
  /** One core over the server thread's CPU per call of ours: its JavaScript runs on one thread. */
  readonly server: number;
  /** The machine's cores over the CPU client and server spent per call of ours. */
  readonly machine: number;
  /** The SDK per-call client's calls/s, which the target divides ours by. */
  readonly sdk: number;
}

/** The {@link ThroughputCeilings} of a throughput table's results, in calls/s. */
export function throughputCeilings(
  results: readonly AlternativeResult[],
  cores: number = availableParallelism(),
): ThroughputCeilings | undefined {
  const ours = results.find((result) => result.id === 'ours');
  const sdk = results.find((result) => result.id === 'sdk-per-call');
  if (ours === undefined || sdk === undefined) return undefined;
  return {
    server: 1_000_000 / ours.serverMainThreadCpuMicrosPerCall,
    machine: (cores * 1_000_000) / machineCpuPerCall(ours),
    sdk: sdk.throughputMedian,
  };
}

/** A share as `86 %`; `n/a` when it could not be measured. */
function percent(share: number): string {
  return Number.isFinite(share) ? `${fmt(share * 100, 0)} %` : 'n/a';
}

function printCeilings(results: readonly AlternativeResult[]): void {
  const cores = availableParallelism();
  const ceilings = throughputCeilings(results, cores);
  if (ceilings === undefined) return;
  log(
    `\nWhat bounds calls/s: the server child's one JavaScript thread, and the ${cores} cores client and server share (busy = calls/s x CPU per call):`,
  );
  printTable(
    [
      'alternative',
      'calls/s',
      'server main-thread us/call',
      'server main thread busy',
      'client + server CPU us/call',
      'cores busy',
    ],
    results.map((result) => [
      result.name,
      fmt(result.throughputMedian, 0),
      fmt(result.serverMainThreadCpuMicrosPerCall, 0),
      percent((result.throughputMedian * result.serverMainThreadCpuMicrosPerCall) / 1_000_000),
      fmt(machineCpuPerCall(result), 0),
      fmt((result.throughputMedian * machineCpuPerCall(result)) / 1_000_000, 2),
    ]),
  );
  log(
    `Ceilings on ours, over the SDK per-call client's calls/s: the server thread ${ratio(ceilings.server, ceilings.sdk)}, the cores ${ratio(ceilings.machine, ceilings.sdk)} (the target asks ${fmt(THROUGHPUT_GOAL, 2)}x).`,
  );
}

/**
 * Ours, the SDK per call (as built by default, and with one shared validator), the SDK shared,
 * and the raw fetch and raw undici floors on a Streamable server.
 */
export function runStreamablePerCall(
  server: ServerProcess,
  table: TableClients,
  plan: RoundPlan,
): Promise<PerCallResult> {
  const { url } = server;
  const stateful = server.spec.id === 'stateful';
  const specs = STREAMABLE_IDS.map((id) => streamableSpec(id, url, stateful));
  return measureAndPrint(server, table, specs, plan);
}

/**
 * Throws unless one call of ours told `transport.type: 'sse'` sends no Streamable probe: a POST to
 * the SSE URL (counted by the server child) would mean the numbers measure something else.
 */
async function checkNoProbe(server: ServerProcess, alternative: RemoteAlternative): Promise<void> {
  if (alternative.id !== 'ours-sse-type') return;
  await server.resetCounts();
  await alternative.warm(1, 1);
  const probes = (await server.counts()).byRoute[`POST ${new URL(server.url).pathname}`] ?? 0;
  if (probes > 0) throw new Error(`transport.type 'sse' still sent ${probes} Streamable probe(s)`);
}

/**
 * The legacy server's two like-for-like pairs: discovering (ours with the plain URL, the SDK
 * client trying Streamable HTTP first) and told the transport (ours with `type: 'sse'`, the SDK's
 * `SSEClientTransport`).
 */
export function runLegacyPerCall(
  server: ServerProcess,
  table: TableClients,
  plan: RoundPlan,
): Promise<PerCallResult> {
  const { url } = server;
  return measureAndPrint(
    server,
    { ...table, check: checkNoProbe },
    [
      { kind: 'ours-probe', id: 'ours', url },
      { kind: 'ours-sse-type', id: 'ours-sse-type', url },
      { kind: 'sdk-sse', id: 'sdk-sse', url },
      { kind: 'sdk-sse', id: 'sdk-sse-discovering', url },
    ],
    plan,
  );
}

/** Ours (an OpenAPI operation as a tool) and the raw fetch and undici floors of its one POST. */
export function runOpenApiPerCall(
  server: ServerProcess,
  table: TableClients,
  plan: RoundPlan,
): Promise<PerCallResult> {
  const { url } = server;
  return measureAndPrint(
    server,
    table,
    [
      { kind: 'openapi', id: 'ours-openapi', url },
      { kind: 'openapi', id: 'raw-fetch', url },
      { kind: 'openapi', id: 'raw-undici', url },
    ],
    plan,
  );
}

/** Ours against the SDK per call (and the raw-fetch floor for scale) with many calls in flight. */
export function runThroughput(
  server: ServerProcess,
  table: TableClients,
  plan: RoundPlan,
): Promise<PerCallResult> {
  const { url } = server;
  const stateful = server.spec.id === 'stateful';
  const ids = ['ours', 'sdk-per-call', 'raw-fetch'] as const;
  const specs = ids.map((id) => streamableSpec(id, url, stateful));
  return measureAndPrint(server, table, specs, plan);
}

function printPerCall(results: readonly AlternativeResult[], throughput: boolean): void {
  const ours = results[0] as AlternativeResult;
  // Ratios are ours / alternative: above 1x ours is slower (latency, CPU) or faster (calls/s).
  const header = [
    'alternative',
    'median ms',
    'p95 ms',
    'latency ours/alt',
    'CPU us/call',
    'CPU ours/alt',
    'main-thread CPU us/call',
    'main ours/alt',
  ];
  if (throughput) header.push('calls/s', 'calls/s (p95 round)', 'calls/s ours/alt');
  header.push('server CPU us/call', 'HTTP requests per call', 'connections opened per call');
  printTable(
    header,
    results.map((result) => {
      const row = [
        result.name,
        fmt(result.latencyMedianMs, 3),
        fmt(result.latencyP95Ms, 3),
        ratio(ours.latencyMedianMs, result.latencyMedianMs),
        fmt(result.cpuMicrosPerCall, 0),
        ratio(ours.cpuMicrosPerCall, result.cpuMicrosPerCall),
        fmt(result.mainThreadCpuMicrosPerCall, 0),
        ratio(ours.mainThreadCpuMicrosPerCall, result.mainThreadCpuMicrosPerCall),
      ];
      if (throughput) {
        row.push(
          fmt(result.throughputMedian, 0),
          fmt(result.throughputP95, 0),
          ratio(ours.throughputMedian, result.throughputMedian),
        );
      }
      row.push(
        fmt(result.serverCpuMicrosPerCall, 0),
        formatRequests(result.requestsPerCall),
        fmt(result.connectionsPerCall, 2),
      );
      return row;
    }),
  );
}
