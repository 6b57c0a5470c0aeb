/**
 * Section 14, the load curve: ours and the v2 SDK `Client` (known server) at 1, 16, 256, 1,024 and
 * 10,000 calls in flight against a trivial server child speaking the 2026-07-28 wire
 * (`servers/modern-load.ts`, canned answers, so that the server is not the bottleneck: its busy
 * share is printed). Each alternative runs in a client child of its own (`load-child.ts`, with
 * `--expose-gc`); per level the two run in an order rotated from the run's seed. Per level and
 * alternative: calls/s, p50/p99 latency, client CPU per call, failures, and the retained heap per
 * in-flight call: the server holds every answer until the level's calls are all in flight, the
 * child reads its heap after a full GC, then the answers are released.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AlternativeSpec } from './alternative-specs.js';
import { trackClientChild } from './child-run.js';
import type { LoadReply, LoadRequest, LoadSample } from './load-child.js';
import { formatOrders, roundOrders } from './run-order.js';
import { SERVERS } from './server-list.js';
import { type ServerProcess, startServers } from './server-process.js';
import { fmt, printTable } from './stats.js';
import { countRow, ratioRow, type TargetRow } from './targets.js';
import { log, recordCommand } from './transcript.js';

/** The levels and how many calls each runs. */
export interface LoadCounts {
  /** Calls in flight at each level. */
  readonly levels: readonly number[];
  /** Timed calls per level and alternative: at least this many, and at least the level. */
  readonly minCalls: number;
  /** Untimed calls before the first level, 8 in flight. */
  readonly warmupCalls: number;
}

/** One alternative at one level. */
export interface LoadRow {
  readonly level: number;
  readonly id: 'ours' | 'sdk2-known';
  readonly name: string;
  readonly sample: LoadSample;
  /** Calls the server held when the heap was read (the level, unless the clients could not). */
  readonly held: number;
  /** Heap after a full GC with `held` calls in flight, less the heap before, per call, bytes. */
  readonly retainedBytesPerCall: number;
  readonly heldFailures: number;
  /** The first held call's failure, when one failed. */
  readonly heldFirstFailure: string | null;
  /** The server child's busy share of one core over the timed run (0..1). */
  readonly serverBusy: number;
}

type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

/** One load child: requests answered by id. */
class LoadClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: LoadReply) => void>();
  private readonly child: ChildProcess;

  constructor(label: string) {
    const script = fileURLToPath(new URL('load-child.ts', import.meta.url));
    const execArgv = ['--expose-gc', '--import', 'tsx'];
    recordCommand(process.execPath, [...execArgv, script, label]);
    this.child = fork(script, [label], {
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    trackClientChild(this.child);
    this.child.on('message', (message: LoadReply) => {
      this.waiting.get(message.id)?.(message);
      this.waiting.delete(message.id);
    });
    this.child.once('exit', (code, signal) => {
      for (const [id, answer] of this.waiting)
        answer({ type: 'failed', id, message: `load child ${label} exited (${code ?? signal})` });
      this.waiting.clear();
    });
  }

  async ask(request: Unnumbered<LoadRequest>): Promise<LoadReply> {
    const id = this.nextId++;
    const reply = await new Promise<LoadReply>((resolve, reject) => {
      this.waiting.set(id, resolve);
      this.child.send({ ...request, id }, (error) => {
        if (error !== null) reject(error);
      });
    });
    if (reply.type === 'failed') throw new Error(`load child: ${reply.message}`);
    return reply;
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.disconnect();
    });
  }
}

async function control(server: ServerProcess, action: string): Promise<number> {
  const origin = new URL(server.url).origin;
  const response = await fetch(`${origin}/control/${action}`, { method: 'POST' });
  const body = (await response.json()) as { held?: number; released?: number };
  if (!response.ok) throw new Error(`load server: ${action} answered ${response.status}`);
  return body.held ?? body.released ?? 0;
}

/** The level's calls held by the server, the heap read meanwhile, then released. */
async function retainedHeap(
  server: ServerProcess,
  client: LoadClient,
  level: number,
): Promise<{
  held: number;
  bytesPerCall: number;
  failures: number;
  firstFailure: string | null;
}> {
  const before = await client.ask({ type: 'heap' });
  await control(server, `hold?count=${level}`);
  await client.ask({ type: 'start-held', count: level });
  const held = await control(server, 'wait');
  const during = await client.ask({ type: 'heap' });
  await control(server, 'release');
  const finished = await client.ask({ type: 'finish-held' });
  if (before.type !== 'heap' || during.type !== 'heap' || finished.type !== 'finished')
    throw new Error('unexpected reply to a heap reading');
  return {
    held,
    bytesPerCall: held > 0 ? (during.bytes - before.bytes) / held : Number.NaN,
    failures: finished.failures,
    firstFailure: finished.firstFailure,
  };
}

async function measureLevel(
  server: ServerProcess,
  client: LoadClient,
  id: LoadRow['id'],
  name: string,
  level: number,
  counts: LoadCounts,
): Promise<LoadRow> {
  const calls = Math.max(level, counts.minCalls);
  await server.resetCounts();
  const started = performance.now();
  const ran = await client.ask({ type: 'run', calls, concurrency: level });
  const wallMicros = (performance.now() - started) * 1000;
  const serverCounts = await server.counts();
  if (ran.type !== 'ran') throw new Error(`unexpected reply to run: ${ran.type}`);
  const heap = await retainedHeap(server, client, level);
  await control(server, 'close-idle');
  return {
    level,
    id,
    name,
    sample: ran.sample,
    held: heap.held,
    retainedBytesPerCall: heap.bytesPerCall,
    heldFailures: heap.failures,
    heldFirstFailure: heap.firstFailure,
    serverBusy: (serverCounts.mainThreadCpuMicros ?? serverCounts.cpuMicros) / wallMicros,
  };
}

/** Runs the load curve against its own server child and client children; returns every row. */
export async function runLoadCurve(counts: LoadCounts, seed: number): Promise<LoadRow[]> {
  const spec = SERVERS.find((entry) => entry.id === 'modern-load');
  if (spec === undefined) throw new Error('the modern-load server is not listed');
  const [server] = await startServers([spec]);
  if (server === undefined) throw new Error('the modern-load server did not start');
  const alternatives: { id: LoadRow['id']; spec: AlternativeSpec; client: LoadClient }[] = [
    {
      id: 'ours',
      spec: { kind: 'ours', id: 'ours', url: server.url },
      client: new LoadClient('ours'),
    },
    {
      id: 'sdk2-known',
      spec: { kind: 'sdk2', id: 'sdk2-known', url: server.url },
      client: new LoadClient('sdk2-known'),
    },
  ];
  try {
    log(`\nServer: ${spec.title}, pid ${server.pid}, ${server.url}`);
    const names = await Promise.all(
      alternatives.map(async ({ spec: alternative, client }) => {
        const reply = await client.ask({ type: 'build', spec: alternative });
        if (reply.type !== 'built') throw new Error(`unexpected reply to build: ${reply.type}`);
        await client.ask({ type: 'run', calls: counts.warmupCalls, concurrency: 8 });
        return reply.name;
      }),
    );
    const orders = roundOrders(seed, 'load', alternatives.length, counts.levels.length);
    const rows: LoadRow[] = [];
    for (const [index, level] of counts.levels.entries()) {
      for (const slot of orders[index] ?? []) {
        const entry = alternatives[slot];
        if (entry === undefined) continue;
        rows.push(
          await measureLevel(
            server,
            entry.client,
            entry.id,
            names[slot] ?? entry.id,
            level,
            counts,
          ),
        );
      }
    }
    log(
      `\nlevels ${counts.levels.join(', ')}; per level and alternative max(level, ${counts.minCalls}) timed calls, then the level's calls held for the heap reading; after ${counts.warmupCalls} warm-up calls each`,
    );
    log(`levels' order (rows as listed below, seed ${seed}): ${formatOrders(orders)}`);
    printLoad(rows);
    return rows;
  } finally {
    await Promise.all(alternatives.map(({ client }) => client.stop()));
    await server.close();
  }
}

function printLoad(rows: readonly LoadRow[]): void {
  printTable(
    [
      'in flight',
      'alternative',
      'calls',
      'calls/s',
      'p50 ms',
      'p99 ms',
      'CPU us/call',
      'failures',
      'held',
      'held failures',
      'retained KB/call',
      'server busy',
    ],
    [...rows]
      .sort((a, b) => a.level - b.level || a.id.localeCompare(b.id))
      .map((row) => [
        fmt(row.level, 0),
        row.name,
        fmt(row.sample.calls, 0),
        fmt((row.sample.calls * 1000) / row.sample.elapsedMs, 0),
        fmt(row.sample.p50Ms, 2),
        fmt(row.sample.p99Ms, 2),
        fmt(row.sample.cpuMicros / row.sample.calls, 0),
        fmt(row.sample.failures, 0),
        fmt(row.held, 0),
        fmt(row.heldFailures, 0),
        fmt(row.retainedBytesPerCall / 1024, 2),
        `${fmt(row.serverBusy * 100, 0)} %`,
      ]),
    2,
  );
  for (const row of rows) {
    const failure = row.sample.firstFailure ?? row.heldFirstFailure;
    if (failure !== null)
      log(`first failure (${row.name}, ${row.level} in flight): ${failure.slice(0, 500)}`);
  }
}

/** The targets on the load curve (ours), each met, missed or not measured. */
export function loadTargets(rows: readonly LoadRow[]): TargetRow[] {
  const at = (level: number, id: LoadRow['id']) =>
    rows.find((row) => row.level === level && row.id === id);
  const cpu = (row: LoadRow | undefined) =>
    row === undefined ? undefined : row.sample.cpuMicros / row.sample.calls;
  const callsPerSecond = (row: LoadRow | undefined) =>
    row === undefined ? undefined : (row.sample.calls * 1000) / row.sample.elapsedMs;
  const top = Math.max(...rows.filter((row) => row.id === 'ours').map((row) => row.level));
  const oursTop = at(top, 'ours');
  const ten = at(10_000, 'ours');
  return [
    countRow(
      'load: failed calls at 10,000 in flight (ours)',
      0,
      ten === undefined ? undefined : ten.sample.failures + ten.heldFailures,
    ),
    countRow(
      `load: retained heap per in-flight call, KB (ours, ${fmt(top, 0)} in flight)`,
      16,
      oursTop === undefined ? undefined : oursTop.retainedBytesPerCall / 1024,
    ),
    ratioRow(
      'load: client CPU per call at 1,024 in flight vs at 1 (ours)',
      { atMost: 1.2 },
      cpu(at(1_024, 'ours')),
      cpu(at(1, 'ours')),
    ),
    ratioRow(
      'load: calls/s at 1,024 in flight vs SDK v2 Client, known server',
      { atLeast: 1.5 },
      callsPerSecond(at(1_024, 'ours')),
      callsPerSecond(at(1_024, 'sdk2-known')),
    ),
  ];
}
