/**
 * Child process of the CPU profile (started with `node --cpu-prof --cpu-prof-dir=<dir> --import
 * tsx`): warm-up, then sequential ours-calls against a server child, and one JSON line with the
 * measured window on the monotonic clock, so the runner can leave start-up and module loading out
 * of the profile.
 * Usage: node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/profile-child.ts <url> <calls> <warmup>
 */
import { oursAlternative } from './clients.js';
import { warmUp } from './stats.js';

const [url, callsText, warmupText] = process.argv.slice(2);
if (url === undefined) {
  throw new Error('usage: … bench/profile-child.ts <url> <calls> <warmup>');
}
const calls = Number(callsText ?? '1000');
const warmup = Number(warmupText ?? '100');

const alternative = await oursAlternative(url);
await warmUp(warmup, () => alternative.call());
// V8 stamps profile samples with the same monotonic clock as hrtime, in microseconds.
const startMicros = Number(process.hrtime.bigint() / 1000n);
for (let index = 0; index < calls; index++) await alternative.call();
const endMicros = Number(process.hrtime.bigint() / 1000n);
await alternative.close();
console.log(JSON.stringify({ calls, startMicros, endMicros }));
