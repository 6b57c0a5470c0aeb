/**
 * Benchmark 1: per-call latency and throughput of one `echo` call, every alternative against the
 * same local MCP SDK server in one run, rounds interleaved so drift hits all of them alike.
 */
import {
  type CallAlternative,
  oursAlternative,
  rawFetchAlternative,
  sdkPerCallAlternative,
  sdkSharedAlternative,
} from './clients.js';
import type { BenchPath, BenchServer, RequestCounts } from './server.js';
import { fmt, median, p95, printTable, ratio, runConcurrently, settle } from './stats.js';

export interface PerCallOptions {
  readonly warmupCalls: number;
  readonly rounds: number;
  readonly sequentialCallsPerRound: number;
  readonly concurrentCallsPerRound: number;
  readonly concurrency: number;
  readonly countedCalls: number;
}

export interface AlternativeResult {
  readonly name: string;
  readonly latencyMedianMs: number;
  readonly latencyP95Ms: number;
  /** Median over rounds of calls/s with `concurrency` in flight. */
  readonly throughputMedian: number;
  /** calls/s of the p95 round time (the slow tail of rounds). */
  readonly throughputP95: number;
  readonly requestsPerCall: RequestCounts;
}

export interface PerCallResult {
  readonly path: BenchPath;
  readonly results: readonly AlternativeResult[];
}

async function alternativesFor(server: BenchServer, path: BenchPath) {
  const url = server.url(path);
  const stateful = path === '/stateful';
  return [
    await oursAlternative(url),
    sdkPerCallAlternative(url, stateful),
    await sdkSharedAlternative(url),
    rawFetchAlternative(url, stateful),
    rawFetchAlternative(url, stateful, true),
  ];
}

async function countRequests(
  server: BenchServer,
  alternative: CallAlternative,
  calls: number,
): Promise<RequestCounts> {
  await settle(20);
  server.resetCounts();
  for (let index = 0; index < calls; index++) await alternative.call();
  // Requests a client fires without awaiting (the SDK's standalone GET) arrive a little later.
  await settle(50);
  const perCall: RequestCounts = {};
  for (const [method, count] of Object.entries(server.counts())) perCall[method] = count / calls;
  return perCall;
}

function formatCounts(counts: RequestCounts): string {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const parts = ['POST', 'GET', 'DELETE']
    .filter((method) => (counts[method] ?? 0) > 0)
    .map(
      (method) =>
        `${fmt(counts[method] ?? 0, counts[method] === Math.round(counts[method] ?? 0) ? 0 : 2)} ${method}`,
    );
  return `${fmt(total, Number.isInteger(total) ? 0 : 2)} (${parts.join(', ')})`;
}

/** Runs benchmark 1 for one server path and prints its tables. */
export async function runPerCall(
  server: BenchServer,
  path: BenchPath,
  options: PerCallOptions,
): Promise<PerCallResult> {
  const alternatives = await alternativesFor(server, path);
  for (const alternative of alternatives) {
    for (let index = 0; index < options.warmupCalls; index++) await alternative.call();
  }
  const latencies = alternatives.map(() => [] as number[]);
  const roundTimes = alternatives.map(() => [] as number[]);
  for (let round = 0; round < options.rounds; round++) {
    for (const [index, alternative] of alternatives.entries()) {
      const samples = latencies[index] as number[];
      for (let call = 0; call < options.sequentialCallsPerRound; call++) {
        const start = performance.now();
        await alternative.call();
        samples.push(performance.now() - start);
      }
    }
    for (const [index, alternative] of alternatives.entries()) {
      const start = performance.now();
      await runConcurrently(options.concurrentCallsPerRound, options.concurrency, () =>
        alternative.call(),
      );
      (roundTimes[index] as number[]).push(performance.now() - start);
    }
  }
  const results: AlternativeResult[] = [];
  for (const [index, alternative] of alternatives.entries()) {
    const times = roundTimes[index] as number[];
    results.push({
      name: alternative.name,
      latencyMedianMs: median(latencies[index] as number[]),
      latencyP95Ms: p95(latencies[index] as number[]),
      throughputMedian: options.concurrentCallsPerRound / (median(times) / 1000),
      throughputP95: options.concurrentCallsPerRound / (p95(times) / 1000),
      requestsPerCall: await countRequests(server, alternative, options.countedCalls),
    });
  }
  for (const alternative of alternatives) await alternative.close();
  printPerCall(path, results, options);
  return { path, results };
}

function printPerCall(
  path: BenchPath,
  results: readonly AlternativeResult[],
  options: PerCallOptions,
): void {
  const ours = results[0] as AlternativeResult;
  console.log(
    `\n${path}: sequential latency (${options.rounds} rounds x ${options.sequentialCallsPerRound} calls, ms per call)` +
      ` and throughput (${options.rounds} rounds x ${options.concurrentCallsPerRound} calls, ${options.concurrency} in flight)`,
  );
  printTable(
    [
      'alternative',
      'median ms',
      'p95 ms',
      'latency ours/alt',
      'calls/s',
      'calls/s (p95 round)',
      'calls/s ours/alt',
      'HTTP requests per call',
    ],
    results.map((result) => [
      result.name,
      fmt(result.latencyMedianMs, 3),
      fmt(result.latencyP95Ms, 3),
      ratio(ours.latencyMedianMs, result.latencyMedianMs),
      fmt(result.throughputMedian, 0),
      fmt(result.throughputP95, 0),
      // Throughput ratio as ours / alternative: below 1x means ours does fewer calls per second.
      ratio(ours.throughputMedian, result.throughputMedian),
      formatCounts(result.requestsPerCall),
    ]),
  );
}
