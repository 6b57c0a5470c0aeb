/**
 * Child process of the OpenAPI mount benchmark (started with `node --expose-gc --import tsx`):
 * reads one document's JSON text, times `JSON.parse` of it, then mounts the parsed object as a
 * host would: `mountConnections([defineOpenApiConnection({ name: connectionName, spec: document })])`, then
 * `mountAgent({ runtimeTools })` on the tools. The first mount is the cold one (this process has
 * never run the mount code: it includes JIT), with a forced GC before it. Then `warmMounts` warm
 * mounts back to back, no forced GC (each pays for collecting the garbage of the one before, as
 * repeated work does), then `gcMounts` warm mounts with a forced GC before each: a freshly
 * collected heap makes a mount slower (a small young generation again: more scavenges), and is
 * what the heap figures need. A heap figure is `process.memoryUsage().heapUsed` right after the
 * step minus right before it (no GC in between, so garbage not yet collected counts: the peak
 * approximated from below, since scavenges during the step free some). Prints one JSON line.
 * Usage: node --expose-gc --import tsx bench/openapi-mount-child.ts <file> <name> <warmMounts> <gcMounts> <parses>
 */
import { readFileSync } from 'node:fs';
import { mountAgent } from 'stitchkit-transport/binding';
import {
  defineOpenApiConnection,
  describeCatalog,
  mountConnections,
} from 'stitchkit-transport/connections';

/** What the child reports; every time in ms, every heap figure in bytes. */
export interface MountReport {
  readonly bytes: number;
  /** Operations in the document's `paths` (every HTTP method key). */
  readonly operations: number;
  readonly tools: number;
  /** Tools in the `mountAgent` ToolSet. */
  readonly agentTools: number;
  /** UTF-8 bytes of every mounted tool's input schema (`describeCatalog`). */
  readonly schemaBytes: number;
  /** Skipped operations of the cold mount, by reason. */
  readonly skipped: Readonly<Record<string, number>>;
  /** Every `JSON.parse` of the text, the first one first. */
  readonly parseMs: readonly number[];
  /** Heap retained by the parsed document (after forced GC). */
  readonly documentHeap: number;
  readonly coldMountMs: number;
  readonly coldAgentMs: number;
  readonly coldMountHeap: number;
  readonly coldAgentHeap: number;
  /** Heap retained by the tools and the ToolSet of one mount (after forced GC). */
  readonly retainedHeap: number;
  readonly warmMountMs: readonly number[];
  readonly warmAgentMs: readonly number[];
  /** Warm mounts with a forced GC right before each (a small, freshly collected heap). */
  readonly gcMountMs: readonly number[];
  /** Their heap steps (the warm heap figure: a forced GC before makes it comparable). */
  readonly gcMountHeap: readonly number[];
  /** The process's peak resident set size at the end (`process.resourceUsage().maxRSS`, KiB). */
  readonly maxRssKib: number;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const [file, name, warmText, gcText, parsesText] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (file === undefined || name === undefined || gc === undefined) {
  throw new Error(
    'usage: node --expose-gc --import tsx bench/openapi-mount-child.ts <file> <name> <warmMounts> <gcMounts> <parses>',
  );
}
const forceGc = gc;
const connectionName = name;
const warmMounts = Number(warmText ?? '10');
const gcMounts = Number(gcText ?? '3');
const parses = Math.max(1, Number(parsesText ?? '10'));
const heap = () => process.memoryUsage().heapUsed;

const text = readFileSync(file, 'utf8');
forceGc();
const beforeDocument = heap();
/** Parses the text `parses` times; returns the first result (the others are garbage on return). */
function timeParses(): { readonly document: Record<string, unknown>; readonly ms: number[] } {
  const ms: number[] = [];
  let first: Record<string, unknown> = {};
  for (let index = 0; index < parses; index++) {
    const start = performance.now();
    const parsed = JSON.parse(text) as Record<string, unknown>;
    ms.push(performance.now() - start);
    if (index === 0) first = parsed;
  }
  return { document: first, ms };
}
const { document, ms: parseMs } = timeParses();
forceGc();
const documentHeap = heap() - beforeDocument;

let operations = 0;
for (const pathItem of Object.values((document.paths ?? {}) as Record<string, object>)) {
  operations += Object.keys(pathItem).filter((key) => METHODS.has(key)).length;
}

/** One mount's figures; its tools and ToolSet are garbage once it returns. */
interface OneMount {
  readonly mountMs: number;
  readonly agentMs: number;
  readonly mountHeap: number;
  readonly agentHeap: number;
  /** Heap the tools and ToolSet retain (after forced GC), when asked for. */
  readonly retainedHeap: number;
  /** UTF-8 bytes of every mounted input schema (`describeCatalog`), when asked for. */
  readonly schemaBytes: number;
  readonly tools: number;
  readonly agentTools: number;
  readonly skipped: Record<string, number>;
}

/** How one mount runs: with a forced GC before it, and with its retained heap measured after. */
interface MountMode {
  readonly gcBefore: boolean;
  readonly measureRetained: boolean;
}

async function mountOnce(mode: MountMode): Promise<OneMount> {
  const skipped: Record<string, number> = {};
  if (mode.gcBefore) forceGc();
  const before = heap();
  const start = performance.now();
  const tools = await mountConnections(
    [defineOpenApiConnection({ name: connectionName, spec: document })],
    {
      onSkippedTool: (tool) => {
        skipped[tool.reason] = (skipped[tool.reason] ?? 0) + 1;
      },
    },
  );
  const mountMs = performance.now() - start;
  const afterMount = heap();
  const agentStart = performance.now();
  const agent = mountAgent({ runtimeTools: tools, catalog: { mode: 'inline' } });
  const agentMs = performance.now() - agentStart;
  const agentHeap = heap() - afterMount;
  const agentTools = Object.keys(agent).length;
  let retainedHeap = Number.NaN;
  let schemaBytes = Number.NaN;
  if (mode.measureRetained) {
    forceGc();
    retainedHeap = heap() - before;
    // Counted lazily by the library; asked for only here, outside the timed steps.
    schemaBytes = describeCatalog(tools).totals.schemaBytes;
  }
  return {
    mountMs,
    agentMs,
    mountHeap: afterMount - before,
    agentHeap,
    retainedHeap,
    schemaBytes,
    tools: tools.length,
    agentTools,
    skipped,
  };
}

const cold = await mountOnce({ gcBefore: true, measureRetained: true });
const warm: OneMount[] = [];
for (let index = 0; index < warmMounts; index++) {
  warm.push(await mountOnce({ gcBefore: false, measureRetained: false }));
}
const afterGc: OneMount[] = [];
for (let index = 0; index < gcMounts; index++) {
  afterGc.push(await mountOnce({ gcBefore: true, measureRetained: false }));
}

const report: MountReport = {
  bytes: Buffer.byteLength(text),
  operations,
  tools: cold.tools,
  agentTools: cold.agentTools,
  schemaBytes: cold.schemaBytes,
  skipped: cold.skipped,
  parseMs,
  documentHeap,
  coldMountMs: cold.mountMs,
  coldAgentMs: cold.agentMs,
  coldMountHeap: cold.mountHeap,
  coldAgentHeap: cold.agentHeap,
  retainedHeap: cold.retainedHeap,
  warmMountMs: warm.map((entry) => entry.mountMs),
  warmAgentMs: warm.map((entry) => entry.agentMs),
  gcMountMs: afterGc.map((entry) => entry.mountMs),
  gcMountHeap: afterGc.map((entry) => entry.mountHeap),
  maxRssKib: process.resourceUsage().maxRSS,
};
console.log(JSON.stringify(report));
