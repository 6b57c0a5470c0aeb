/**
 * Child process of benchmark 3 (started with `node --expose-gc --import tsx`): runs sequential
 * calls of one alternative against the parent's server and prints heap numbers as one JSON line.
 * Usage: node --expose-gc --import tsx bench/memory-child.ts <url> <ours|sdk> <calls> <stateful>
 */
import { type CallAlternative, oursAlternative, sdkPerCallAlternative } from './clients.js';
import { settle } from './stats.js';

const [url, which, callsText, statefulText] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (url === undefined || gc === undefined) {
  throw new Error(
    'usage: node --expose-gc --import tsx bench/memory-child.ts <url> <ours|sdk> <calls>',
  );
}
const calls = Number(callsText ?? '10000');
const stateful = statefulText === 'true';

async function heapAfterGc(): Promise<number> {
  // Several passes with a macrotask between them, so closed sockets and timers are collectable.
  for (let pass = 0; pass < 4; pass++) {
    await settle(20);
    gc?.();
  }
  return process.memoryUsage().heapUsed;
}

const alternative: CallAlternative =
  which === 'ours' ? await oursAlternative(url) : sdkPerCallAlternative(url, stateful);
const warmup = Math.min(500, calls);
for (let index = 0; index < warmup; index++) await alternative.call();
const baseline = await heapAfterGc();
const checkpoints: number[] = [];
const start = performance.now();
for (let index = 1; index <= calls; index++) {
  await alternative.call();
  if (index === calls / 2) checkpoints.push(await heapAfterGc());
}
const elapsedMs = performance.now() - start;
const final = await heapAfterGc();
await alternative.close();
console.log(
  JSON.stringify({
    name: alternative.name,
    calls,
    baseline,
    half: checkpoints[0],
    final,
    elapsedMs,
  }),
);
