/**
 * The pieces of MCP 2026-07-28 ("stateless MCP") a client puts on the wire and reads back: the
 * `_meta` envelope every request carries instead of a session, the `Mcp-*` request headers and the
 * base64 form of an unsafe header value, the `resultType` of a result, and the JSON-RPC error an
 * HTTP 4xx answer carries. Pure: no I/O.
 */
import { isRecord } from '../binding/type-guards.js';
import { ConnectionProtocolError } from './errors.js';
import type { OperationScope } from './operation.js';

/** The protocol revision of the modern wire. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The `_meta` keys of the request envelope (specification, basic: "Request metadata"). */
export const META = Object.freeze({
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
});

/** JSON-RPC codes of the modern wire's refusals (specification, basic: "Error codes"). */
export const MODERN_ERROR = Object.freeze({
  headerMismatch: -32020,
  missingClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
});

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
 * A modern result's `resultType`: absent (a server that predates it) or `complete` is a complete
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
