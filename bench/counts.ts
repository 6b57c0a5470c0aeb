/**
 * How many calls, rounds and bytes each benchmark runs: the full counts, the `--quick` counts,
 * and `--scale <factor>` (the full counts with every per-round and total count scaled, rounds
 * kept), used to estimate a full run's duration from a shorter one.
 */
import type { LoadCounts } from './load.js';
import type { RoundPlan } from './rounds.js';

/** Every count of one run. */
export interface Counts {
  /** Section 1 on `/sessionless`, the rows the targets read: the first calls the runner makes. */
  readonly targetsSequential: RoundPlan;
  /** Section 2 on `/sse`, the legacy target's rows. */
  readonly legacySequential: RoundPlan;
  /** Section 1 on `/stateful`: its client children have run `/sessionless` already. */
  readonly sequential: RoundPlan;
  /** Section 9, the OpenAPI operation: client children of its own, started for it. */
  readonly openapiSequential: RoundPlan;
  readonly throughput: RoundPlan;
  /** Section 10, the v2 SDK dual-revision server: client children of its own, started for it. */
  readonly statelessSequential: RoundPlan;
  /** Section 11, calls in flight against the same server. */
  readonly statelessThroughput: RoundPlan;
  /** Section 12, over the emulated link: each call costs round trips of 40 ms. */
  readonly emulatedLink: RoundPlan;
  readonly sse: {
    readonly totalBytes: number;
    readonly chunkBytes: number;
    readonly rounds: number;
  };
  readonly memory: { readonly calls: number; readonly warmupCalls: number };
  readonly profile: { readonly calls: number; readonly warmupCalls: number };
  readonly machine: {
    readonly warmupRuns: number;
    readonly rounds: number;
    readonly runsPerRound: number;
  };
  /**
   * Section 8, per document: client children, and per child the warm mounts (back to back), the
   * warm mounts with a forced GC before each, and the `JSON.parse` runs.
   */
  readonly openapi: {
    readonly children: number;
    readonly warmMounts: number;
    readonly gcMounts: number;
    readonly parses: number;
  };
  /** Section 14, the load curve. */
  readonly load: LoadCounts;
}

/**
 * The full run: 300 s measured on a busy 2-core VM, about 3 minutes estimated on an idle one
 * (see "Duration" in bench/README.md); the memory benchmark (10 000 calls, the target's count)
 * is more than half of it.
 */
export const FULL: Counts = {
  // 1,000 warm-up calls per alternative before the first measured rounds: V8's optimising compiler
  // (TurboFan, on helper threads that process.cpuUsage() counts) still compiled about 1.9 ms of
  // code per call over ours' calls 300 to 600, 0.3 ms over calls 1,200 to 1,500, and about 0.1 ms
  // or less after call 2,100 (`--trace-opt`, one alternative alone, 300-call windows; the raw-fetch
  // floor settles a little sooner). After 150 warm-up calls ours measured 1.13x the floor's process
  // CPU; after 1,000, 0.94x (main thread: 0.95x and 0.88x). After 1,000 ours still spent about
  // 0.4 ms per call off its main thread (the floor 0.1 ms), so the targets' rounds now follow
  // 2,000, where the curve has flattened. The later tables run in the same process, on code
  // mostly compiled already (/stateful adds its DELETE path): 150 there. The legacy table's own
  // states and stream reader are not compiled by then (legacySequential).
  targetsSequential: { warmupCalls: 2_000, rounds: 10, callsPerRound: 20, concurrency: 1 },
  // The legacy target's rounds follow 1,000 warm-up calls, as the Streamable ones follow 2,000:
  // after 150, one run of this table alone read ours' `type: 'sse'` CPU per call 27 % higher than
  // after 1,000, and its latency ratio against the SDK 0.733x instead of 0.715x.
  legacySequential: { warmupCalls: 1_000, rounds: 10, callsPerRound: 20, concurrency: 1 },
  sequential: { warmupCalls: 150, rounds: 10, callsPerRound: 20, concurrency: 1 },
  // Section 9's client children start with it (sections 1 to 7 stop theirs), so its alternatives
  // warm up like the legacy table's.
  openapiSequential: { warmupCalls: 1_000, rounds: 10, callsPerRound: 20, concurrency: 1 },
  // Rounds of 1,024 calls, 16 per call slot: a round starts with 64 calls at once and ends with
  // fewer and fewer in flight, and with 256 calls (4 per slot) those edges were a quarter of each
  // round. Run after run, alternating the two plans on the same build, ours read 1.44x and 1.49x
  // the SDK's calls/s with 5 rounds of 256, 1.65x and 1.69x with 3 of 1,024 (0.91x and 1.06x the
  // raw-fetch floor's); alone, 2,048 calls each, 1.52x and 1.54x.
  // 128 untimed calls before each round bring the alternative's connection pool back to its
  // steady size: in the other alternatives' rounds ours' sockets sit idle past undici's keep-alive
  // and close, and each timed round began by opening 0.08-0.09 connections per call (the raw-fetch
  // floor 0.00: it shares the built-in fetch's pool with the SDK, whose rounds keep it warm). With
  // them every alternative opens 0.00-0.02 per call. Ours / SDK read 1.66x and 1.58x without, 1.64x
  // and 1.63x with, alternating on one build: the ramp is small, but it is not steady state.
  throughput: {
    warmupCalls: 64,
    rounds: 3,
    callsPerRound: 1_024,
    concurrency: 64,
    roundWarmupCalls: 128,
  },
  // Section 10's client children start with it, so its alternatives warm up like the legacy
  // table's; section 11 runs in the same children, like section 3 after section 1.
  statelessSequential: { warmupCalls: 1_000, rounds: 10, callsPerRound: 20, concurrency: 1 },
  statelessThroughput: {
    warmupCalls: 64,
    rounds: 3,
    callsPerRound: 1_024,
    concurrency: 64,
    roundWarmupCalls: 128,
  },
  // A call there waits for the link, not the CPU: 40 calls each are enough for a stable median.
  emulatedLink: { warmupCalls: 10, rounds: 4, callsPerRound: 10, concurrency: 1 },
  // 11 rounds, not 5: the VM's speed drifts within a run, and in one run of five rounds ours read
  // 0.66x on LF framing where the runs before read 0.83x-0.88x; a round costs well under a second.
  sse: { totalBytes: 20_000_000, chunkBytes: 64 * 1024, rounds: 11 },
  // The children are fresh processes: the same warm-up as the targets' rounds, so the allocation
  // sample and the profile see compiled code.
  memory: { calls: 10_000, warmupCalls: 1_000 },
  profile: { calls: 1_000, warmupCalls: 1_000 },
  machine: { warmupRuns: 1_000, rounds: 5, runsPerRound: 600 },
  openapi: { children: 3, warmMounts: 10, gcMounts: 3, parses: 10 },
  load: { levels: [1, 16, 256, 1_024, 10_000], minCalls: 1_000, warmupCalls: 1_000 },
};

/** A smoke run: every benchmark and table, tiny counts. */
export const QUICK: Counts = {
  targetsSequential: { warmupCalls: 3, rounds: 2, callsPerRound: 5, concurrency: 1 },
  legacySequential: { warmupCalls: 3, rounds: 2, callsPerRound: 5, concurrency: 1 },
  sequential: { warmupCalls: 3, rounds: 2, callsPerRound: 5, concurrency: 1 },
  openapiSequential: { warmupCalls: 3, rounds: 2, callsPerRound: 5, concurrency: 1 },
  // 64 in flight needs at least 64 calls per round to mean anything.
  throughput: {
    warmupCalls: 3,
    rounds: 2,
    callsPerRound: 64,
    concurrency: 64,
    roundWarmupCalls: 64,
  },
  statelessSequential: { warmupCalls: 3, rounds: 2, callsPerRound: 5, concurrency: 1 },
  statelessThroughput: {
    warmupCalls: 3,
    rounds: 2,
    callsPerRound: 64,
    concurrency: 64,
    roundWarmupCalls: 64,
  },
  emulatedLink: { warmupCalls: 2, rounds: 2, callsPerRound: 3, concurrency: 1 },
  sse: { totalBytes: 2_000_000, chunkBytes: 64 * 1024, rounds: 2 },
  // The memory children dominate a quick run; 1 000 calls keep it well under a minute.
  memory: { calls: 1_000, warmupCalls: 100 },
  profile: { calls: 200, warmupCalls: 20 },
  machine: { warmupRuns: 100, rounds: 2, runsPerRound: 200 },
  openapi: { children: 1, warmMounts: 3, gcMounts: 1, parses: 3 },
  load: { levels: [1, 16, 256], minCalls: 50, warmupCalls: 20 },
};

/** The full counts scaled by `factor` (rounds and concurrency unchanged, every count >= 1). */
export function scaled(factor: number): Counts {
  const n = (value: number) => Math.max(1, Math.round(value * factor));
  const plan = (full: RoundPlan): RoundPlan => ({
    ...full,
    warmupCalls: n(full.warmupCalls),
    // Never fewer calls than are in flight, or the concurrency would not be reached.
    callsPerRound: Math.max(full.concurrency, n(full.callsPerRound)),
  });
  return {
    targetsSequential: plan(FULL.targetsSequential),
    legacySequential: plan(FULL.legacySequential),
    sequential: plan(FULL.sequential),
    openapiSequential: plan(FULL.openapiSequential),
    throughput: plan(FULL.throughput),
    statelessSequential: plan(FULL.statelessSequential),
    statelessThroughput: plan(FULL.statelessThroughput),
    emulatedLink: plan(FULL.emulatedLink),
    sse: { ...FULL.sse, totalBytes: n(FULL.sse.totalBytes) },
    memory: { calls: n(FULL.memory.calls), warmupCalls: n(FULL.memory.warmupCalls) },
    profile: { calls: n(FULL.profile.calls), warmupCalls: n(FULL.profile.warmupCalls) },
    machine: {
      ...FULL.machine,
      warmupRuns: n(FULL.machine.warmupRuns),
      runsPerRound: n(FULL.machine.runsPerRound),
    },
    // Children kept (they give the spread), like rounds.
    openapi: {
      ...FULL.openapi,
      warmMounts: n(FULL.openapi.warmMounts),
      gcMounts: n(FULL.openapi.gcMounts),
      parses: n(FULL.openapi.parses),
    },
    // Levels kept (they are the curve); the calls per level scaled.
    load: {
      ...FULL.load,
      minCalls: n(FULL.load.minCalls),
      warmupCalls: n(FULL.load.warmupCalls),
    },
  };
}
