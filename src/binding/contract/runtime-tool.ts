/**
 * The stitchkit tool contract: the shape of a runtime tool definition, its handler context, and
 * the definition-time checks. Field names match stitchkit's own `RuntimeToolDefinition`.
 */

import type { z } from 'zod';
import type { CallToolResult, ToolAnnotations } from '../kernel/mcp-types.js';
import type { ToolCaller } from './caller.js';
import { isZodObjectSchema, isZodSchema } from './zod-schema.js';

/** A surface a tool can be exposed on. */
export type ToolTransport = 'MCP' | 'AGENT' | 'CLI';

/** Every transport, in the order introspection reports them. */
export const TOOL_TRANSPORTS: readonly ToolTransport[] = ['MCP', 'AGENT', 'CLI'];

/** Transports a definition is exposed on when it names none: CLI is always an explicit opt-in. */
export const DEFAULT_TOOL_TRANSPORTS: readonly ToolTransport[] = ['MCP', 'AGENT'];

/** The semantic HTTP verb of a tool, used for lifecycle and audit attribution. */
export type ToolHttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const TOOL_HTTP_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
]);

/** Where a call comes from; written into the handler context as `ctx.source`. */
export type ToolSource = 'mcp' | 'agent' | 'cli' | 'internal';

/** Provider-legal tool names: 1 to 64 of `A-Z a-z 0-9 _ -`. */
export const TOOL_NAME_PATTERN: RegExp = /^[A-Za-z0-9_-]{1,64}$/;

/** Who a tool belongs to and what it does, for attribution and collision messages. */
export interface RuntimeToolIdentity {
  /** The owning service, e.g. a connection name. */
  serviceName: string;
  /** The action within the service, e.g. an operation id. */
  action: string;
  /** The semantic verb of the action. */
  method: ToolHttpMethod;
  /** An optional authorization scope. */
  scope?: string;
}

/** What an MCP presenter returns: a tool result without `isError`. */
export interface McpPresentation {
  /** The content blocks sent to the MCP client. */
  content: CallToolResult['content'];
  /**
   * Structured content sent beside the blocks (a plain object); required on every result of a
   * tool that declares `outputJsonSchema`, which MCP clients check it against.
   */
  structuredContent?: Record<string, unknown>;
  /** Optional protocol metadata. */
  _meta?: Record<string, unknown>;
}

/**
 * Reports how far a call has got: `progress` grows with each report, `total` is its expected end
 * when known, `message` reads to a person. Where it goes depends on the transport.
 */
export type ToolProgressReporter = (
  progress: number,
  total?: number,
  message?: string,
) => void | Promise<void>;

/**
 * The context shared by hooks and the handler: host context fields spread in, then the
 * framework-owned `signal`, `source`, `reportProgress`, `caller` and `toolCallId`, which win over
 * host fields of the same name.
 */
export interface RuntimeToolCallContext {
  /** Aborts when the caller cancels the call; always present. */
  signal: AbortSignal;
  /**
   * Reports progress to the caller; always present. On MCP it sends `notifications/progress` when
   * the request carries a `progressToken`; elsewhere it is a no-op. It never throws: a failing
   * sender is contained, and the returned promise (when any) always resolves.
   */
  reportProgress: ToolProgressReporter;
  /**
   * The call's caller, for what a tool may ask it while it runs (sampling, elicitation, roots) and
   * the log messages it may send it; always present. On MCP it reaches the client that sent the
   * call, for what that client declared; through `runTool` and `mountAgent`, the host's optional
   * handler. A request the caller never declared resolves `-32601` at once.
   */
  caller: ToolCaller;
  /** The surface the call came from. */
  source: ToolSource;
  /** The caller's id for this call, when the transport has one. */
  toolCallId?: string;
  /** Host context fields. */
  [field: string]: unknown;
}

/** The handler's context: the call context plus the validated input. */
export type RuntimeToolHandlerContext<I = unknown> = RuntimeToolCallContext & {
  /** The arguments after input validation. */
  input: I;
};

/**
 * A transport-neutral tool: zod input (and optional output), an identity, and a handler. Mount it
 * on MCP (`mountMcp`), on an agent (`mountAgent`), or run it directly with `runTool`.
 */
export interface RuntimeToolDefinition<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
> {
  /** Tool name; must match {@link TOOL_NAME_PATTERN}. */
  name: string;
  /** What the tool does, for the model or MCP client. */
  description: string;
  /** Who the tool belongs to. */
  identity: RuntimeToolIdentity;
  /** The input schema: a zod 4 object schema (from the application's zod). */
  input: I;
  /**
   * The JSON Schema advertised for `input` instead of converting it, for a tool whose schema
   * comes from elsewhere (an OpenAPI document). It must describe an object and accept what
   * `input` accepts; validation still runs through `input`.
   */
  inputJsonSchema?: Readonly<Record<string, unknown>>;
  /**
   * The JSON Schema advertised as the tool's MCP `outputSchema` (by `mountMcp` and
   * `buildToolManifest`), for a tool whose results carry checked `structuredContent` (an upstream
   * MCP tool's own schema). It must describe an object; every successful MCP presentation must
   * then carry `structuredContent`, or `mountMcp` answers `INTERNAL_SERVER_ERROR`. It does not
   * validate anything itself.
   */
  outputJsonSchema?: Readonly<Record<string, unknown>>;
  /** The declared output schema; a mismatch is a server fault (`INTERNAL_SERVER_ERROR`). */
  output?: O;
  /** Surfaces the tool is exposed on; default MCP + AGENT; an empty list is an error. */
  transports?: readonly ToolTransport[];
  /** MCP tool annotations. */
  annotations?: ToolAnnotations;
  /** Does the work. Throw an `AppError` for expected failures. */
  handler(ctx: RuntimeToolHandlerContext<z.infer<I>>): Promise<z.infer<O>> | z.infer<O>;
  /** Per-transport presenters of the validated output. */
  present?: {
    /** Presents the output as MCP content; replaces the default JSON text + structuredContent. */
    mcp?(output: z.infer<O>): McpPresentation;
    /** Presents the output as the value the agent's model receives. */
    agent?(output: z.infer<O>): unknown;
  };
}

/** Any runtime tool definition, whatever its schemas. */
export type AnyRuntimeToolDefinition = RuntimeToolDefinition<z.ZodObject, z.ZodType>;

/**
 * Checks a definition and returns it unchanged. A bad definition throws a `TypeError` whose
 * message names the tool and the problem.
 */
export function defineRuntimeTool<I extends z.ZodObject, O extends z.ZodType = z.ZodType>(
  definition: RuntimeToolDefinition<I, O>,
): RuntimeToolDefinition<I, O> {
  assertRuntimeToolDefinition(definition);
  return definition;
}

/** Definitions whose `input` is made on its first read ({@link withLazyInput}). */
const lazyInputs = new WeakSet<object>();

/**
 * Gives `definition` an `input` that `make` builds on the first read of the property and that
 * every later read returns. For a tool whose zod object costs more to make than a mount should pay
 * (one per operation of a large OpenAPI document, most never called): the model is shown its
 * `inputJsonSchema`, and the contract's check does not read `input` to make it (the type of
 * `make` is the check). The property stays an enumerable own property, so a copy of the
 * definition (a spread) copies the made object.
 */
export function withLazyInput<D extends AnyRuntimeToolDefinition>(
  definition: D,
  make: () => z.ZodObject,
): D {
  let input: z.ZodObject | undefined;
  Object.defineProperty(definition, 'input', {
    enumerable: true,
    get: () => {
      input ??= make();
      return input;
    },
  });
  lazyInputs.add(definition);
  return definition;
}

/**
 * Throws a `TypeError` naming the tool and the problem when `definition` breaks the contract:
 * name pattern, description, identity, zod object input, zod output, transports, presenters.
 */
export function assertRuntimeToolDefinition(definition: unknown): void {
  if (typeof definition !== 'object' || definition === null) {
    throw new TypeError('Runtime tool definition must be an object');
  }
  const def = definition as Partial<Record<keyof AnyRuntimeToolDefinition, unknown>>;
  const label = `Runtime tool ${JSON.stringify(String(def.name))}`;
  const fail = (problem: string): never => {
    throw new TypeError(`${label}: ${problem}`);
  };
  if (typeof def.name !== 'string' || !TOOL_NAME_PATTERN.test(def.name)) {
    const length = typeof def.name === 'string' ? ` (got ${def.name.length} characters)` : '';
    fail(`name must match [A-Za-z0-9_-]{1,64}${length}`);
  }
  if (typeof def.description !== 'string') fail('description must be a string');
  assertIdentity(def.identity, fail);
  if (!lazyInputs.has(definition) && !isZodObjectSchema(def.input)) {
    fail('input must be a zod 4 object schema (z.object)');
  }
  if (
    def.inputJsonSchema !== undefined &&
    (typeof def.inputJsonSchema !== 'object' ||
      def.inputJsonSchema === null ||
      (def.inputJsonSchema as { type?: unknown }).type !== 'object')
  ) {
    fail('inputJsonSchema must be a JSON Schema object with type "object"');
  }
  if (
    def.outputJsonSchema !== undefined &&
    (typeof def.outputJsonSchema !== 'object' ||
      def.outputJsonSchema === null ||
      (def.outputJsonSchema as { type?: unknown }).type !== 'object')
  ) {
    fail('outputJsonSchema must be a JSON Schema object with type "object"');
  }
  if (def.output !== undefined && !isZodSchema(def.output)) {
    fail('output must be a zod 4 schema');
  }
  if (def.transports !== undefined) assertTransports(def.transports, fail);
  if (typeof def.handler !== 'function') fail('handler must be a function');
  if (def.annotations !== undefined && (typeof def.annotations !== 'object' || !def.annotations)) {
    fail('annotations must be an object');
  }
  if (def.present !== undefined) {
    const present = def.present as Record<string, unknown> | null;
    if (typeof present !== 'object' || present === null) fail('present must be an object');
    for (const key of ['mcp', 'agent']) {
      const presenter = present?.[key];
      if (presenter !== undefined && typeof presenter !== 'function') {
        fail(`present.${key} must be a function`);
      }
    }
  }
}

function assertIdentity(identity: unknown, fail: (problem: string) => never): void {
  if (typeof identity !== 'object' || identity === null) fail('identity must be an object');
  const { serviceName, action, method, scope } = identity as Record<string, unknown>;
  if (typeof serviceName !== 'string' || serviceName === '') {
    fail('identity.serviceName must be a non-empty string');
  }
  if (typeof action !== 'string' || action === '') {
    fail('identity.action must be a non-empty string');
  }
  if (typeof method !== 'string' || !TOOL_HTTP_METHODS.has(method)) {
    fail('identity.method must be one of GET, HEAD, POST, PUT, PATCH, DELETE');
  }
  if (scope !== undefined && typeof scope !== 'string') fail('identity.scope must be a string');
}

function assertTransports(transports: unknown, fail: (problem: string) => never): void {
  if (!Array.isArray(transports)) fail('transports must be an array');
  const list = transports as unknown[];
  if (list.length === 0) fail('must expose at least one transport');
  for (const transport of list) {
    if (!TOOL_TRANSPORTS.includes(transport as ToolTransport)) {
      fail(`unknown transport ${JSON.stringify(transport)} (expected MCP, AGENT or CLI)`);
    }
  }
}

/** The transports a definition is exposed on, in {@link TOOL_TRANSPORTS} order. */
export function resolveToolTransports(
  definition: Pick<AnyRuntimeToolDefinition, 'transports'>,
): ToolTransport[] {
  const declared = definition.transports ?? DEFAULT_TOOL_TRANSPORTS;
  return TOOL_TRANSPORTS.filter((transport) => declared.includes(transport));
}
