/**
 * Child process of the memory benchmark (started with `node --expose-gc --import tsx`): after its
 * warm-up, measures the bytes one call allocates (sequential calls; see {@link allocatedPerCall}),
 * then runs `calls` calls of one alternative against a server child, `inFlight` at a time (default
 * 1: sequential), and prints one JSON line with the allocation, the heap after forced GCs (before,
 * halfway, after) and the active resources left after closing, beyond those the process had
 * before its first call. With `calls` 0 it measures the allocation only.
 * Usage: node --expose-gc --import tsx bench/memory-child.ts <url> <ours|sdk-per-call|raw-fetch|raw-undici> <calls> <stateful> [warmup] [inFlight]
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { buildAlternative, isStreamableId, streamableSpec } from './alternative-specs.js';
import type { CallAlternative } from './clients.js';
import { heapAfterGc, median, runConcurrently, settle, warmUp } from './stats.js';

const [url, which, callsText, statefulText, warmupText, inFlightText] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (url === undefined || gc === undefined) {
  throw new Error(
    'usage: node --expose-gc --import tsx bench/memory-child.ts <url> <ours|sdk-per-call|raw-fetch|raw-undici> <calls> <stateful> [warmup] [inFlight]',
  );
}
const calls = Number(callsText ?? '10000');
const inFlight = Number(inFlightText ?? '1');
const stateful = statefulText === 'true';
// Idle keep-alive sockets of fetch's shared pool close when the server's keep-alive timeout
// (5 s, see servers/serve.ts) passes; anything still there after this is really left behind.
const IDLE_WAIT_MS = 8_000;

function countByType(resources: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of resources) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/** The resources active now beyond `baseline`, as `Type x count`. */
function resourcesBeyond(baseline: Map<string, number>): string[] {
  const left: string[] = [];
  for (const [type, count] of countByType(process.getActiveResourcesInfo())) {
    const extra = count - (baseline.get(type) ?? 0);
    if (extra > 0) left.push(`${type} x ${extra}`);
  }
  return left;
}

/** Sequential calls whose allocation is sampled. */
const ALLOCATION_CALLS = 200;

/** Every heap space's used bytes: it only grows between two collections. */
function heapSpaceUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) used += space.space_used_size;
  return used;
}

/**
 * The median of what one sequential call adds to the heap's used bytes, over the calls during
 * which no collection ran (a collection shrinks the figure, so those calls are left out): the
 * bytes one call allocates, garbage included. Returns it and how many calls were kept.
 */
async function allocatedPerCall(target: CallAlternative): Promise<[number, number]> {
  const grown: number[] = [];
  for (let index = 0; index < ALLOCATION_CALLS; index++) {
    const before = heapSpaceUsed();
    await target.call();
    const after = heapSpaceUsed();
    if (after > before) grown.push(after - before);
  }
  return [median(grown), grown.length];
}

const baselineResources = countByType(process.getActiveResourcesInfo());
if (!isStreamableId(which)) throw new Error(`unknown alternative ${which}`);
const alternative = await buildAlternative(streamableSpec(which, url, stateful));
const warmup = Number(warmupText ?? '500');
await warmUp(warmup, () => alternative.call());
const [allocatedBytesPerCall, allocationCalls] = await allocatedPerCall(alternative);
const baseline = await heapAfterGc();
const checkpoints: number[] = [];
const start = performance.now();
const firstHalf = Math.floor(calls / 2);
await runConcurrently(firstHalf, inFlight, () => alternative.call());
checkpoints.push(await heapAfterGc());
await runConcurrently(calls - firstHalf, inFlight, () => alternative.call());
const elapsedMs = performance.now() - start;
const final = await heapAfterGc();
await alternative.close();
await settle(100);
const leftAfterClose = resourcesBeyond(baselineResources);
const idleStart = performance.now();
let leftAfterIdle = leftAfterClose;
while (leftAfterIdle.length > 0 && performance.now() - idleStart < IDLE_WAIT_MS) {
  await settle(250);
  leftAfterIdle = resourcesBeyond(baselineResources);
}
console.log(
  JSON.stringify({
    name: alternative.name,
    allocatedBytesPerCall,
    allocationCalls,
    allocationSampled: ALLOCATION_CALLS,
    calls,
    inFlight,
    baseline,
    half: checkpoints[0],
    final,
    elapsedMs,
    leftAfterClose,
    leftAfterIdle,
    idleWaitMs: Math.round(performance.now() - idleStart),
  }),
);
