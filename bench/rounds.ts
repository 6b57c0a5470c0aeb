/**
 * Interleaved rounds: round 1 of every alternative, then round 2 of every alternative, and so on,
 * so that load changes on the machine hit every alternative alike. Around each alternative's round
 * it records wall time per call, the client process's CPU time (`process.cpuUsage()`; the server is
 * another process) and the server child's request counters.
 */
import type { AlternativeId, CallAlternative } from './clients.js';
import type { ServerProcess } from './server-process.js';
import {
  cpuMicros,
  mainThreadCpuMicros,
  median,
  p95,
  runConcurrently,
  settle,
  warmUp,
} from './stats.js';

/** How many calls, in how many rounds, with how many in flight. */
export interface RoundPlan {
  readonly warmupCalls: number;
  readonly rounds: number;
  readonly callsPerRound: number;
  /** 1: sequential calls; more: that many in flight. */
  readonly concurrency: number;
  /**
   * Untimed calls, as many in flight, just before each of an alternative's rounds (0 when absent):
   * its connection pool is back to its steady size when the timed calls start.
   */
  readonly roundWarmupCalls?: number;
}

/** What the rounds measured for one alternative. */
export interface AlternativeResult {
  readonly id: AlternativeId;
  readonly name: string;
  readonly latencyMedianMs: number;
  readonly latencyP95Ms: number;
  /** Median over rounds of the client's CPU (user + system) per call, in µs. */
  readonly cpuMicrosPerCall: number;
  /** The same for the client's main thread alone (`NaN` off Linux): no GC or compiler threads. */
  readonly mainThreadCpuMicrosPerCall: number;
  /** calls/s of the median round. */
  readonly throughputMedian: number;
  /** calls/s of the p95 (slow) round. */
  readonly throughputP95: number;
  /** HTTP requests the server child counted per call, by method, over every measured call. */
  readonly requestsPerCall: Readonly<Record<string, number>>;
  /** TCP connections the server child accepted per call, over every measured call. */
  readonly connectionsPerCall: number;
  /** Median over rounds of the server child's CPU per call, in µs: what the client made it do. */
  readonly serverCpuMicrosPerCall: number;
  /** The same for the server's main thread alone (`NaN` off Linux), where its JavaScript runs. */
  readonly serverMainThreadCpuMicrosPerCall: number;
}

// Before a round: lets the previous alternative's stray I/O (a stream being torn down) finish.
const SETTLE_BEFORE_MS = 20;
// After a round: requests a client fires without awaiting (the SDK's standalone GET) arrive a
// little later; they are counted, and their CPU is charged to the round that caused them.
const SETTLE_AFTER_MS = 50;

/** Runs warm-up then interleaved rounds of every alternative against `server`. */
export async function measureInterleaved(
  server: ServerProcess,
  alternatives: readonly CallAlternative[],
  plan: RoundPlan,
): Promise<AlternativeResult[]> {
  for (const alternative of alternatives) await warmUp(plan.warmupCalls, () => alternative.call());
  const samples = alternatives.map(() => ({
    latencies: [] as number[],
    roundMs: [] as number[],
    cpuPerCall: [] as number[],
    mainCpuPerCall: [] as number[],
    serverCpuPerCall: [] as number[],
    serverMainCpuPerCall: [] as number[],
    requests: {} as Record<string, number>,
    connections: 0,
  }));
  // One at a time when sequential, else the plan's number in flight.
  const run = (calls: number, call: () => Promise<void>) =>
    runConcurrently(calls, Math.max(1, plan.concurrency), call);
  const timedCall = async (alternative: CallAlternative, latencies: number[]) => {
    const start = performance.now();
    await alternative.call();
    latencies.push(performance.now() - start);
  };
  for (let round = 0; round < plan.rounds; round++) {
    for (const [index, alternative] of alternatives.entries()) {
      const sample = samples[index] as (typeof samples)[number];
      await run(plan.roundWarmupCalls ?? 0, () => alternative.call());
      await settle(SETTLE_BEFORE_MS);
      await server.resetCounts();
      const cpuStart = process.cpuUsage();
      const mainStart = mainThreadCpuMicros();
      const start = performance.now();
      await run(plan.callsPerRound, () => timedCall(alternative, sample.latencies));
      sample.roundMs.push(performance.now() - start);
      await settle(SETTLE_AFTER_MS);
      sample.cpuPerCall.push(cpuMicros(process.cpuUsage(cpuStart)) / plan.callsPerRound);
      sample.mainCpuPerCall.push((mainThreadCpuMicros() - mainStart) / plan.callsPerRound);
      const counts = await server.counts();
      sample.serverCpuPerCall.push(counts.cpuMicros / plan.callsPerRound);
      sample.serverMainCpuPerCall.push(
        (counts.mainThreadCpuMicros ?? Number.NaN) / plan.callsPerRound,
      );
      for (const [method, count] of Object.entries(counts.byMethod)) {
        sample.requests[method] = (sample.requests[method] ?? 0) + count;
      }
      sample.connections += counts.connections;
    }
  }
  const totalCalls = plan.rounds * plan.callsPerRound;
  return alternatives.map((alternative, index) => {
    const sample = samples[index] as (typeof samples)[number];
    const requestsPerCall: Record<string, number> = {};
    for (const [method, count] of Object.entries(sample.requests)) {
      requestsPerCall[method] = count / totalCalls;
    }
    return {
      id: alternative.id,
      name: alternative.name,
      latencyMedianMs: median(sample.latencies),
      latencyP95Ms: p95(sample.latencies),
      cpuMicrosPerCall: median(sample.cpuPerCall),
      mainThreadCpuMicrosPerCall: median(sample.mainCpuPerCall),
      throughputMedian: plan.callsPerRound / (median(sample.roundMs) / 1000),
      throughputP95: plan.callsPerRound / (p95(sample.roundMs) / 1000),
      requestsPerCall,
      connectionsPerCall: sample.connections / totalCalls,
      serverCpuMicrosPerCall: median(sample.serverCpuPerCall),
      serverMainThreadCpuMicrosPerCall: median(sample.serverMainCpuPerCall),
    };
  });
}

/** `3 (3 POST)`, `4.2 (3 POST, 1.2 GET)`: requests per call, total first. */
export function formatRequests(counts: Readonly<Record<string, number>>): string {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const show = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  const parts = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => ['POST', 'GET', 'DELETE'].indexOf(a) - ['POST', 'GET', 'DELETE'].indexOf(b))
    .map(([method, count]) => `${show(count)} ${method}`);
  return `${show(total)} (${parts.join(', ')})`;
}
