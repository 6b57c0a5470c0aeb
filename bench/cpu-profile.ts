/**
 * XState's share of a call's client CPU, from a V8 CPU profile: a client child runs sequential
 * ours-calls under `node --cpu-prof`, and its `.cpuprofile` is summarised as self time by package
 * over the measured window only (warm-up and module loading left out).
 * Packages: `node_modules/<pkg>` from each frame's URL, `dist/` (the built package the clients
 * import) and `src/` as stitchkit-transport, `bench/` as the harness, `node:` URLs as node (the
 * built-in fetch, Node's bundled undici with its llhttp WebAssembly, apart); V8's `(garbage collector)`, `(idle)` and `(program)` get rows of their
 * own. Frames without a URL (V8 built-ins such as `JSON.parse`) have their own row in
 * the self column, and are charged to the nearest calling frame that has a URL in the "charged"
 * column: a built-in that XState calls is XState's cost. The target reads the charged column.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runClientChild } from './child-run.js';
import type { ServerProcess } from './server-process.js';
import { fmt, printTable } from './stats.js';
import { log } from './transcript.js';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** One package's time in the measured window, in µs. */
export interface PackageTime {
  readonly name: string;
  readonly selfMicros: number;
  readonly chargedMicros: number;
}

/** The summary the targets table reads. */
export interface ProfileSummary {
  readonly calls: number;
  readonly packages: readonly PackageTime[];
  /** Busy time: every sample in the window except `(idle)`. */
  readonly busyMicros: number;
  /** XState's charged time over busy time, 0..1. */
  readonly xstateShare: number;
  /** XState's charged time by function, heaviest first. */
  readonly xstateFunctions: readonly FunctionTime[];
}

/** One function's charged time in the measured window, in µs. */
export interface FunctionTime {
  /** The function's name and where it is: `name (file:line)`. */
  readonly name: string;
  readonly chargedMicros: number;
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
// A Map, not an object literal: a frame named `constructor` must not find Object's own property.
const SPECIAL: ReadonlyMap<string, string> = new Map([
  ['(idle)', 'idle'],
  ['(garbage collector)', 'GC'],
  ['(program)', 'program'],
  ['(root)', 'program'],
]);
const NO_URL = '(V8 built-ins, no URL)';

/** The package a frame's URL belongs to, or `undefined` for a frame without a URL. */
function packageOf(url: string): string | undefined {
  if (url === '') return undefined;
  // The built-in fetch is Node's bundled undici: shown apart, since every HTTP client here uses it.
  // The only WebAssembly in a client child is undici's llhttp, the HTTP/1.1 parser.
  if (url.startsWith('node:internal/deps/undici') || url.startsWith('wasm://')) {
    return 'node (fetch: bundled undici)';
  }
  if (url.startsWith('node:')) return 'node';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const marker = '/node_modules/';
  const at = path.lastIndexOf(marker);
  if (at >= 0) {
    const [scope, name] = path.slice(at + marker.length).split('/');
    return scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? 'other');
  }
  if (path.startsWith(join(REPO_ROOT, 'dist/')) || path.startsWith(join(REPO_ROOT, 'src/'))) {
    return 'stitchkit-transport';
  }
  if (path.startsWith(join(REPO_ROOT, 'bench/'))) return 'bench harness';
  return 'other';
}

/** The profile's nodes by id, and each node's parent. */
function nodeIndex(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  return { byId, parentOf };
}

/** Calls `visit` with the node and the duration of every sample stamped within [start, end]. */
function forEachSample(
  profile: CpuProfile,
  start: number,
  end: number,
  visit: (nodeId: number, micros: number) => void,
): void {
  let stamp = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    stamp += profile.timeDeltas[index] ?? 0;
    // A sample lasts until the next one is taken.
    const duration = profile.timeDeltas[index + 1] ?? 0;
    if (stamp >= start && stamp <= end) visit(profile.samples[index] as number, duration);
  }
}

/** Self and charged time by package over samples stamped within [start, end]. */
export function summarise(profile: CpuProfile, start: number, end: number) {
  const { byId, parentOf } = nodeIndex(profile);
  const labels = new Map<number, { self: string; charged: string }>();
  const labelOf = (id: number): { self: string; charged: string } => {
    const known = labels.get(id);
    if (known !== undefined) return known;
    const frame = byId.get(id)?.callFrame;
    const special = frame === undefined ? 'program' : SPECIAL.get(frame.functionName);
    let label: { self: string; charged: string };
    if (special !== undefined) label = { self: special, charged: special };
    else {
      const own = packageOf(frame?.url ?? '');
      const parent = parentOf.get(id);
      const inherited = parent === undefined ? 'program' : labelOf(parent).charged;
      label =
        own === undefined ? { self: NO_URL, charged: inherited } : { self: own, charged: own };
    }
    labels.set(id, label);
    return label;
  };
  const self = new Map<string, number>();
  const charged = new Map<string, number>();
  forEachSample(profile, start, end, (nodeId, duration) => {
    const label = labelOf(nodeId);
    self.set(label.self, (self.get(label.self) ?? 0) + duration);
    charged.set(label.charged, (charged.get(label.charged) ?? 0) + duration);
  });
  const names = new Set([...self.keys(), ...charged.keys()]);
  return [...names].map((name) => ({
    name,
    selfMicros: self.get(name) ?? 0,
    chargedMicros: charged.get(name) ?? 0,
  }));
}

/**
 * Charged time by function for the frames of one package: each sample goes to its nearest frame
 * with a URL (as in the "charged" column), and is kept when that frame is the package's.
 */
export function chargedFunctions(
  profile: CpuProfile,
  start: number,
  end: number,
  pkg: string,
): FunctionTime[] {
  const { byId, parentOf } = nodeIndex(profile);
  const chargedFrame = (id: number): ProfileNode | undefined => {
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const node = byId.get(at);
      if (node === undefined || SPECIAL.has(node.callFrame.functionName)) return undefined;
      if (node.callFrame.url !== '') return node;
    }
    return undefined;
  };
  const totals = new Map<string, number>();
  forEachSample(profile, start, end, (nodeId, duration) => {
    const frame = chargedFrame(nodeId);
    if (frame === undefined || packageOf(frame.callFrame.url) !== pkg) return;
    const { functionName, url, lineNumber } = frame.callFrame;
    const name = `${functionName === '' ? '(anonymous)' : functionName} (${url.split('/').at(-1)}:${lineNumber + 1})`;
    totals.set(name, (totals.get(name) ?? 0) + duration);
  });
  return [...totals]
    .map(([name, chargedMicros]) => ({ name, chargedMicros }))
    .sort((a, b) => b.chargedMicros - a.chargedMicros);
}

async function mainThreadProfile(dir: string): Promise<CpuProfile> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.cpuprofile'));
  // Node names each file CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; the main thread
  // is thread 0. With tsx loaded, the module-hooks thread writes a (mostly idle) profile too.
  const main = files.find((file) => file.split('.').at(-3) === '0') ?? files[0];
  if (main === undefined) throw new Error(`no .cpuprofile written in ${dir}`);
  return JSON.parse(await readFile(join(dir, main), 'utf8')) as CpuProfile;
}

/** Profiles `calls` sequential ours-calls against `server` in a child and prints the summary. */
export async function runCpuProfile(
  server: ServerProcess,
  options: { readonly calls: number; readonly warmupCalls: number },
): Promise<ProfileSummary> {
  const dir = await mkdtemp(join(tmpdir(), 'stitchkit-bench-prof-'));
  try {
    const line = await runClientChild({
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
      script: 'profile-child.ts',
      args: [server.url, String(options.calls), String(options.warmupCalls)],
      timeoutMs: 60_000 + options.calls * 50,
    });
    const window = JSON.parse(line) as { startMicros: number; endMicros: number };
    const profile = await mainThreadProfile(dir);
    const packages = summarise(profile, window.startMicros, window.endMicros).sort(
      (a, b) => b.chargedMicros - a.chargedMicros || b.selfMicros - a.selfMicros,
    );
    const total = packages.reduce((sum, entry) => sum + entry.selfMicros, 0);
    const idle = packages.find((entry) => entry.name === 'idle')?.selfMicros ?? 0;
    const busyMicros = total - idle;
    const xstate = packages.find((entry) => entry.name === 'xstate')?.chargedMicros ?? 0;
    const summary = {
      calls: options.calls,
      packages,
      busyMicros,
      xstateShare: xstate / busyMicros,
      xstateFunctions: chargedFunctions(profile, window.startMicros, window.endMicros, 'xstate'),
    };
    printProfile(summary, window.endMicros - window.startMicros);
    return summary;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function printProfile(summary: ProfileSummary, windowMicros: number): void {
  const share = (micros: number) => `${fmt((micros / summary.busyMicros) * 100, 1)}%`;
  log(
    `\nCPU profile of the client child: ${summary.calls.toLocaleString('en-US')} sequential ours-calls on /stateless, ${fmt(windowMicros / 1000, 0)} ms window, busy ${fmt(summary.busyMicros / 1000, 0)} ms (shares are of busy time; idle has none)`,
  );
  printTable(
    ['package', 'self ms', 'self share', 'charged ms', 'charged share', 'charged us/call'],
    summary.packages.map((entry) => [
      entry.name,
      fmt(entry.selfMicros / 1000, 1),
      entry.name === 'idle' ? '-' : share(entry.selfMicros),
      fmt(entry.chargedMicros / 1000, 1),
      entry.name === 'idle' ? '-' : share(entry.chargedMicros),
      fmt(entry.chargedMicros / summary.calls, 1),
    ]),
  );
  log(`XState's share of busy client CPU (charged): ${fmt(summary.xstateShare * 100, 1)}%`);
  const xstate = summary.xstateFunctions.reduce((sum, entry) => sum + entry.chargedMicros, 0);
  log(
    `\nXState's heaviest functions (charged; ${XSTATE_ROWS} of ${summary.xstateFunctions.length}, with their share of XState's time):`,
  );
  printTable(
    ['function (file:line)', 'charged us/call', 'share of XState'],
    summary.xstateFunctions
      .slice(0, XSTATE_ROWS)
      .map((entry) => [
        entry.name,
        fmt(entry.chargedMicros / summary.calls, 1),
        `${fmt((entry.chargedMicros / xstate) * 100, 1)}%`,
      ]),
  );
}

/** How many of XState's functions the profile section lists. */
const XSTATE_ROWS = 12;
