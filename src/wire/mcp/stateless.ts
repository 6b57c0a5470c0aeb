/**
 * The pieces of MCP 2026-07-28 ("stateless MCP") a client puts on the wire and reads back: the
 * `_meta` envelope every request carries instead of a session, the `Mcp-*` request headers and the
 * base64 form of an unsafe header value, the `resultType` of a result, and the JSON-RPC error an
 * HTTP 4xx answer carries. Pure: no I/O.
 */

import { MCP_RPC_ERROR } from '../../binding/kernel/rpc-codes.js';
import { isRecord } from '../../binding/kernel/type-guards.js';
import { isHttpToken } from '../core/header-text.js';
import type { OperationScope } from '../core/operation.js';
import { ConnectionProtocolError } from '../errors/errors.js';

/** The protocol revision of the stateless wire. */
export const STATELESS_REVISION = '2026-07-28';

/** The `_meta` keys of the request envelope (specification, basic: "Request metadata"). */
export const META = Object.freeze({
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
});

/**
 * The log level a request asks for when its caller takes logs: `debug`, the lowest, so every
 * message the server writes reaches the caller, as on the 2025 wire, where no `logging/setLevel`
 * is sent and a server sends every level.
 */
export const STATELESS_LOG_LEVEL = 'debug';

/** A JSON-RPC error object, as an HTTP answer's body carries it. */
export interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * The JSON-RPC error an HTTP answer's body carries, or `undefined` when the body is not one (not
 * JSON, not an error response, a code that is not an integer).
 */
export function rpcErrorOf(body: string): RpcErrorBody | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || parsed.jsonrpc !== '2.0' || !isRecord(parsed.error)) return undefined;
  const { code, message, data } = parsed.error;
  if (!Number.isInteger(code)) return undefined;
  const text = typeof message === 'string' ? message : '';
  return data === undefined
    ? { code: code as number, message: text }
    : { code: code as number, message: text, data };
}

/** The versions a `-32022` refusal says the server supports (`data.supported`), else none. */
export function supportedVersionsOf(error: RpcErrorBody | undefined): readonly string[] {
  const supported = isRecord(error?.data) ? error.data.supported : undefined;
  return Array.isArray(supported)
    ? supported.filter((version): version is string => typeof version === 'string')
    : [];
}

/**
 * What a 4xx carrying a JSON-RPC error says, completing `Connection "<name>" …`: a `-32021` names
 * the client capabilities the call needed (`data.requiredCapabilities`); any other code is quoted.
 */
export function rpcRefusalViolation(status: number, error: RpcErrorBody): string {
  if (error.code === MCP_RPC_ERROR.missingClientCapability) {
    const required = isRecord(error.data) ? error.data.requiredCapabilities : undefined;
    const names = isRecord(required) ? Object.keys(required).join(', ') : '';
    return `needs client capabilities its caller did not declare (${names || 'none named'})`;
  }
  return `answered HTTP ${status} with MCP error (code ${error.code})`;
}

const SAFE_HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const BASE64_SENTINEL = /^=\?base64\?/i;

/**
 * A value as an `Mcp-Name` or `Mcp-Param-*` header carries it: as it is when it is plain visible
 * ASCII without edge whitespace, else (non-ASCII, control characters, edge whitespace, empty, or
 * text that looks like the sentinel) `=?base64?<base64 of its UTF-8>?=`.
 */
export function mcpHeaderValue(value: string): string {
  if (SAFE_HEADER_VALUE.test(value) && !BASE64_SENTINEL.test(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** One request the server asks the client to answer before it completes (`inputRequests`). */
export interface InputRequest {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** An `input_required` result: what the server asks, and the state to send back byte for byte. */
export interface InputRequired {
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  /** Opaque; absent when the server sent none. */
  readonly requestState?: string;
}

/**
 * A stateless result's `resultType`: absent (a server that predates it) or `complete` is a complete
 * result (`undefined`); `input_required` is what the server asks (`inputRequests`, `requestState`,
 * at least one of them, checked); any other value is refused.
 */
export function inputRequiredOf(result: unknown, scope: OperationScope): InputRequired | undefined {
  const resultType = isRecord(result) ? result.resultType : undefined;
  if (resultType === undefined || resultType === 'complete') return undefined;
  const invalid = (violation: string) => new ConnectionProtocolError({ ...scope, violation });
  if (resultType !== 'input_required' || !isRecord(result)) {
    throw invalid('sent a result of an unknown resultType');
  }
  const { inputRequests, requestState } = result;
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw invalid('sent an input_required result whose requestState is not a string');
  }
  if (inputRequests === undefined && requestState === undefined) {
    throw invalid('sent an input_required result with neither inputRequests nor requestState');
  }
  const requests: Record<string, InputRequest> = {};
  if (inputRequests !== undefined) {
    if (!isRecord(inputRequests)) throw invalid('sent inputRequests that are not an object');
    for (const [key, entry] of Object.entries(inputRequests)) {
      if (!isRecord(entry) || typeof entry.method !== 'string') {
        throw invalid('sent an input request without a method');
      }
      requests[key] = { method: entry.method, params: isRecord(entry.params) ? entry.params : {} };
    }
  }
  return requestState === undefined
    ? { inputRequests: requests }
    : { inputRequests: requests, requestState };
}

/** An argument the stateless wire mirrors into a header: `Mcp-Param-<header>` carries its value. */
export interface McpHeaderParam {
  /** The argument's name (a top-level property of the input schema). */
  readonly argument: string;
  /** The header's suffix, as the schema's `x-mcp-header` names it. */
  readonly header: string;
}

const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

/**
 * The arguments a tool's input schema mirrors into `Mcp-Param-*` headers (`x-mcp-header`, MCP
 * 2026-07-28), or why its annotations are invalid: a name that is empty, not a header token, or
 * a duplicate ignoring case; a property that is not a string, an integer or a boolean; an
 * annotation anywhere but on a top-level property. A client must not mount such a tool.
 */
export function headerParamsOf(
  inputSchema: unknown,
): { readonly params: readonly McpHeaderParam[] } | { readonly invalid: string } {
  const params: McpHeaderParam[] = [];
  const seen = new Set<string>();
  const properties =
    isRecord(inputSchema) && isRecord(inputSchema.properties) ? inputSchema.properties : {};
  for (const [argument, property] of Object.entries(properties)) {
    if (!isRecord(property) || !('x-mcp-header' in property)) continue;
    const header = property['x-mcp-header'];
    if (typeof header !== 'string' || !isHttpToken(header)) {
      return { invalid: `x-mcp-header of "${argument}" is not a header name` };
    }
    if (seen.has(header.toLowerCase())) {
      return { invalid: `x-mcp-header "${header}" names two arguments` };
    }
    if (!HEADER_TYPES.has(property.type)) {
      return {
        invalid: `x-mcp-header of "${argument}" is on a ${String(property.type ?? 'untyped')} property`,
      };
    }
    seen.add(header.toLowerCase());
    params.push({ argument, header });
  }
  const annotated = countAnnotations(inputSchema);
  if (annotated !== params.length) {
    return { invalid: 'x-mcp-header appears on something other than a top-level property' };
  }
  return { params };
}

/** How many `x-mcp-header` keys a schema holds, wherever they are. */
function countAnnotations(value: unknown): number {
  if (Array.isArray(value))
    return value.reduce<number>((sum, item) => sum + countAnnotations(item), 0);
  if (!isRecord(value)) return 0;
  let count = 'x-mcp-header' in value ? 1 : 0;
  for (const child of Object.values(value)) count += countAnnotations(child);
  return count;
}

/**
 * The `Mcp-Param-*` headers of one call: each mirrored argument that is present and not null, a
 * string as it is (or in its base64 form), an integer in decimal, a boolean as `true`/`false`.
 */
export function mcpParamHeaders(
  params: readonly McpHeaderParam[],
  args: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { argument, header } of params) {
    const value = args[argument];
    if (typeof value === 'string')
      headers[`mcp-param-${header.toLowerCase()}`] = mcpHeaderValue(value);
    else if (typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value))) {
      headers[`mcp-param-${header.toLowerCase()}`] = String(value);
    }
  }
  return headers;
}
