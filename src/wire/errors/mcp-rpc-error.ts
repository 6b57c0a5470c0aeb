/**
 * The JSON-RPC error codes MCP adds for its own refusals (specification, basic: "Error codes"):
 * one table, read by the error classes (a `-32021` names the capabilities it required) and by the
 * stateless wire that recognises the refusals. Pure: constants only.
 */

/** JSON-RPC codes of MCP's refusals, as the 2026-07-28 revision defines them. */
export const MCP_RPC_ERROR = Object.freeze({
  /** `-32020`: a `Mcp-*` header disagrees with the request body. */
  headerMismatch: -32020,
  /** `-32021`: a client capability the request did not declare. */
  missingClientCapability: -32021,
  /** `-32022`: a protocol revision the server does not support (`data.supported` lists its own). */
  unsupportedProtocolVersion: -32022,
});
