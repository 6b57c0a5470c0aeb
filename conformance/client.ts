/**
 * The client under test for `@modelcontextprotocol/conformance` (client mode). The suite appends the
 * scenario server's URL as the last argument, names the scenario in MCP_CONFORMANCE_SCENARIO and,
 * for scenarios that say which calls to make, passes them in MCP_CONFORMANCE_CONTEXT
 * (`toolCalls`: names and arguments). It runs this library's discovery, then calls the named tools
 * (or each discovered tool, with arguments sampled from its schema) through the canonical runner,
 * each operation on its own client, with a caller that answers elicitation, sampling and roots.
 * A scenario that examines discovery alone stops after the mount. Exits 1 on any failure.
 */
import {
  type AnyRuntimeToolDefinition,
  runTool,
  type ToolCallerHandler,
} from '../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../src/connections/index.js';

/**
 * Scenarios that examine discovery alone: their server lists tools and answers `tools/call` with
 * `-32601`, so the client stops after the mount (a call would only fail the run).
 */
const DISCOVERY_ONLY: ReadonlySet<string> = new Set(['json-schema-ref-no-deref']);

const ARGUMENTS: Readonly<Record<string, Record<string, unknown>>> = {
  add_numbers: { a: 2, b: 3 },
};

/**
 * What a user who accepts a form unchanged sends back: the form's defaults (MCP elicitation,
 * SEP-1034: a client shows each field pre-filled with its `default`). The library relays the
 * server's question and the caller's answer as written; filling a form is the caller's part.
 */
function acceptedDefaults(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const schema = params.requestedSchema as { properties?: Record<string, { default?: unknown }> };
  return Object.fromEntries(
    Object.entries(schema?.properties ?? {}).flatMap(([name, field]) =>
      field.default === undefined ? [] : [[name, field.default]],
    ),
  );
}

/**
 * A caller that accepts every elicitation as its form's defaults, answers sampling with a fixed
 * text, and has no roots.
 */
const CALLER: ToolCallerHandler = {
  capabilities: { elicitation: {}, sampling: {}, roots: {} },
  request: async ({ method, params }) => {
    if (method === 'elicitation/create') {
      return { result: { action: 'accept', content: acceptedDefaults(params) } };
    }
    if (method === 'sampling/createMessage') {
      return {
        result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'conformance' },
      };
    }
    return { result: { roots: [] } };
  },
};

interface ToolCall {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

/** The calls the scenario asks for, when its context names them. */
function contextCalls(): readonly ToolCall[] | undefined {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (raw === undefined) return undefined;
  const context = JSON.parse(raw) as { toolCalls?: ToolCall[] };
  return context.toolCalls;
}

const SAMPLES: Readonly<Record<string, unknown>> = {
  string: 'x',
  integer: 1,
  number: 1,
  boolean: true,
  array: [],
  object: {},
};

/** Arguments for a tool no scenario context names: a sample value for each required property. */
function sampleArguments(schema: unknown): Record<string, unknown> {
  const { properties, required } = (schema ?? {}) as {
    properties?: Record<string, { type?: unknown }>;
    required?: unknown;
  };
  const names = Array.isArray(required) ? (required as string[]) : [];
  return Object.fromEntries(
    names.map((name) => [name, SAMPLES[String(properties?.[name]?.type ?? 'string')] ?? 'x']),
  );
}

async function call(
  scenario: string,
  tool: AnyRuntimeToolDefinition,
  args: Record<string, unknown>,
): Promise<void> {
  const result = await runTool(tool, args, { source: 'internal', caller: CALLER });
  console.log(`[${scenario}] ${tool.name}: ${JSON.stringify(result).slice(0, 300)}`);
  if (!result.ok) process.exitCode = 1;
}

async function main(): Promise<void> {
  const url = process.argv.at(-1);
  if (url === undefined || !/^https?:\/\//.test(url)) throw new Error('usage: client.ts <url>');
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'unknown';
  const connection = defineMcpClientConnection({
    name: 'conformance',
    transport: { url },
    timeoutMs: 10_000,
  });
  const tools = await mountConnections([connection]);
  console.log(
    `[${scenario}] discovered ${tools.length} tool(s): ${tools.map((t) => t.name).join(', ')}`,
  );
  if (DISCOVERY_ONLY.has(scenario)) return;
  const named = contextCalls();
  if (named !== undefined) {
    for (const { name, arguments: args } of named) {
      const tool = tools.find((candidate) => candidate.name === name);
      if (tool === undefined) {
        console.log(`[${scenario}] ${name}: not mounted`);
        process.exitCode = 1;
        continue;
      }
      await call(scenario, tool, args ?? {});
    }
    return;
  }
  for (const tool of tools) {
    await call(scenario, tool, ARGUMENTS[tool.name] ?? sampleArguments(tool.inputJsonSchema));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
