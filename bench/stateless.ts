/**
 * Sections 10 to 13: MCP 2026-07-28 against the v2 SDK dual-revision server child. What mounting costs
 * in requests, per-call latency and client CPU beside the v2 SDK `Client` (sequential, then 64 in
 * flight), and round trips per call over an emulated link with a 40 ms round trip, and what
 * OpenTelemetry costs a call (off, idle, recording). Returns the targets for this wire, each
 * marked met or missed.
 */
import type { AlternativeSpec } from './alternative-specs.js';
import { ClientProcesses } from './client-process.js';
import type { Counts } from './counts.js';
import { startDelayProxy } from './delay-proxy.js';
import { measureAndPrint, type PerCallResult } from './per-call.js';
import { type AlternativeResult, formatRequests } from './rounds.js';
import { SERVERS } from './server-list.js';
import { type ServerProcess, startServers } from './server-process.js';
import { fmt, printTable } from './stats.js';
import { countRow, ratioRow, type TargetRow } from './targets.js';
import { log } from './transcript.js';

/** Runs one titled section (the runner's `section`). */
export type Section = <T>(title: string, run: () => Promise<T>) => Promise<T>;

/** The emulated link's round trip, in ms. */
const LINK_ROUND_TRIP_MS = 40;

/** What mounting (or, for the SDK, storing the server's discovery) cost in HTTP requests. */
interface MountCount {
  readonly name: string;
  readonly requests: Readonly<Record<string, number>>;
}

const total = (counts: Readonly<Record<string, number>>) =>
  Object.values(counts).reduce((sum, count) => sum + count, 0);

async function countMount(
  server: ServerProcess,
  clients: ClientProcesses,
  spec: AlternativeSpec,
): Promise<MountCount> {
  await server.resetCounts();
  const alternative = await clients.build(spec);
  const { byMethod } = await server.counts();
  await alternative.close();
  return { name: alternative.name, requests: byMethod };
}

/** The same server seen through `url` (the proxy), counted by the real child. */
function through(server: ServerProcess, url: string): ServerProcess {
  return {
    spec: server.spec,
    url,
    pid: server.pid,
    counts: () => server.counts(),
    resetCounts: () => server.resetCounts(),
    close: () => server.close(),
  };
}

function find(result: PerCallResult, id: AlternativeResult['id']): AlternativeResult | undefined {
  return result.results.find((entry) => entry.id === id);
}

/**
 * Sections 10 to 13 with their own server child and client children, rounds ordered from `seed`;
 * returns their targets.
 */
export async function runStatelessSections(
  counts: Counts,
  section: Section,
  seed: number,
): Promise<TargetRow[]> {
  const spec = SERVERS.find((entry) => entry.id === 'dual-revision');
  if (spec === undefined) throw new Error('the dual-revision server is not listed');
  const [server] = await startServers([spec]);
  if (server === undefined) throw new Error('the dual-revision server did not start');
  const clients = new ClientProcesses();
  const table = { clients, seed };
  try {
    log(`\nServer: ${spec.title}, pid ${server.pid}, ${server.url}`);
    const { url } = server;
    const ours: AlternativeSpec = { kind: 'ours', id: 'ours', url };
    const ours2025: AlternativeSpec = { kind: 'ours-2025', id: 'ours-2025', url };
    const sdkKnown: AlternativeSpec = { kind: 'sdk2', id: 'sdk2-known', url };
    const sdkAuto: AlternativeSpec = { kind: 'sdk2', id: 'sdk2-auto', url };

    const mounts = await section(
      '10. MCP 2026-07-28: mount, per-call latency and client CPU',
      async () => {
        const mounts = [
          await countMount(server, clients, ours),
          await countMount(server, clients, ours2025),
          await countMount(server, clients, sdkKnown),
        ];
        log(
          '\nHTTP requests to mount (the SDK row: the connect whose DiscoverResult a host stores):',
        );
        printTable(
          ['alternative', 'requests'],
          mounts.map((mount) => [mount.name, formatRequests(mount.requests)]),
        );
        const sequential = await measureAndPrint(
          server,
          table,
          [
            ours,
            ours2025,
            sdkKnown,
            { kind: 'sdk2', id: 'sdk2-known-shared-validator', url },
            sdkAuto,
            { kind: 'raw-stateless', id: 'raw-fetch-stateless', url },
            { kind: 'raw-stateless', id: 'raw-undici-modern', url },
          ],
          counts.statelessSequential,
        );
        return { mounts, sequential };
      },
    );

    const throughput = await section(
      `11. MCP 2026-07-28: throughput, ${counts.statelessThroughput.concurrency} in flight`,
      () =>
        measureAndPrint(
          server,
          table,
          [ours, sdkKnown, ours2025, { kind: 'raw-stateless', id: 'raw-fetch-stateless', url }],
          counts.statelessThroughput,
        ),
    );

    const link = await section(
      `12. Round trips per call over an emulated link (${LINK_ROUND_TRIP_MS} ms round trip)`,
      async () => {
        const proxy = await startDelayProxy(url, LINK_ROUND_TRIP_MS);
        try {
          const proxied = proxy.urlFor(url);
          const result = await measureAndPrint(
            through(server, proxied),
            table,
            [
              { kind: 'ours', id: 'ours', url: proxied },
              { kind: 'ours-2025', id: 'ours-2025', url: proxied },
              { kind: 'sdk2', id: 'sdk2-known', url: proxied },
              { kind: 'sdk2', id: 'sdk2-auto', url: proxied },
            ],
            counts.emulatedLink,
          );
          log('\nRound trips per call (median latency over the round trip):');
          printTable(
            ['alternative', 'median ms', 'round trips', 'HTTP requests per call'],
            result.results.map((entry) => [
              entry.name,
              fmt(entry.latencyMedianMs, 1),
              fmt(entry.latencyMedianMs / LINK_ROUND_TRIP_MS, 2),
              formatRequests(entry.requestsPerCall),
            ]),
          );
          return result;
        } finally {
          await proxy.close();
        }
      },
    );
    const telemetry = await section(
      '13. Telemetry: what ours costs per call with OpenTelemetry off, idle and recording',
      () =>
        measureAndPrint(
          server,
          table,
          (['ours-telemetry-off', 'ours-no-provider', 'ours-traced'] as const).map((id) => ({
            kind: 'ours-telemetry' as const,
            id,
            url,
          })),
          counts.statelessSequential,
        ),
    );
    return [
      ...statelessTargets(mounts.mounts, mounts.sequential, throughput, link),
      ...telemetryTargets(telemetry),
    ];
  } finally {
    await clients.stop();
    await server.close();
  }
}

function statelessTargets(
  mounts: readonly MountCount[],
  sequential: PerCallResult,
  throughput: PerCallResult,
  link: PerCallResult,
): TargetRow[] {
  const ours = find(sequential, 'ours');
  const sdk = find(sequential, 'sdk2-known');
  const oursFlying = find(throughput, 'ours');
  const busy =
    oursFlying === undefined
      ? ''
      : ` (server main thread ${fmt((oursFlying.throughputMedian * oursFlying.serverMainThreadCpuMicrosPerCall) / 10_000, 0)} % busy, ${fmt(oursFlying.serverCpuMicrosPerCall, 0)} us CPU per call)`;
  const against2025 = ratioRow(
    'the same vs ours on the 2025-11-25 wire, same server',
    { atLeast: 2 },
    oursFlying?.throughputMedian,
    find(throughput, 'ours-2025')?.throughputMedian,
  );
  const againstSdk = ratioRow(
    '2026 throughput at 64 in flight vs SDK v2 Client, known server',
    { atLeast: 1 },
    oursFlying?.throughputMedian,
    find(throughput, 'sdk2-known')?.throughputMedian,
  );
  const oursLink = find(link, 'ours');
  return [
    countRow(
      '2026 server: HTTP requests per call (ours, auto)',
      1,
      ours === undefined ? undefined : total(ours.requestsPerCall),
    ),
    countRow(
      '2026 server: HTTP requests to mount (ours, auto)',
      2,
      mounts[0] === undefined ? undefined : total(mounts[0].requests),
    ),
    ratioRow(
      '2026 per-call latency vs SDK v2 Client, known server (issue 48)',
      { atMost: 0.6 },
      ours?.latencyMedianMs,
      sdk?.latencyMedianMs,
    ),
    // Issue 48: the like-for-like floor (ours runs on undici), and the SDK goal that follows.
    ratioRow(
      'client CPU per 2026 call vs raw undici, one modern POST',
      { atMost: 2.5 },
      ours?.cpuMicrosPerCall,
      find(sequential, 'raw-undici-modern')?.cpuMicrosPerCall,
    ),
    ratioRow(
      'client CPU per 2026 call vs SDK v2 Client, known server (issue 48)',
      { atMost: 0.5 },
      ours?.cpuMicrosPerCall,
      sdk?.cpuMicrosPerCall,
    ),
    { ...againstSdk, measured: `${againstSdk.measured}${busy}` },
    against2025,
    countRow(
      `2026 round trips per call, emulated ${LINK_ROUND_TRIP_MS} ms link (ours)`,
      1.15,
      oursLink === undefined ? undefined : oursLink.latencyMedianMs / LINK_ROUND_TRIP_MS,
    ),
  ];
}

/**
 * The no-provider path must cost nothing measurable beside telemetry switched off. (The recording
 * row is in the section's table, for the host that traces; it is not a target.)
 */
function telemetryTargets(telemetry: PerCallResult): TargetRow[] {
  return [
    ratioRow(
      'client CPU per call, API installed and nothing registered vs telemetry: false',
      { atMost: 1.05 },
      find(telemetry, 'ours-no-provider')?.cpuMicrosPerCall,
      find(telemetry, 'ours-telemetry-off')?.cpuMicrosPerCall,
    ),
  ];
}
