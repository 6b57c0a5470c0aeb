/**
 * What `probe` does: mounts one connection the way a host would (the same definitions, limits and
 * fence), watching its machines, then calls one tool when asked, and reports all of it as data.
 * The revision and the wire come from the discovery's own outcome, read on the package's diagnostics
 * channel; every failure is one of the package's typed errors, reported with its exit code.
 */

import { tracingChannel } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { type AnyRuntimeToolDefinition, runTool, toolCauseFromResult } from '../binding/index.js';
import {
  type ConnectionDefinition,
  DIAGNOSTICS_CHANNELS,
  defineMcpClientConnection,
  defineOpenApiConnection,
  describeCatalog,
  mountConnections,
  type SkippedTool,
  type TransitionRecord,
} from '../connections/index.js';
import { mountedToolCost } from '../connections/tool-cost.js';
import { type ProbeArgs, ProbeUsageError, tokenFrom } from './probe-args.js';
import {
  failureOf,
  type ProbedCall,
  type ProbedTool,
  type ProbeReport,
  type TraceStep,
} from './probe-report.js';

type Negotiated = NonNullable<ProbeReport['negotiated']>;

/**
 * How the probe mounts its one connection: `mountConnections` by default; `--watch` mounts it in
 * a live catalog instead (`probe-watch.ts`). Rejects as `mountConnections` does.
 */
export type ProbeMount = (
  definition: ConnectionDefinition,
  options: { readonly onSkippedTool: (entry: SkippedTool) => void },
) => Promise<readonly AnyRuntimeToolDefinition[]>;

const mountOnce: ProbeMount = (definition, options) => mountConnections([definition], options);

/**
 * Probes what `args` names, mounting with `mount`; never throws but for a usage error. The
 * connection's transitions are recorded until the report is complete, and no longer: a connection
 * that lives on (`--watch`) keeps no record of its relistings.
 */
export async function runProbe(
  args: ProbeArgs,
  env: NodeJS.ProcessEnv,
  mount: ProbeMount = mountOnce,
): Promise<ProbeReport> {
  const records: TransitionRecord[] = [];
  let recording = true;
  const record = (entry: TransitionRecord) => {
    if (recording) records.push(entry);
  };
  try {
    return await probeWith(args, env, mount, records, record);
  } finally {
    recording = false;
  }
}

async function probeWith(
  args: ProbeArgs,
  env: NodeJS.ProcessEnv,
  mount: ProbeMount,
  records: TransitionRecord[],
  record: (entry: TransitionRecord) => void,
): Promise<ProbeReport> {
  const skipped: SkippedTool[] = [];
  const definition = definitionOf(args, env, record);
  const negotiated = watchDiscovery();
  const report: { -readonly [K in keyof ProbeReport]: ProbeReport[K] } = {
    target: args.target.kind === 'mcp' ? args.target : { kind: 'openapi', spec: args.target.spec },
    ok: true,
    tools: [],
    skipped: [],
  };
  const started = performance.now();
  let tools: readonly AnyRuntimeToolDefinition[];
  try {
    tools = await mount(definition, { onSkippedTool: (entry) => skipped.push(entry) });
  } catch (error) {
    return Object.assign(report, {
      ok: false,
      discovery: { ms: elapsed(started), trace: traceOf(records) },
      error: failureOf(error),
    });
  } finally {
    negotiated.stop();
  }
  report.discovery = { ms: elapsed(started), trace: traceOf(records) };
  if (negotiated.outcome !== undefined) {
    report.negotiated = Object.assign({}, negotiated.outcome, { how: howNegotiated(records) });
  }
  report.tools = tools.map(toolOf);
  report.skipped = skipped.map(({ tool, reason, message }) => ({ tool, reason, message }));
  const [entry] = describeCatalog(tools).connections;
  if (entry !== undefined) {
    report.catalog = {
      tools: entry.tools,
      schemaBytes: entry.schemaBytes,
      skipped: entry.skipped,
      ...(entry.cache === undefined ? {} : { cache: entry.cache }),
    };
  }
  if (args.call !== undefined) {
    records.length = 0;
    report.call = await callOf(tools, args.call, records);
    if (!report.call.ok) report.ok = false;
  }
  return report;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** The connection `args` describe, named `probe`; a bad definition is a usage error. */
function definitionOf(
  args: ProbeArgs,
  env: NodeJS.ProcessEnv,
  observe: (record: TransitionRecord) => void,
): ConnectionDefinition {
  const token = tokenFrom(env, args.tokenEnv);
  const common = {
    name: 'probe',
    observe,
    ...(token === undefined ? {} : { token: () => token }),
    ...(args.allowHosts.length === 0 ? {} : { allowHosts: args.allowHosts }),
    ...(args.proxy === undefined ? {} : { proxy: args.proxy }),
    ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
    ...(args.maxBytes === undefined ? {} : { maxResponseBytes: args.maxBytes }),
  };
  try {
    if (args.target.kind === 'mcp') {
      return defineMcpClientConnection({
        ...common,
        transport: { url: args.target.url, headers: args.headers },
      });
    }
    return defineOpenApiConnection({
      ...common,
      spec: specOf(args.target.spec),
      headers: args.headers,
      ...(args.target.baseUrl === undefined ? {} : { baseUrl: args.target.baseUrl }),
    });
  } catch (error) {
    throw new ProbeUsageError(error instanceof Error ? error.message : String(error));
  }
}

/** A URL as given; a file's text (JSON, which the connection parses). */
function specOf(spec: string): string {
  if (/^https?:\/\//i.test(spec)) return spec;
  try {
    return readFileSync(spec, 'utf8');
  } catch (error) {
    throw new ProbeUsageError(
      `--openapi ${spec}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
}

/** Reads the revision and the wire of the first MCP operation off the diagnostics channel. */
function watchDiscovery(): { outcome: Omit<Negotiated, 'how'> | undefined; stop(): void } {
  const channel = tracingChannel(DIAGNOSTICS_CHANNELS.operation);
  const watch: { outcome: Omit<Negotiated, 'how'> | undefined; stop(): void } = {
    outcome: undefined,
    stop: () => channel.unsubscribe(handlers),
  };
  const ignore = () => {};
  const handlers = {
    start: ignore,
    end: ignore,
    asyncStart: ignore,
    error: ignore,
    asyncEnd: (message: unknown) => {
      const { result } = message as { result?: { protocolVersion?: unknown; transport?: unknown } };
      if (watch.outcome !== undefined || typeof result?.protocolVersion !== 'string') return;
      const protocolVersion = result.protocolVersion;
      const wire =
        protocolVersion === '2026-07-28'
          ? 'stateless'
          : result.transport === 'sse'
            ? 'sse'
            : 'streamable-http';
      watch.outcome = { protocolVersion, wire };
    },
  };
  channel.subscribe(handlers);
  return watch;
}

/** How discovery reached its wire, read off the regions its run entered. */
function howNegotiated(records: readonly TransitionRecord[]): string {
  const entered = (region: string) => records.some((record) => record.to.startsWith(region));
  if (entered('sse.')) {
    return 'the Streamable HTTP POST was refused with 400, 404 or 405, so legacy HTTP+SSE followed';
  }
  if (entered('stateless.') && entered('session.')) {
    return 'the 2026-07-28 request was answered the way a 2025 server answers, so the 2025 handshake followed';
  }
  if (entered('stateless.')) return 'the 2026-07-28 request was answered in kind';
  return 'the connection is pinned to 2025-11-25';
}

/** Each transition, with the ms the run spent in the state it left. */
function traceOf(records: readonly TransitionRecord[]): TraceStep[] {
  // Keyed by machine: a retry's records and its attempts' interleave; the probe runs one at a time.
  const last = new Map<string, number>();
  return records.map((record) => {
    const before = record.from === '' ? record.elapsedMs : (last.get(record.machine) ?? 0);
    last.set(record.machine, record.elapsedMs);
    const step: TraceStep = {
      machine: record.machine,
      from: record.from,
      to: record.to,
      event: record.event,
      ms: Math.round((record.elapsedMs - before) * 10) / 10,
    };
    return record.task === undefined ? step : { ...step, task: record.task };
  });
}

function toolOf(tool: AnyRuntimeToolDefinition): ProbedTool {
  const annotations = Object.entries(tool.annotations ?? {})
    .filter(([key, value]) => key.endsWith('Hint') && value === true)
    .map(([key]) => key);
  return {
    name: tool.name,
    description: tool.description,
    annotations,
    schemaBytes: mountedToolCost(tool)?.schemaBytes ?? 0,
  };
}

async function callOf(
  tools: readonly AnyRuntimeToolDefinition[],
  call: NonNullable<ProbeArgs['call']>,
  records: readonly TransitionRecord[],
): Promise<ProbedCall> {
  const tool = tools.find((candidate) => candidate.name === call.tool);
  if (tool === undefined) {
    throw new ProbeUsageError(
      `--call ${call.tool}: no such tool (mounted: ${tools.map((t) => t.name).join(', ') || 'none'})`,
    );
  }
  const progress: ProbedCall['progress'][number][] = [];
  const asked: ProbedCall['asked'][number][] = [];
  const started = performance.now();
  const answer = call.answer;
  const result = await runTool(tool, call.args, {
    source: 'cli',
    // With --answer, the probe is a caller that accepts every elicitation with it.
    ...(answer === undefined
      ? {}
      : {
          caller: {
            capabilities: { elicitation: {} },
            request: (request: { method: string; params: Readonly<Record<string, unknown>> }) => {
              const message = request.params.message;
              asked.push({
                method: request.method,
                ...(typeof message === 'string' ? { message } : {}),
              });
              return { result: { action: 'accept', content: answer } };
            },
          },
        }),
    reportProgress: (value, total, message) => {
      progress.push({
        progress: value,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      });
    },
  });
  const ms = elapsed(started);
  const trace = traceOf(records);
  if (result.ok) {
    return { tool: call.tool, ok: true, result: result.data, progress, asked, trace, ms };
  }
  return {
    tool: call.tool,
    ok: false,
    error: failureOf(toolCauseFromResult(result) ?? result),
    progress,
    asked,
    trace,
    ms,
  };
}
