/**
 * Runs every benchmark side by side against one local MCP SDK server and prints the tables.
 * `npx tsx bench/run.ts` (about two minutes on an idle 2-core machine); `--quick` for a smoke run.
 */
import { loadavg } from 'node:os';
import { runMachineOverhead } from './machine-overhead.js';
import { runMemory } from './memory.js';
import { type PerCallResult, runPerCall } from './per-call.js';
import { startBenchServer } from './server.js';
import { runSseParse } from './sse-parse.js';
import { fmt, machineInfo, printTable } from './stats.js';

const quick = process.argv.includes('--quick');
const scale = quick ? 0.2 : 1;
const count = (full: number) => Math.max(1, Math.round(full * scale));

const loadText = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

console.log('stitchkit-transport benchmarks');
console.log(machineInfo());
console.log(`load average at start: ${loadText()}${quick ? '  (--quick: reduced counts)' : ''}`);

const started = performance.now();
const server = await startBenchServer();
try {
  console.log('\n== 1. Per-call latency and throughput (MCP SDK McpServer, JSON responses) ==');
  const perCall: PerCallResult[] = [];
  for (const path of ['/stateless', '/stateful'] as const) {
    perCall.push(
      await runPerCall(server, path, {
        warmupCalls: count(50),
        rounds: 5,
        sequentialCallsPerRound: count(40),
        concurrentCallsPerRound: count(160),
        concurrency: 16,
        countedCalls: 10,
      }),
    );
  }

  console.log('\n== 2. SSE parse throughput ==');
  await runSseParse({ totalBytes: count(20) * 1_000_000, chunkBytes: 64 * 1024, rounds: 5 });

  console.log('\n== 3. Memory per 10k calls ==');
  await runMemory(server, { calls: count(10_000), path: '/stateless' });

  console.log('\n== 4. Machine overhead ==');
  const machine = await runMachineOverhead({
    warmupRuns: count(1000),
    rounds: 5,
    runsPerRound: count(2000),
  });

  console.log('\nMachine cost as a share of one real call (ours, sequential median latency):');
  printTable(
    ['server', 'machine us/run', 'ours us/call', 'share'],
    perCall.map((result, index) => {
      const run = machine[index] ?? machine[0];
      const oursMicros = (result.results[0]?.latencyMedianMs ?? Number.NaN) * 1000;
      const machineMicros = run?.microsecondsMedian ?? Number.NaN;
      return [
        result.path,
        fmt(machineMicros, 1),
        fmt(oursMicros, 1),
        `${fmt((machineMicros / oursMicros) * 100, 1)}%`,
      ];
    }),
  );
} finally {
  await server.close();
}
console.log(
  `\ntotal ${fmt((performance.now() - started) / 1000, 1)} s; load average at end: ${loadText()}`,
);
