/**
 * The MCP failure protocols: registered symbols under which a failure carries what only `mountMcp`
 * relays (an upstream's own `isError` result, its `input_required` questions, the client
 * capabilities it required), and their one reader. They sit in the kernel beside
 * `TOOL_ERROR_PROJECTION`, so the wire's error classes implement them without importing the tool
 * contract. Pure: no I/O.
 */
import type { McpCallPresentation } from './mcp-types.js';
import { brandSymbol, isPlainObject } from './type-guards.js';

/**
 * The symbol under which a failure carries the MCP result to relay as it is (an upstream tool's
 * own `isError` answer, re-exposed by a gateway). A registered symbol, so a second copy of the
 * package recognises it. Only `mountMcp` reads it; every other surface sees the failure's
 * model-safe projection.
 */
export const MCP_ERROR_PRESENTATION: unique symbol = brandSymbol('mcpErrorPresentation') as never;

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
export const MCP_INPUT_REQUIRED: unique symbol = brandSymbol('mcpInputRequired') as never;

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
export const MCP_REQUIRED_CAPABILITIES: unique symbol = brandSymbol(
  'mcpRequiredCapabilities',
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
