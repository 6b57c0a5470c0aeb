/**
 * The JSON-RPC error codes this library reads and answers, in one table per source: the ones
 * JSON-RPC 2.0 itself defines, and the ones MCP adds for its own refusals (specification, basic:
 * "Error codes"). In the kernel so that every layer reads the same constants: the wire's error
 * classes and the stateless wire's refusals, the machines' guards, the caller relay and the
 * gateway. Pure: constants only.
 */

/** JSON-RPC 2.0's own codes that MCP uses. */
export const JSON_RPC_ERROR = Object.freeze({
  /** `-32601`: the receiver has no such method. */
  methodNotFound: -32601,
  /** `-32602`: invalid params; MCP's answer for a task id the receiver does not know. */
  invalidParams: -32602,
  /** `-32603`: internal error. */
  internalError: -32603,
} as const);

/** JSON-RPC codes of MCP's refusals, as the 2026-07-28 revision defines them. */
export const MCP_RPC_ERROR = Object.freeze({
  /** `-32020`: a `Mcp-*` header disagrees with the request body. */
  headerMismatch: -32020,
  /** `-32021`: a client capability the request did not declare. */
  missingClientCapability: -32021,
  /** `-32022`: a protocol revision the server does not support (`data.supported` lists its own). */
  unsupportedProtocolVersion: -32022,
} as const);
