/**
 * A probe report as text for a person: what was negotiated and how, the tools, what was skipped
 * (grouped by reason), the catalog, the call, and each run's transitions with the ms spent in
 * each state. Colour only when asked (a TTY without `NO_COLOR`); one line per error unless
 * `verbose`.
 */
import type {
  ProbeFailure,
  ProbeReport,
  TraceStep,
  WatchEvent,
  WatchListenState,
} from './probe-report.js';

/** How to print. */
export interface TextStyle {
  readonly color: boolean;
  readonly verbose: boolean;
}

const WIRES = {
  stateless: 'the stateless wire (one POST per request, no session)',
  'streamable-http': 'Streamable HTTP (the 2025 handshake, then the request)',
  sse: 'legacy HTTP+SSE (the fallback after a 400, 404 or 405)',
} as const;

/** Whether to paint: only on a TTY, and not when `NO_COLOR` is set. */
export function wantsColor(
  stdout: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return stdout.isTTY === true && env.NO_COLOR === undefined;
}

/** The report as lines of text. */
export function probeText(report: ProbeReport, style: TextStyle): string {
  const paint = (code: string) => (text: string) =>
    style.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  const bold = paint('1');
  const dim = paint('2');
  const red = paint('31');
  const green = paint('32');
  const out: string[] = [];
  const row = (label: string, text: string) => out.push(`  ${bold(label.padEnd(12))} ${text}`);
  const target = report.target.kind === 'mcp' ? report.target.url : report.target.spec;
  out.push(`${bold('probe')} ${target}`);
  if (report.negotiated !== undefined) {
    const { protocolVersion, wire, how } = report.negotiated;
    row('negotiated', `MCP ${protocolVersion} on ${WIRES[wire]}`);
    out.push(`    ${dim(how)}`);
  }
  if (report.discovery !== undefined) {
    row('discovery', `${report.discovery.ms} ms`);
    out.push(...traceLines(report.discovery.trace, dim));
  }
  if (report.error !== undefined) {
    out.push(...failureLines(report.error, style, red));
    return `${out.join('\n')}\n`;
  }
  const cache =
    report.catalog?.cache === undefined
      ? ''
      : `; caching hint ${JSON.stringify(report.catalog.cache)}`;
  row(
    'tools',
    `${report.tools.length} mounted, ${report.catalog?.schemaBytes ?? 0} schema bytes${cache}`,
  );
  const width = Math.max(0, ...report.tools.map((tool) => tool.name.length));
  const digits = Math.max(0, ...report.tools.map((tool) => String(tool.schemaBytes).length));
  for (const tool of report.tools) {
    const size = `${String(tool.schemaBytes).padStart(digits)} B`;
    const hints = tool.annotations.length === 0 ? '' : `  ${tool.annotations.join(' ')}`;
    out.push(
      `    ${tool.name.padEnd(width)}  ${size}  ${dim(firstLine(tool.description))}${hints}`,
    );
  }
  if (report.skipped.length > 0) {
    row('skipped', `${report.skipped.length}`);
    for (const [reason, entries] of groupBy(report.skipped, (entry) => entry.reason)) {
      out.push(`    ${reason} (${entries.length})`);
      for (const entry of entries) out.push(`      ${entry.tool}: ${dim(entry.message)}`);
    }
  }
  if (report.call !== undefined) {
    const { call } = report;
    row(`call`, `${call.tool}: ${call.ok ? green('ok') : red('failed')} in ${call.ms} ms`);
    for (const step of call.progress) {
      const of = step.total === undefined ? '' : `/${step.total}`;
      out.push(
        `    progress ${step.progress}${of}${step.message === undefined ? '' : ` ${step.message}`}`,
      );
    }
    for (const question of call.asked) {
      out.push(
        `    asked ${question.method}${question.message === undefined ? '' : ` "${question.message}"`}: answered`,
      );
    }
    if (call.ok) out.push(`    result ${JSON.stringify(call.result)}`);
    out.push(...traceLines(call.trace, dim));
    if (call.error !== undefined) out.push(...failureLines(call.error, style, red));
  }
  return `${out.join('\n')}\n`;
}

/** What each state of a list-changed stream means, after its name. */
const LISTEN_STATES: Readonly<Record<WatchListenState, string>> = {
  connecting: 'connecting (until the server says it listens)',
  listening: 'listening (the server tells its tool list changes)',
  reconnecting: 'reconnecting (the stream dropped; waiting its backoff)',
  unoffered: 'unoffered (the server offers no tool list changes)',
  failed: 'failed (its connects failed too many times in a row)',
  closed: 'closed',
  none: 'none (this wire has no list-changed stream to follow)',
};

/**
 * One `--watch` event as a line: the seconds since the probe started, the connection, then why it
 * was listed again and `+added -removed ~changed` (or `failed` with the code and message), or
 * `listen` and the stream's state.
 */
export function watchText(event: WatchEvent): string {
  const head = `+${(event.ms / 1000).toFixed(3)}s ${event.connection}`;
  if (event.event === 'listen') return `${head} listen ${LISTEN_STATES[event.listen]}\n`;
  if (event.error !== undefined) {
    return `${head} ${event.reason} failed ${event.error.code}: ${event.error.message}\n`;
  }
  const tools = [
    ...event.added.map((name) => `+${name}`),
    ...event.removed.map((name) => `-${name}`),
    ...event.changed.map((name) => `~${name}`),
  ];
  return `${head} ${event.reason} ${tools.join(' ')}\n`;
}

function traceLines(trace: readonly TraceStep[], dim: (text: string) => string): string[] {
  return trace.map(
    (step) =>
      `    ${dim(step.machine)} ${step.from === '' ? '(start)' : `${step.from} ${dim(`${step.ms} ms`)}`} -> ${step.to} ${dim(`(${step.event})`)}${step.task === undefined ? '' : dim(` task ${step.task.status}`)}`,
  );
}

function failureLines(
  failure: ProbeFailure,
  style: TextStyle,
  red: (text: string) => string,
): string[] {
  const lines = [`  ${red(`error (exit ${failure.exitCode})`)} ${failure.message}`];
  if (failure.challenge !== undefined)
    lines.push(`    challenge ${JSON.stringify(failure.challenge)}`);
  if (failure.redirectTo !== undefined) lines.push(`    it pointed to ${failure.redirectTo}`);
  else if (failure.url !== undefined) lines.push(`    refused ${failure.url}`);
  if (style.verbose) lines.push(`    ${JSON.stringify(failure.detail)}`);
  return lines;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item)) ?? [];
    group.push(item);
    groups.set(key(item), group);
  }
  return groups;
}
