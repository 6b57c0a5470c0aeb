/**
 * Section 15, cold start: what a serverless host pays before its first call. In fresh Node
 * processes (plain `node`, no tsx; the built `dist/` through the package's own exports), the time
 * each entry point takes to import, beside the v2 SDK client's, and the time from the process's
 * start (`performance.now()`, whose origin is the process's start) to the first completed 2026
 * `echo` call against the v2 SDK dual-revision server child: ours mounting then calling, the v2
 * SDK `Client` connecting (`'auto'`: its discovery) then calling; each checks the echoed value.
 * Processes run one at a time, the kinds in an order rotated per round from the run's seed; the
 * medians are reported. Needs `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { trackClientChild } from './child-run.js';
import { CLIENT_INFO, MESSAGE } from './clients.js';
import { formatOrders, roundOrders } from './run-order.js';
import { SERVERS } from './server-list.js';
import { startServers } from './server-process.js';
import { fmt, median, printTable } from './stats.js';
import { countRow, ratioRow, type TargetRow } from './targets.js';
import { log, recordCommand } from './transcript.js';

/** The root import's goal, in ms. */
export const ROOT_IMPORT_GOAL_MS = 150;

/** One kind of fresh process. */
interface ColdKind {
  readonly id: string;
  readonly name: string;
  /** The ES module body; it ends by writing one JSON line `{ ms }`. */
  readonly code: (url: string) => string;
}

const importOf = (specifier: string) => () =>
  `const start = performance.now();
await import(${JSON.stringify(specifier)});
process.stdout.write(JSON.stringify({ ms: performance.now() - start, startMs: start }));`;

const CHECK = `if (result?.structuredContent?.echoed !== ${JSON.stringify(MESSAGE)}) throw new Error('unexpected echo: ' + JSON.stringify(result));
process.stdout.write(JSON.stringify({ ms: performance.now(), startMs }));
process.exit(0);`;

const KINDS: readonly ColdKind[] = [
  { id: 'root', name: "import 'stitchkit-transport'", code: importOf('stitchkit-transport') },
  {
    id: 'connections',
    name: "import 'stitchkit-transport/connections'",
    code: importOf('stitchkit-transport/connections'),
  },
  {
    id: 'binding',
    name: "import 'stitchkit-transport/binding'",
    code: importOf('stitchkit-transport/binding'),
  },
  {
    id: 'machines',
    name: "import 'stitchkit-transport/machines'",
    code: importOf('stitchkit-transport/machines'),
  },
  {
    id: 'sdk2-import',
    name: "import '@modelcontextprotocol/client' (v2 SDK)",
    code: importOf('@modelcontextprotocol/client'),
  },
  {
    id: 'ours-first-call',
    name: 'process start to first 2026 call: ours (mount, runTool)',
    code: (url) => `const startMs = performance.now();
const { defineMcpClientConnection, mountConnections } = await import('stitchkit-transport/connections');
const { runTool } = await import('stitchkit-transport/binding');
const tools = await mountConnections([defineMcpClientConnection({ name: 'cold', transport: { url: ${JSON.stringify(url)} } })], { onSkippedTool: () => {} });
const echo = tools.find((tool) => tool.name === 'echo');
const answer = await runTool(echo, { message: ${JSON.stringify(MESSAGE)} }, { source: 'internal' });
const result = answer.ok ? answer.data : undefined;
${CHECK}`,
  },
  {
    id: 'sdk2-first-call',
    name: "process start to first 2026 call: v2 SDK Client ('auto' connect, callTool)",
    code: (url) => `const startMs = performance.now();
const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
const client = new Client(${JSON.stringify(CLIENT_INFO)}, { versionNegotiation: { mode: 'auto' } });
await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(url)})));
const result = await client.callTool({ name: 'echo', arguments: { message: ${JSON.stringify(MESSAGE)} } });
${CHECK}`,
  },
];

/** The repository's root: the package resolves itself (and node_modules) from there. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROCESS_TIMEOUT_MS = 60_000;

/** Runs `code` in a fresh `node` and returns the JSON line it wrote. */
function freshProcess(code: string): Promise<{ ms: number; startMs: number }> {
  const args = ['--input-type=module', '-e', code];
  recordCommand(process.execPath, ['--input-type=module', '-e', '<code>']);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    trackClientChild(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), PROCESS_TIMEOUT_MS);
    let output = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      errors += text;
    });
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      if (status === 0) resolve(JSON.parse(output) as { ms: number; startMs: number });
      else reject(new Error(`cold process ended with ${status ?? signal}: ${errors.trim()}`));
    });
  });
}

/** The medians of one kind over its processes. */
export interface ColdResult {
  readonly id: string;
  readonly name: string;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** Node's own start: `performance.now()` when the script began. */
  readonly startMedianMs: number;
}

/** Runs every kind in `processes` fresh processes each, against a dual-revision server child. */
export async function runColdStart(options: {
  readonly processes: number;
  readonly seed: number;
}): Promise<ColdResult[]> {
  const spec = SERVERS.find((entry) => entry.id === 'dual-revision');
  if (spec === undefined) throw new Error('the dual-revision server is not listed');
  const [server] = await startServers([spec]);
  if (server === undefined) throw new Error('the dual-revision server did not start');
  try {
    log(`\nServer: ${spec.title}, pid ${server.pid}, ${server.url}`);
    const samples = KINDS.map(() => ({ ms: [] as number[], start: [] as number[] }));
    const orders = roundOrders(options.seed, 'cold', KINDS.length, options.processes);
    for (const order of orders) {
      for (const index of order) {
        const kind = KINDS[index];
        const sample = samples[index];
        if (kind === undefined || sample === undefined) continue;
        const { ms, startMs } = await freshProcess(kind.code(server.url));
        sample.ms.push(ms);
        sample.start.push(startMs);
      }
    }
    log(
      `\n${options.processes} fresh processes per row, one at a time; order (seed ${options.seed}): ${formatOrders(orders)}`,
    );
    const results = KINDS.map((kind, index) => {
      const sample = samples[index] ?? { ms: [], start: [] };
      return {
        id: kind.id,
        name: kind.name,
        medianMs: median(sample.ms),
        minMs: Math.min(...sample.ms),
        maxMs: Math.max(...sample.ms),
        startMedianMs: median(sample.start),
      };
    });
    printTable(
      ['row', 'median ms', 'min ms', 'max ms', 'node start ms'],
      results.map((result) => [
        result.name,
        fmt(result.medianMs, 1),
        fmt(result.minMs, 1),
        fmt(result.maxMs, 1),
        fmt(result.startMedianMs, 1),
      ]),
    );
    return results;
  } finally {
    await server.close();
  }
}

/** The cold-start targets. */
export function coldTargets(results: readonly ColdResult[]): TargetRow[] {
  const of = (id: string) => results.find((result) => result.id === id)?.medianMs;
  return [
    countRow('cold: root import, ms (median)', ROOT_IMPORT_GOAL_MS, of('root')),
    ratioRow(
      'cold: process start to first 2026 call vs v2 SDK Client',
      { atMost: 0.8 },
      of('ours-first-call'),
      of('sdk2-first-call'),
    ),
  ];
}
