/**
 * A client child of the per-call tables (forked by `client-process.ts` with an IPC channel): it
 * builds the alternatives the runner names, runs their calls when asked, and measures a timed run
 * itself: each call's wall time, and the process's CPU (and its main thread's) around the run and
 * the settle after it. It exits when the runner disconnects or goes away.
 */
import type { AlternativeSpec } from './alternative-specs.js';
import { buildAlternative } from './alternative-specs.js';
import type { ClientReply, ClientRequest, RoundSample } from './client-process.js';
import type { CallAlternative } from './clients.js';
import { cpuMicros, mainThreadCpuMicros, runConcurrently, settle } from './stats.js';

const built = new Map<number, CallAlternative>();
let nextHandle = 1;

function reply(message: ClientReply): void {
  process.send?.(message);
}

function alternativeOf(handle: number): CallAlternative {
  const alternative = built.get(handle);
  if (alternative === undefined) throw new Error(`no alternative ${handle}`);
  return alternative;
}

async function build(spec: AlternativeSpec): Promise<number> {
  const handle = nextHandle++;
  built.set(handle, await buildAlternative(spec));
  return handle;
}

async function timedRun(
  alternative: CallAlternative,
  calls: number,
  concurrency: number,
  settleAfterMs: number,
): Promise<RoundSample> {
  const latencies: number[] = [];
  const cpuStart = process.cpuUsage();
  const mainStart = mainThreadCpuMicros();
  const start = performance.now();
  await runConcurrently(calls, concurrency, async () => {
    const callStart = performance.now();
    await alternative.call();
    latencies.push(performance.now() - callStart);
  });
  const elapsedMs = performance.now() - start;
  // Requests a client fires without awaiting (the SDK's standalone GET) finish a little later;
  // their CPU belongs to the run that caused them.
  await settle(settleAfterMs);
  return {
    latencies,
    elapsedMs,
    cpuMicros: cpuMicros(process.cpuUsage(cpuStart)),
    mainThreadCpuMicros: mainThreadCpuMicros() - mainStart,
  };
}

async function answer(request: ClientRequest): Promise<ClientReply> {
  switch (request.type) {
    case 'build': {
      const handle = await build(request.spec);
      return { type: 'built', id: request.id, handle, name: alternativeOf(handle).name };
    }
    case 'run': {
      const alternative = alternativeOf(request.handle);
      if (!request.timed) {
        await runConcurrently(request.calls, request.concurrency, () => alternative.call());
        return { type: 'ran', id: request.id, sample: null };
      }
      const sample = await timedRun(
        alternative,
        request.calls,
        request.concurrency,
        request.settleAfterMs,
      );
      return { type: 'ran', id: request.id, sample };
    }
    case 'close':
      await alternativeOf(request.handle).close();
      built.delete(request.handle);
      return { type: 'closed', id: request.id };
  }
}

process.on('message', (request: ClientRequest) => {
  answer(request).then(reply, (error: unknown) =>
    reply({ type: 'failed', id: request.id, message: String((error as Error)?.stack ?? error) }),
  );
});
process.on('disconnect', () => process.exit(0));
