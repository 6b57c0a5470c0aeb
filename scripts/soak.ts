/**
 * `npm run soak [-- --calls N --concurrency C]`: many calls at once, each row of a table of
 * (wire, fault) in turn, over MCP 2025-11-25 and 2026-07-28 Streamable HTTP, legacy HTTP+SSE (a
 * session server of our own that plays the faults, and the MCP SDK's own SSE server with its
 * tools' faults) and OpenAPI: hangs, 401, 403, 5xx, oversized answers, malformed JSON, streams
 * that end early, sockets cut mid-answer or reset after a legacy POST; one call in ten is cancelled
 * by its caller.
 *
 * Every call is judged against its row's expected outcomes (a cancelled one may also end
 * `CANCELLED`, with the caller's exact reason) and the one definition of a typed outcome, and a
 * success only by its row's own check of the data. Prints the table (wire x fault x outcome), the
 * successes against their floor, the worst overshoot past a call's deadline (or past its
 * cancellation), the heap before and after a full GC, and the handles left once the servers are
 * closed. Exits 1 on a deviating row, a row never run, too few successes, a hang, a handle left,
 * heap growth over 10 MB or an overshoot over 250 ms (plus the event loop's
 * longest delay in the run, which no library can beat). Not a timed test: CI runs it with a small
 * count.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { type AnyRuntimeToolDefinition, CANCELLED_CODE, runTool } from '../src/binding/index.js';
import {
  defineMcpClientConnection,
  defineOpenApiConnection,
  mountConnections,
} from '../src/connections/index.js';
import { mcpHandler, startFaultServer } from '../test/fixtures/fault-server.js';
import { startMcpPeers } from '../test/fixtures/mcp-peers.js';
import { LEGACY_FAULTS, startLegacySessionServer } from '../test/support/legacy-session-server.js';
import { mulberry32 } from '../test/support/seeded-random.js';
import { untypedOutcome } from '../test/support/typed-outcome.js';
import {
  EARLY_END_TEXT,
  echoOf,
  FAULTS,
  faultOf,
  faultReply,
  HTTP_FAULT_OUTCOMES,
  LEGACY_FAULT_OUTCOMES,
  mcpAnswer,
  never,
  OPENAPI_FAULT_OUTCOMES,
  outcomeLabel,
  printTable,
  type Row,
} from './soak-table.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '16' },
  },
});
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
/**
 * Each phase's deadline; a call may take both (handshake, then the request). Generous, so a call
 * that gets its answer never times out on a loaded machine; the rows that hang run on connections
 * with the short one, so the run stays quick.
 */
const DEADLINE_MS = 5_000;
const SHORT_DEADLINE_MS = 400;
const MAX_BYTES = 8_192;
/** The most a call may end past its deadline or its cancellation, beyond the event loop's own delay. */
const MAX_OVERSHOOT_MS = 250;
const MAX_HEAP_GROWTH_BYTES = 10 * 1024 * 1024;
/**
 * The least share of calls that succeed: 5 of the 42 rows expect a success (one call in ten is
 * cancelled, some before their answer), so about 11 % do.
 */
const SUCCESS_FLOOR = 0.08;

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
    mcpHandler(
      {
        'tools/call': (request) => {
          const fault = faultOf((request.rpc?.params?.arguments as { message?: unknown })?.message);
          return faultReply(fault, mcpAnswer(request), MAX_BYTES);
        },
      },
      { stateless: true },
    ),
  );
  const openapi = await startFaultServer((request) =>
    faultReply(faultOf(new URLSearchParams(request.search).get('fault')), '{"pets":[]}', MAX_BYTES),
  );
  const peers = await startMcpPeers();
  const legacy = await startLegacySessionServer(MAX_BYTES * 2);
  /** Every wire twice: with the generous deadline, and with the short one its hang rows run under. */
  const connections = (suffix: string, timeoutMs: number) => {
    const limits = { timeoutMs, maxResponseBytes: MAX_BYTES };
    return [
      defineMcpClientConnection({
        name: `w2025${suffix}`,
        transport: { url: streamable.url, type: 'streamable-http', protocolVersion: '2025-11-25' },
        tools: { prefix: `w2025${suffix}` },
        ...limits,
      }),
      defineMcpClientConnection({
        name: `w2026${suffix}`,
        transport: { url: streamable.url, type: 'streamable-http', protocolVersion: '2026-07-28' },
        tools: { prefix: `w2026${suffix}` },
        ...limits,
      }),
      defineMcpClientConnection({
        name: `legacy${suffix}`,
        transport: { url: legacy.url, type: 'sse' },
        tools: { prefix: `legacy${suffix}` },
        ...limits,
      }),
      defineMcpClientConnection({
        name: `sdk${suffix}`,
        transport: { url: peers.url('/legacy-only'), type: 'sse' },
        tools: { prefix: `sdk${suffix}` },
        ...limits,
      }),
      defineOpenApiConnection({
        name: `pets${suffix}`,
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
    ];
  };
  const tools = await mountConnections([
    ...connections('', DEADLINE_MS),
    ...connections('_short', SHORT_DEADLINE_MS),
  ]);
  /** The tool `name` of a wire's connection: the short-deadline one for a row that hangs. */
  const toolOf = (prefix: string, name: string, hangs = false) =>
    tools.find(
      (tool) => tool.name === `${prefix}${hangs ? '_short' : ''}__${name}`,
    ) as AnyRuntimeToolDefinition;
  const rows: Row[] = [
    ...FAULTS.flatMap((fault) => [
      ...(['2025', '2026'] as const).map((wire) => ({
        wire,
        fault,
        tool: toolOf(`w${wire}`, 'echo', fault === 'hang'),
        hangs: fault === 'hang',
        input: { message: fault },
        expected: HTTP_FAULT_OUTCOMES[fault],
        success: fault === 'ok' ? echoOf(fault) : never,
      })),
      {
        wire: 'openapi',
        fault,
        tool: toolOf('pets', 'listPets', fault === 'hang'),
        hangs: fault === 'hang',
        input: { fault },
        expected: OPENAPI_FAULT_OUTCOMES[fault],
        success: (data: unknown) =>
          fault === 'ok'
            ? isDeepStrictEqual(data, { pets: [] })
            : fault === 'early-end' && data === EARLY_END_TEXT,
      },
    ]),
    ...LEGACY_FAULTS.map((fault) => ({
      wire: 'legacy',
      fault,
      tool: toolOf('legacy', 'echo', fault === 'hang'),
      hangs: fault === 'hang',
      input: { message: fault },
      expected: LEGACY_FAULT_OUTCOMES[fault],
      success: fault === 'ok' ? echoOf(fault) : never,
    })),
    // The MCP SDK's own legacy SSE server: its tools' own faults.
    {
      wire: 'legacy-sdk',
      fault: 'ok',
      tool: toolOf('sdk', 'echo'),
      input: { message: 'hi' },
      expected: ['ok'],
      success: echoOf('hi'),
    },
    {
      wire: 'legacy-sdk',
      fault: 'slow',
      tool: toolOf('sdk', 'slow', true),
      hangs: true,
      input: { ms: SHORT_DEADLINE_MS * 3 },
      expected: ['CONNECTION_TIMEOUT'],
      success: never,
    },
    {
      wire: 'legacy-sdk',
      fault: 'tool-error',
      tool: toolOf('sdk', 'fail'),
      input: {},
      // The upstream's own structured refusal, relayed with its code.
      expected: ['ITEM_NOT_FOUND'],
      success: never,
    },
    {
      wire: 'legacy-sdk',
      fault: 'oversized',
      tool: toolOf('sdk', 'big'),
      input: { bytes: MAX_BYTES * 2 },
      expected: ['CONNECTION_RESPONSE_TOO_LARGE'],
      success: never,
    },
  ];

  const chance = mulberry32(20_261_203);
  const tally = new Map<string, number>();
  const deviations = new Map<string, number>();
  let successes = 0;
  let hangs = 0;
  let worstOvershoot = 0;
  let worstLabel = '';
  const run = async (index: number): Promise<void> => {
    const row = rows[index % rows.length] as Row;
    const deadline = row.hangs ? SHORT_DEADLINE_MS : DEADLINE_MS;
    const cancelAfter = chance() < 0.1 ? Math.floor(chance() * SHORT_DEADLINE_MS) : undefined;
    const controller = new AbortController();
    const reason = new Error(`soak cancellation ${index}`);
    const timer =
      cancelAfter === undefined
        ? undefined
        : setTimeout(() => controller.abort(reason), cancelAfter);
    const started = performance.now();
    let watchdog: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => {
      watchdog = setTimeout(() => resolve('hung'), deadline * 2 + 5_000);
    });
    const outcome = await Promise.race([
      runTool(row.tool, row.input, { source: 'agent', signal: controller.signal }),
      hung,
    ]);
    clearTimeout(watchdog);
    clearTimeout(timer);
    if (outcome === 'hung') {
      hangs += 1;
      return;
    }
    const elapsed = performance.now() - started;
    const cancelled = cancelAfter !== undefined && controller.signal.aborted;
    // A call may take its handshake window and its request window; a cancelled one, until its abort.
    const bound = cancelled ? cancelAfter : deadline * 2;
    const overshoot = Math.max(0, elapsed - bound);
    if (overshoot > worstOvershoot) {
      worstOvershoot = overshoot;
      worstLabel = `${row.wire} ${row.fault}${cancelled ? ' (cancelled)' : ''}`;
    }
    const label = outcomeLabel(outcome);
    const key = `${row.wire}\t${row.fault}\t${label}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    if (outcome.ok) successes += 1;
    const untyped = untypedOutcome(outcome, {
      success: row.success,
      ...(cancelled ? { cancelReason: reason } : {}),
    });
    // A cancelled call ends CANCELLED, or as its row does when its answer came first.
    const expected = row.expected.includes(label) || (cancelled && label === CANCELLED_CODE);
    if (untyped !== undefined || !expected) {
      const where = (outcome as { details?: { operation?: unknown } }).details?.operation;
      const what = untyped ?? `${label}${where === undefined ? '' : ` during ${String(where)}`}`;
      const key = `${row.wire} ${row.fault}: ${what}, expected ${row.expected.join(' or ')}`;
      deviations.set(key, (deviations.get(key) ?? 0) + 1);
    }
  };

  // Warm up, then measure the heap from a collected baseline.
  for (let index = 0; index < rows.length; index++) await run(index);
  tally.clear();
  deviations.clear();
  successes = 0;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  // A loaded machine delays every timer and callback; what the library adds is the rest.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CALLS) await run(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  loopDelay.disable();
  const loopDelayMaxMs = loopDelay.max / 1e6;
  const allowedOvershootMs = MAX_OVERSHOOT_MS + loopDelayMaxMs;
  // The servers' own state (the SDK's sessions, the fault servers' logs) is not the client's:
  // the heap is read once they are closed, after the sockets settle.
  await Promise.all([streamable.close(), openapi.close(), peers.close(), legacy.close()]);
  // The fixtures log every request they saw; that log is theirs, not the client's.
  for (const server of [streamable, openapi]) (server.requests as unknown[]).length = 0;
  peers.resetLog();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const left = handlesLeft(handlesBefore, handles());

  console.log(`soak: ${CALLS} calls at concurrency ${CONCURRENCY} in ${seconds.toFixed(1)} s`);
  printTable(rows, tally);
  const growth = heapAfter - heapBefore;
  const floor = Math.floor(CALLS * SUCCESS_FLOOR);
  console.log(
    `successes: ${successes} (floor ${floor}); deviations: ${[...deviations.values()].reduce((sum, count) => sum + count, 0)}; hangs: ${hangs}`,
  );
  console.log(
    `worst overshoot: ${worstOvershoot.toFixed(0)} ms (${worstLabel || 'none'}); event-loop delay: max ${loopDelayMaxMs.toFixed(0)} ms, so at most ${allowedOvershootMs.toFixed(0)} ms allowed`,
  );
  console.log(
    `heap after GC: ${(heapBefore / 1e6).toFixed(2)} MB before, ${(heapAfter / 1e6).toFixed(2)} MB after (${(growth / 1e6).toFixed(2)} MB)`,
  );
  console.log(`handles left: ${left.length === 0 ? 'none' : left.join(', ')}`);
  const unreached = rows.filter(
    (row) => ![...tally.keys()].some((key) => key.startsWith(`${row.wire}\t${row.fault}\t`)),
  );
  const failures = [
    ...[...deviations].map(([what, count]) => `${count} x ${what}`),
    ...(unreached.length > 0
      ? [`rows never run: ${unreached.map((row) => `${row.wire} ${row.fault}`)}`]
      : []),
    ...(successes < floor ? [`${successes} successes, under the floor of ${floor}`] : []),
    ...(hangs > 0 ? [`${hangs} calls hung`] : []),
    ...(worstOvershoot > allowedOvershootMs ? [`overshoot ${worstOvershoot.toFixed(0)} ms`] : []),
    ...(growth > MAX_HEAP_GROWTH_BYTES ? [`heap grew ${(growth / 1e6).toFixed(2)} MB`] : []),
    ...(left.length > 0 ? [`handles left: ${left.join(', ')}`] : []),
  ];
  if (failures.length > 0) {
    console.error(`soak FAILED:\n${failures.join('\n')}`);
    process.exitCode = 1;
  }
}

await main();
