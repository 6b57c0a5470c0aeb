/**
 * Runs every benchmark against server child processes and prints the tables and the targets.
 * `npm run bench` (full counts), `npm run bench -- --quick` (a smoke run with tiny counts),
 * `--only mcp` (sections 1 to 7), `--only openapi` (sections 8 and 9, the OpenAPI service only),
 * `--only search` (section 13, catalog search), `--only load` (section 14, the load curve),
 * `--only cold` (section 15, cold start),
 * `--results <file>` to also write the run as Markdown, `--seed N` to replay a run's order of
 * alternatives (see bench/README.md).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { QUERY_TARGET_MS, runCatalogSearch } from './catalog-search.js';
import { killAllClients } from './child-run.js';
import { ClientProcesses } from './client-process.js';
import { coldTargets, runColdStart } from './cold-start.js';
import { FULL, QUICK, scaled } from './counts.js';
import { runCpuProfile } from './cpu-profile.js';
import { loadTargets, runLoadCurve } from './load.js';
import { type MachineResult, runMachineOverhead } from './machine-overhead.js';
import { runMemory } from './memory.js';
import { runOpenApiMount } from './openapi-mount.js';
import {
  type PerCallResult,
  runLegacyPerCall,
  runOpenApiPerCall,
  runStreamablePerCall,
  runThroughput,
} from './per-call.js';
import { writeResults } from './results-file.js';
import { seedOf } from './run-order.js';
import { MCP_SERVER_IDS, SERVERS, type ServerId } from './server-list.js';
import { killAllServers, type ServerProcess, startServers } from './server-process.js';
import { runSseParse } from './sse-parse.js';
import { runStatelessSections } from './stateless.js';
import { fmt, machineInfo, printTable } from './stats.js';
import { computeTargets, openApiTargets, printTargets, type TargetRow } from './targets.js';
import { log } from './transcript.js';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    scale: { type: 'string' },
    results: { type: 'string' },
    only: { type: 'string' },
    seed: { type: 'string' },
  },
});
const only = flags.only;
if (
  only !== undefined &&
  only !== 'mcp' &&
  only !== 'openapi' &&
  only !== '2026' &&
  only !== 'search' &&
  only !== 'load' &&
  only !== 'cold'
) {
  throw new Error(
    '--only takes mcp (sections 1 to 7), openapi (sections 8 and 9), 2026 (sections 10 to 12), search (section 13), load (section 14) or cold (section 15)',
  );
}
const scale = flags.scale === undefined ? undefined : Number(flags.scale);
if (scale !== undefined && !(scale > 0)) throw new Error('--scale needs a positive number');
if (scale !== undefined && flags.quick) throw new Error('--quick and --scale do not combine');
const counts = flags.quick ? QUICK : scale === undefined ? FULL : scaled(scale);
// Every table runs its alternatives in an order rotated per round from this seed (run-order.ts).
const seed = seedOf(flags.seed);
const mode = flags.quick
  ? '  (--quick: tiny counts)'
  : scale === undefined
    ? ''
    : `  (--scale ${scale})`;
const startedAt = new Date();
const started = performance.now();
const argv = process.argv.slice(2).join(' ');
const command =
  process.env.npm_lifecycle_event === 'bench'
    ? `npm run bench${argv === '' ? '' : ` -- ${argv}`}`
    : `npx tsx bench/run.ts${argv === '' ? '' : ` ${argv}`}`;

const loadText = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

// An interrupted run must not leave server or client children behind.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAllServers();
    killAllClients();
    process.exit(130);
  });
}

log('stitchkit-transport benchmarks');
log(machineInfo());
log(`command: ${command}`);
log(`load average at start: ${loadText()}${mode}${only === undefined ? '' : `  (--only ${only})`}`);
log(`order seed: ${seed} (the alternatives' order in every round; --seed ${seed} replays it)`);

/** Prints a section title, runs it, and prints how long it took (for planning the counts). */
async function section<T>(title: string, run: () => Promise<T>): Promise<T> {
  log(`\n== ${title} ==`);
  const start = performance.now();
  const result = await run();
  log(`(${fmt((performance.now() - start) / 1000, 1)} s)`);
  return result;
}

/** Sections 1 to 7 against the MCP server children (stopped at the end); returns their targets. */
async function runMcpSections(): Promise<TargetRow[]> {
  const mcpServers = SERVERS.filter((spec) => MCP_SERVER_IDS.includes(spec.id));
  const servers = await startServers(mcpServers.filter((spec) => spec.script !== undefined));
  // The per-call tables' client children, one per alternative, shared by sections 1 to 3 and
  // stopped after them.
  const clients = new ClientProcesses();
  const table = { clients, seed };
  const server = (id: ServerId): ServerProcess => {
    const found = servers.find((entry) => entry.spec.id === id);
    if (found === undefined) throw new Error(`server ${id} is not running`);
    return found;
  };
  try {
    log('\nServers (one child process each):');
    printTable(
      ['server', 'pid', 'url'],
      mcpServers.map((spec) => {
        const running = servers.find((entry) => entry.spec.id === spec.id);
        return [
          spec.title,
          running ? String(running.pid) : '-',
          running?.url ?? `not started: ${spec.planned}`,
        ];
      }),
      3,
    );

    const [sessionless, stateful] = await section(
      '1. Per-call latency and client CPU (Streamable HTTP)',
      async () => [
        await runStreamablePerCall(server('sessionless'), table, counts.targetsSequential),
        await runStreamablePerCall(server('stateful'), table, counts.sequential),
      ],
    );

    const legacy = await section('2. Per-call latency and client CPU (legacy HTTP+SSE)', () =>
      runLegacyPerCall(server('legacy-sse'), table, counts.legacySequential),
    );

    const throughput = await section(
      `3. Throughput, ${counts.throughput.concurrency} in flight`,
      () => runThroughput(server('sessionless'), table, counts.throughput),
    );
    await clients.stop();

    const sse = await section('4. SSE parse throughput', () => runSseParse(counts.sse, seed));

    const profile = await section("5. XState's share of the client CPU (V8 CPU profile)", () =>
      runCpuProfile(server('sessionless'), counts.profile),
    );

    const memory = await section('6. Memory and resources left', () =>
      runMemory(server('sessionless'), counts.memory),
    );

    const machine = await section('7. Machine overhead (every actor stubbed)', () =>
      runMachineOverhead(counts.machine, seed),
    );
    log('\nMachine cost as a share of one real call (ours, client CPU per sequential call):');
    const shareRow = (label: string, run: MachineResult | undefined, result: PerCallResult) => {
      const oursMicros = result.results[0]?.cpuMicrosPerCall ?? Number.NaN;
      const machineMicros = run?.microsecondsMedian ?? Number.NaN;
      const idleMicros = run?.afterIdleMicrosMedian ?? Number.NaN;
      return [
        label,
        fmt(machineMicros, 1),
        fmt(idleMicros, 1),
        fmt(oursMicros, 1),
        `${fmt((machineMicros / oursMicros) * 100, 1)}%`,
        `${fmt((idleMicros / oursMicros) * 100, 1)}%`,
      ];
    };
    printTable(
      [
        'machine run, against ours on',
        'machine us/run',
        'after idle',
        'ours CPU us/call',
        'share',
        'share (after idle)',
      ],
      [
        shareRow(`mcpOperation, ${server(sessionless.server).spec.path}`, machine[0], sessionless),
        shareRow(`mcpOperation, ${server(stateful.server).spec.path}`, machine[1], stateful),
        shareRow(`XState floor, ${server(sessionless.server).spec.path}`, machine[2], sessionless),
        shareRow(
          `one wire actor, ${server(sessionless.server).spec.path}`,
          machine[3],
          sessionless,
        ),
      ],
    );

    const floorShare =
      (machine[2]?.microsecondsMedian ?? Number.NaN) /
      (sessionless.results[0]?.cpuMicrosPerCall ?? Number.NaN);
    return computeTargets({
      sessionless,
      legacy,
      throughput,
      sse,
      profile,
      memory,
      xstateFloorShare: floorShare,
    });
  } finally {
    await clients.stop();
    await Promise.allSettled(servers.map((entry) => entry.close()));
  }
}

const targets: TargetRow[] = only === undefined || only === 'mcp' ? await runMcpSections() : [];
if (only === undefined || only === 'openapi') {
  const openapi = await section('8. OpenAPI mount (parsed document to tools)', () =>
    runOpenApiMount(counts.openapi, { quick: flags.quick }),
  );
  targets.push(...openApiTargets(openapi));
  await section('9. Per-call latency and client CPU (an OpenAPI operation)', async () => {
    const spec = SERVERS.find((entry) => entry.id === 'openapi');
    if (spec === undefined) throw new Error('the openapi server is not listed');
    const [service] = await startServers([spec]);
    if (service === undefined) throw new Error('the openapi server did not start');
    const clients = new ClientProcesses();
    try {
      log(`\nServer: ${spec.title}, pid ${service.pid}, ${service.url}`);
      return await runOpenApiPerCall(service, { clients, seed }, counts.openapiSequential);
    } finally {
      await clients.stop();
      await service.close();
    }
  });
}
if (only === undefined || only === '2026')
  targets.push(...(await runStatelessSections(counts, section, seed)));
if (only === undefined || only === 'search') {
  const search = await section(
    '13. Catalog search over GitHub (recall by kind, mount, query)',
    () => runCatalogSearch({ rounds: flags.quick ? 1 : 5 }),
  );
  log(
    `\nsearch_tools over ${search.tools} tools: median ${fmt(search.queryMedianMs, 3)} ms, p95 ${fmt(search.queryP95Ms, 3)} ms (target: p95 <= ${QUERY_TARGET_MS} ms): ${search.queryP95Ms <= QUERY_TARGET_MS ? 'met' : 'MISSED'}`,
  );
}
if (only === undefined || only === 'load') {
  const rows = await section(
    `14. Load curve: ${counts.load.levels.map((level) => fmt(level, 0)).join(', ')} calls in flight (MCP 2026-07-28)`,
    () => runLoadCurve(counts.load, seed),
  );
  targets.push(...loadTargets(rows));
}
if (only === undefined || only === 'cold') {
  const cold = await section(
    '15. Cold start: imports and the first 2026 call in fresh processes',
    () => runColdStart({ processes: flags.quick ? 3 : 10, seed }),
  );
  targets.push(...coldTargets(cold));
}
log('\n== Targets (ratios are ours / alternative) ==');
printTargets(targets);
const durationSeconds = (performance.now() - started) / 1000;
log(`\ntotal ${fmt(durationSeconds, 1)} s; load average at end: ${loadText()}`);
if (flags.results !== undefined) {
  await writeResults(flags.results, { startedAt, command, durationSeconds, targets, only, seed });
  console.log(`results written to ${flags.results}`);
}
