/**
 * `npm run soak [-- --calls N --concurrency C]`: many calls at once against servers that fail in
 * every way the test fault server can (hangs, 401, 403, 5xx, oversized answers, malformed JSON,
 * streams that end early, sockets cut mid-answer), with one call in ten cancelled by its caller,
 * over Streamable HTTP, legacy HTTP+SSE (the MCP SDK's own SSE server) and OpenAPI.
 *
 * Prints the tally by wire and outcome, the worst overshoot past a call's deadline (or past its
 * cancellation), the heap before and after a full GC, and the handles left once the servers are
 * closed. Exits 1 on an untyped outcome, a hang, a handle left, heap growth over 10 MB or an
 * overshoot over 250 ms. Not a timed test: CI runs it with a small count.
 */
import { parseArgs } from 'node:util';
import { type AnyRuntimeToolDefinition, runTool } from '../src/binding/index.js';
import {
  defineMcpClientConnection,
  defineOpenApiConnection,
  mountConnections,
} from '../src/connections/index.js';
import {
  answerRpc,
  type FaultReply,
  mcpHandler,
  reply,
  startFaultServer,
} from '../test/fixtures/fault-server.js';
import { startMcpPeers } from '../test/fixtures/mcp-peers.js';
import { isTypedResult } from '../test/support/typed-outcome.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '16' },
  },
});
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
/** Each phase's deadline; a call may take both (handshake, then the request). */
const DEADLINE_MS = 400;
const MAX_BYTES = 8_192;
const MAX_OVERSHOOT_MS = 250;
const MAX_HEAP_GROWTH_BYTES = 10 * 1024 * 1024;

/** Deterministic randomness (mulberry32), so a run can be repeated. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The transport faults, answered to Streamable HTTP `tools/call`s and OpenAPI calls. */
const FAULTS = [
  'ok',
  'hang',
  '401',
  '403',
  '500',
  '503',
  'oversized',
  'malformed',
  'early-end',
  'cut',
] as const;
type Fault = (typeof FAULTS)[number];

function faultReply(fault: Fault, okBody: string, contentType = 'application/json'): FaultReply {
  switch (fault) {
    case 'ok':
      return reply.raw(200, { 'content-type': contentType }, [okBody]);
    case 'hang':
      return reply.hang();
    case '401':
      return reply.status(401, '', { 'www-authenticate': 'Bearer error="invalid_token"' });
    case '403':
      return reply.status(403, 'no');
    case '500':
      return reply.status(500, 'boom');
    case '503':
      return reply.status(503, 'busy', { 'retry-after': '1' });
    case 'oversized':
      return reply.raw(200, { 'content-type': 'application/json' }, [
        '['.padEnd(MAX_BYTES * 2, ' '),
      ]);
    case 'malformed':
      return reply.raw(200, { 'content-type': 'application/json' }, ['{"jsonrpc":"2.0","id":']);
    case 'early-end':
      return reply.sse([': a comment, then the stream ends\n\n']);
    case 'cut':
      return reply.raw(
        200,
        { 'content-type': 'application/json', 'content-length': '400' },
        ['{"jsonrpc"'],
        {
          cut: true,
        },
      );
  }
}

const faultOf = (text: unknown): Fault => (FAULTS.includes(text as Fault) ? (text as Fault) : 'ok');

function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

function handlesLeft(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.entries(after)
    .filter(([name, count]) => count > (before[name] ?? 0))
    .map(([name, count]) => `${name} +${count - (before[name] ?? 0)}`);
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function main(): Promise<void> {
  if ((globalThis as { gc?: unknown }).gc === undefined) {
    throw new Error('run with node --expose-gc (npm run soak does)');
  }
  const handlesBefore = handles();
  const streamable = await startFaultServer(
    mcpHandler({
      'tools/call': (request) => {
        const fault = faultOf((request.rpc?.params?.arguments as { message?: unknown })?.message);
        return faultReply(fault, JSON.stringify(answerRpc(request)));
      },
    }),
  );
  const openapi = await startFaultServer((request) =>
    faultReply(faultOf(new URLSearchParams(request.search).get('fault')), '{"pets":[]}'),
  );
  const peers = await startMcpPeers();
  const limits = { timeoutMs: DEADLINE_MS, maxResponseBytes: MAX_BYTES };
  const tools = await mountConnections([
    defineMcpClientConnection({
      name: 'streamable',
      transport: { url: streamable.url, type: 'streamable-http', protocolVersion: '2025-11-25' },
      ...limits,
    }),
    defineMcpClientConnection({
      name: 'legacy',
      transport: { url: peers.url('/legacy-only'), type: 'sse' },
      tools: { prefix: 'legacy' },
      ...limits,
    }),
    defineOpenApiConnection({
      name: 'pets',
      spec: {
        openapi: '3.0.3',
        info: { title: 'pets', version: '1' },
        servers: [{ url: openapi.origin }],
        paths: {
          '/pets': {
            get: {
              operationId: 'listPets',
              parameters: [{ name: 'fault', in: 'query', schema: { type: 'string' } }],
              responses: { 200: { description: 'ok' } },
            },
          },
        },
      },
      ...limits,
    }),
  ]);
  const byName = (name: string) =>
    tools.find((tool) => tool.name === name) as AnyRuntimeToolDefinition;
  /** Legacy faults are the SDK server's own: a slow tool past the deadline, a failing one, an oversized one. */
  const legacyCalls: readonly [string, Record<string, unknown>][] = [
    ['legacy__echo', { message: 'hi' }],
    ['legacy__slow', { ms: DEADLINE_MS * 3 }],
    ['legacy__fail', {}],
    ['legacy__big', { bytes: MAX_BYTES * 2 }],
  ];
  const wires = ['streamable', 'legacy', 'openapi'] as const;
  const plan = (index: number) => {
    const wire = wires[index % 3] as (typeof wires)[number];
    const fault = FAULTS[Math.floor(index / 3) % FAULTS.length] as Fault;
    if (wire === 'streamable')
      return { wire, label: fault, tool: byName('echo'), input: { message: fault } };
    if (wire === 'openapi')
      return { wire, label: fault, tool: byName('pets__listPets'), input: { fault } };
    const [name, input] = legacyCalls[Math.floor(index / 3) % legacyCalls.length] as [
      string,
      Record<string, unknown>,
    ];
    return { wire, label: name.replace('legacy__', ''), tool: byName(name), input };
  };

  const chance = random(20_261_203);
  const tally = new Map<string, number>();
  const untyped: string[] = [];
  let hangs = 0;
  let worstOvershoot = 0;
  let worstLabel = '';
  const run = async (index: number): Promise<void> => {
    const { wire, label, tool, input } = plan(index);
    const cancelAfter = chance() < 0.1 ? Math.floor(chance() * DEADLINE_MS) : undefined;
    const controller = new AbortController();
    const reason = new Error(`soak cancellation ${index}`);
    const timer =
      cancelAfter === undefined
        ? undefined
        : setTimeout(() => controller.abort(reason), cancelAfter);
    const started = performance.now();
    let watchdog: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => {
      watchdog = setTimeout(() => resolve('hung'), DEADLINE_MS * 2 + 5_000);
    });
    const outcome = await Promise.race([
      runTool(tool, input, { source: 'agent', signal: controller.signal }),
      hung,
    ]);
    clearTimeout(watchdog);
    clearTimeout(timer);
    if (outcome === 'hung') {
      hangs += 1;
      return;
    }
    const elapsed = performance.now() - started;
    // A call may take its handshake window and its request window; a cancelled one, until its abort.
    const bound =
      cancelAfter !== undefined && controller.signal.aborted ? cancelAfter : DEADLINE_MS * 2;
    const overshoot = Math.max(0, elapsed - bound);
    if (overshoot > worstOvershoot) {
      worstOvershoot = overshoot;
      worstLabel = `${wire} ${label}${controller.signal.aborted ? ' (cancelled)' : ''}`;
    }
    const key = `${wire.padEnd(10)} ${label.padEnd(10)} ${outcome.ok ? 'ok' : outcome.code}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    if (!isTypedResult(outcome, reason))
      untyped.push(`${key}: ${JSON.stringify(outcome).slice(0, 160)}`);
  };

  // Warm up, then measure the heap from a collected baseline.
  for (let index = 0; index < 30; index++) await run(index);
  tally.clear();
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CALLS) await run(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // The servers' own state (the SDK's sessions, the fault servers' logs) is not the client's:
  // the heap is read once they are closed, after the sockets settle.
  await Promise.all([streamable.close(), openapi.close(), peers.close()]);
  // The fixtures log every request they saw; that log is theirs, not the client's.
  for (const server of [streamable, openapi]) (server.requests as unknown[]).length = 0;
  peers.resetLog();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const left = handlesLeft(handlesBefore, handles());

  console.log(`soak: ${CALLS} calls at concurrency ${CONCURRENCY} in ${seconds.toFixed(1)} s`);
  console.log('wire       fault      outcome                              calls');
  for (const [key, count] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${key.padEnd(54)} ${String(count).padStart(5)}`);
  }
  const growth = heapAfter - heapBefore;
  console.log(`untyped outcomes: ${untyped.length}; hangs: ${hangs}`);
  console.log(`worst overshoot: ${worstOvershoot.toFixed(0)} ms (${worstLabel || 'none'})`);
  console.log(
    `heap after GC: ${(heapBefore / 1e6).toFixed(2)} MB before, ${(heapAfter / 1e6).toFixed(2)} MB after (${(growth / 1e6).toFixed(2)} MB)`,
  );
  console.log(`handles left: ${left.length === 0 ? 'none' : left.join(', ')}`);
  const failures = [
    ...untyped.slice(0, 10),
    ...(hangs > 0 ? [`${hangs} calls hung`] : []),
    ...(worstOvershoot > MAX_OVERSHOOT_MS ? [`overshoot ${worstOvershoot.toFixed(0)} ms`] : []),
    ...(growth > MAX_HEAP_GROWTH_BYTES ? [`heap grew ${(growth / 1e6).toFixed(2)} MB`] : []),
    ...(left.length > 0 ? [`handles left: ${left.join(', ')}`] : []),
  ];
  if (failures.length > 0) {
    console.error(`soak FAILED:\n${failures.join('\n')}`);
    process.exitCode = 1;
  }
}

await main();
