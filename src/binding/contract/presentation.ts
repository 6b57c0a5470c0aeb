/**
 * Transport presenters: what a validated output becomes on MCP and on an agent. They run inside
 * the canonical runner, so a presenter failure is part of the call's attempt.
 */
import type { CallToolResult } from '../kernel/mcp-types.js';
import type { AnyRuntimeToolDefinition, ToolTransport } from './runtime-tool.js';

/** A successful MCP tool result as the runner presents it (never with `isError`). */
export type McpCallPresentation = Pick<CallToolResult, 'content' | 'structuredContent' | '_meta'>;

/**
 * Presents `output` for `transport`. MCP: `present.mcp`'s content, `_meta` and plain-object
 * `structuredContent` (anything else, `isError` included, is dropped), else the JSON text plus
 * `structuredContent` for a plain object.
 * AGENT: `present.agent`'s value, else the output. No transport: the output.
 */
export function presentOutput(
  definition: AnyRuntimeToolDefinition,
  transport: ToolTransport | undefined,
  output: unknown,
): unknown {
  if (transport === 'AGENT') {
    return definition.present?.agent ? definition.present.agent(output) : output;
  }
  if (transport === 'MCP') {
    return definition.present?.mcp
      ? customMcpPresentation(definition, definition.present.mcp(output))
      : defaultMcpPresentation(output);
  }
  return output;
}

function customMcpPresentation(
  definition: AnyRuntimeToolDefinition,
  presentation: unknown,
): McpCallPresentation {
  if (!isPlainObject(presentation) || !Array.isArray(presentation.content)) {
    throw new TypeError(`MCP presenter of tool "${definition.name}" returned no content array`);
  }
  const presented: McpCallPresentation = {
    content: presentation.content as CallToolResult['content'],
  };
  if (isPlainObject(presentation.structuredContent)) {
    presented.structuredContent = presentation.structuredContent;
  }
  if (isPlainObject(presentation._meta)) presented._meta = presentation._meta;
  return presented;
}

function defaultMcpPresentation(output: unknown): McpCallPresentation {
  // JSON.stringify throws on BigInt and cycles; here that is a failure of this attempt.
  const text = JSON.stringify(output ?? null);
  const presented: McpCallPresentation = { content: [{ type: 'text', text }] };
  if (isPlainObject(output)) presented.structuredContent = output;
  return presented;
}

/**
 * The symbol under which a failure carries the MCP result to relay as it is (an upstream tool's
 * own `isError` answer, re-exposed by a gateway). A registered symbol, so a second copy of the
 * package recognises it. Only `mountMcp` reads it; every other surface sees the failure's
 * model-safe projection.
 */
export const MCP_ERROR_PRESENTATION: unique symbol = Symbol.for(
  'stitchkit-transport.mcpErrorPresentation',
) as never;

/** A failure that carries the MCP content to relay verbatim (sent with `isError: true`). */
export interface McpErrorPresenting {
  /** The upstream's own content (and structured content, `_meta`); must not throw. */
  [MCP_ERROR_PRESENTATION](): McpCallPresentation;
}

/**
 * What `cause` presents under `symbol` (a method of the failure, called with it as `this`) when
 * `accept` takes it; `undefined` for a cause without the method, one that throws, or a value
 * `accept` refuses. The one reader of the failure protocols below.
 */
function presentedBy<T>(
  cause: unknown,
  symbol: symbol,
  accept: (value: unknown) => value is T,
): T | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const present = (cause as Record<symbol, unknown>)[symbol];
  if (typeof present !== 'function') return undefined;
  try {
    const value: unknown = present.call(cause);
    return accept(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The relayed MCP presentation of a failure's cause, or `undefined` when it carries none. */
export function mcpErrorPresentationOf(cause: unknown): McpCallPresentation | undefined {
  return presentedBy(
    cause,
    MCP_ERROR_PRESENTATION,
    (value): value is McpCallPresentation => isPlainObject(value) && Array.isArray(value.content),
  );
}

/** Questions an upstream asked a caller that answers by a retry, and the upstream's state. */
export interface McpInputRequest {
  /** The questions, by the keys the upstream gave them (`elicitation/create`, ...), as written. */
  readonly inputRequests: Readonly<Record<string, unknown>>;
  /** The upstream's `requestState`, exactly as it was sent, when it sent one. */
  readonly requestState?: string;
}

/**
 * The symbol under which a failure carries an upstream's `input_required` for a caller that
 * answers by a retry (`ToolCallerHandler.defersInput`). A registered symbol, like
 * {@link MCP_ERROR_PRESENTATION}; only `mountMcp` reads it, and answers `input_required` itself.
 */
export const MCP_INPUT_REQUIRED: unique symbol = Symbol.for(
  'stitchkit-transport.mcpInputRequired',
) as never;

/** A failure that carries an upstream's questions for the caller. */
export interface McpInputRequiring {
  /** The questions and the upstream's state; must not throw. */
  [MCP_INPUT_REQUIRED](): McpInputRequest;
}

/** The upstream's questions a failure's cause carries, or `undefined` when it carries none. */
export function mcpInputRequestOf(cause: unknown): McpInputRequest | undefined {
  return presentedBy(
    cause,
    MCP_INPUT_REQUIRED,
    (value): value is McpInputRequest => isPlainObject(value) && isPlainObject(value.inputRequests),
  );
}

/**
 * The symbol under which a failure carries the client capabilities an upstream said the call
 * needs and the caller never declared (a JSON-RPC `-32021` refusal, MCP 2026-07-28). A
 * registered symbol; only `mountMcp` reads it, to refuse its own client the same way.
 */
export const MCP_REQUIRED_CAPABILITIES: unique symbol = Symbol.for(
  'stitchkit-transport.mcpRequiredCapabilities',
) as never;

/** A failure that names the client capabilities its upstream required. */
export interface McpCapabilityRequiring {
  /** The required capabilities (`{ sampling: {} }`), or `undefined` when it names none. */
  [MCP_REQUIRED_CAPABILITIES](): Readonly<Record<string, unknown>> | undefined;
}

/** The capabilities a failure's cause says its upstream required, or `undefined`. */
export function mcpRequiredCapabilitiesOf(
  cause: unknown,
): Readonly<Record<string, unknown>> | undefined {
  return presentedBy(cause, MCP_REQUIRED_CAPABILITIES, isPlainObject);
}

/** True for `{}`-style objects (prototype `Object.prototype` or `null`). */
// Stricter than `isRecord`: class instances, Dates and Maps are not plain data to present.
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
