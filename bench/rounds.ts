/**
 * Interleaved rounds: round 1 of every alternative, then round 2 of every alternative, and so on,
 * so that load changes on the machine hit every alternative alike, in an order rotated per round
 * from the run's seed (`run-order.ts`). Each alternative runs in a
 * client child of its own, which records wall time per call and its process's CPU time
 * (`process.cpuUsage()`) around its round; the server is another process, whose request counters
 * and CPU the runner reads around each round.
 */
import type { RemoteAlternative } from './client-process.js';
import type { AlternativeId } from './clients.js';
import { roundOrders } from './run-order.js';
import type { ServerProcess } from './server-process.js';
import { median, p95, settle, WARMUP_IN_FLIGHT } from './stats.js';

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

/**
 * How many slices the warm-up is cut into, every alternative's slice in turn. With each
 * alternative warming up in one go, section 1's second alternative (the SDK per call) waited about
 * a minute for the other four's warm-ups, and read 10.2 ms and 10,610 µs of CPU per call (3.8 ms
 * of it off its main thread); run last, with no wait, 7.2 ms and 5,056 µs.
 */
const WARMUP_SLICES = 10;

/** The calls of warm-up slice `slice` when `total` are cut into {@link WARMUP_SLICES}. */
function sliceOf(total: number, slice: number): number {
  const base = Math.floor(total / WARMUP_SLICES);
  return slice < total % WARMUP_SLICES ? base + 1 : base;
}

// Before a round: lets the previous alternative's stray I/O (a stream being torn down) finish.
const SETTLE_BEFORE_MS = 20;
// After a round: requests a client fires without awaiting (the SDK's standalone GET) arrive a
// little later; they are counted, and their CPU is charged to the round that caused them.
const SETTLE_AFTER_MS = 50;

/** What {@link measureInterleaved} measured, and the order its rounds ran in. */
export interface InterleavedRun {
  /** One per alternative, in the order they were given. */
  readonly results: AlternativeResult[];
  /** Each round's order, as indices into the alternatives given. */
  readonly orders: number[][];
}

/**
 * Runs warm-up then interleaved rounds of every alternative against `server`, each round (and
 * each warm-up slice) in its own order drawn from `seed` ({@link roundOrders}). Each alternative
 * runs in its client child, which measures its own calls; the runner resets and reads the
 * server's counters around each round.
 */
export async function measureInterleaved(
  server: ServerProcess,
  alternatives: readonly RemoteAlternative[],
  plan: RoundPlan,
  seed: number,
): Promise<InterleavedRun> {
  // The table's own label: its orders do not depend on which tables ran before it.
  const label = `${server.spec.id} ${plan.concurrency} ${alternatives.map((entry) => entry.id).join(' ')}`;
  const count = alternatives.length;
  // The warm-up is interleaved too, in slices: a client child that sat idle for the others'
  // whole warm-ups (a minute in section 1) was measured in a different state than one that had
  // just run (see WARMUP_SLICES).
  for (const [slice, order] of roundOrders(
    seed,
    `${label} warm-up`,
    count,
    WARMUP_SLICES,
  ).entries()) {
    for (const index of order) {
      const alternative = alternatives[index] as RemoteAlternative;
      await alternative.warm(sliceOf(plan.warmupCalls, slice), WARMUP_IN_FLIGHT);
    }
  }
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
  const inFlight = Math.max(1, plan.concurrency);
  const orders = roundOrders(seed, label, count, plan.rounds);
  for (const order of orders) {
    for (const index of order) {
      const alternative = alternatives[index] as RemoteAlternative;
      const sample = samples[index] as (typeof samples)[number];
      await alternative.warm(plan.roundWarmupCalls ?? 0, inFlight);
      await settle(SETTLE_BEFORE_MS);
      await server.resetCounts();
      const measured = await alternative.measure(plan.callsPerRound, inFlight, SETTLE_AFTER_MS);
      sample.latencies.push(...measured.latencies);
      sample.roundMs.push(measured.elapsedMs);
      sample.cpuPerCall.push(measured.cpuMicros / plan.callsPerRound);
      sample.mainCpuPerCall.push((measured.mainThreadCpuMicros ?? Number.NaN) / plan.callsPerRound);
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
  const results = alternatives.map((alternative, index) => {
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
  return { results, orders };
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
