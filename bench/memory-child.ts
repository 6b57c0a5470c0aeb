/**
 * Child process of the memory benchmark (started with `node --expose-gc --import tsx`): runs
 * calls of one alternative against a server child, `inFlight` at a time (default 1: sequential),
 * then prints one JSON line with the
 * heap after forced GCs (before, halfway, after) and the active resources left after closing,
 * beyond those the process had before its first call.
 * Usage: node --expose-gc --import tsx bench/memory-child.ts <url> <ours|sdk> <calls> <stateful> [warmup] [inFlight]
 */
import { type CallAlternative, oursAlternative, sdkPerCallAlternative } from './clients.js';
import { runConcurrently, settle } from './stats.js';

const [url, which, callsText, statefulText, warmupText, inFlightText] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (url === undefined || gc === undefined) {
  throw new Error(
    'usage: node --expose-gc --import tsx bench/memory-child.ts <url> <ours|sdk> <calls> <stateful> [warmup] [inFlight]',
  );
}
const calls = Number(callsText ?? '10000');
const inFlight = Number(inFlightText ?? '1');
const stateful = statefulText === 'true';
// Idle keep-alive sockets of fetch's shared pool close when the server's keep-alive timeout
// (5 s, see servers/serve.ts) passes; anything still there after this is really left behind.
const IDLE_WAIT_MS = 8_000;

async function heapAfterGc(): Promise<number> {
  // Several passes with a macrotask between them, so closed sockets and timers are collectable.
  for (let pass = 0; pass < 4; pass++) {
    await settle(20);
    gc?.();
  }
  return process.memoryUsage().heapUsed;
}

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

const baselineResources = countByType(process.getActiveResourcesInfo());
const alternative: CallAlternative =
  which === 'ours' ? await oursAlternative(url) : sdkPerCallAlternative(url, stateful);
const warmup = Number(warmupText ?? '500');
for (let index = 0; index < warmup; index++) await alternative.call();
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
