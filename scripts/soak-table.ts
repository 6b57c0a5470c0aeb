/**
 * The soak's expected-outcome table: the faults each wire plays, what each (wire, fault) row
 * ends in, how a call's outcome is read for the table, and the table's printout. The soak
 * (`scripts/soak.ts`) runs the rows and judges every call against its row.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  type AnyRuntimeToolDefinition,
  CANCELLED_CODE,
  type ToolResult,
} from '../src/binding/index.js';
import {
  answerRpc,
  type FaultReply,
  reply,
  type SeenRequest,
} from '../test/fixtures/fault-server.js';
import type { LegacyFault } from '../test/support/legacy-session-server.js';

/** The whole body of the `early-end` fault: an SSE comment, then the end of the stream. */
export const EARLY_END_TEXT = ': a comment, then the stream ends\n\n';

/** The transport faults, answered to Streamable HTTP `tools/call`s and OpenAPI calls. */
export const FAULTS = [
  'ok',
  'hang',
  '401',
  '403',
  '500',
  '503',
  'oversized',
  'malformed',
  'early-end',
  'cut',
] as const;
/** One of {@link FAULTS}. */
export type Fault = (typeof FAULTS)[number];

/** The reply that plays `fault`; `okBody` is the correct answer, `maxBytes` the bound to pass. */
export function faultReply(
  fault: Fault,
  okBody: string,
  maxBytes: number,
  contentType = 'application/json',
): FaultReply {
  switch (fault) {
    case 'ok':
      return reply.raw(200, { 'content-type': contentType }, [okBody]);
    case 'hang':
      return reply.hang();
    case '401':
      return reply.status(401, '', { 'www-authenticate': 'Bearer error="invalid_token"' });
    case '403':
      return reply.status(403, 'no');
    case '500':
      return reply.status(500, 'boom');
    case '503':
      return reply.status(503, 'busy', { 'retry-after': '1' });
    case 'oversized':
      return reply.raw(200, { 'content-type': 'application/json' }, [
        '['.padEnd(maxBytes * 2, ' '),
      ]);
    case 'malformed':
      return reply.raw(200, { 'content-type': 'application/json' }, ['{"jsonrpc":"2.0","id":']);
    case 'early-end':
      return reply.sse([EARLY_END_TEXT]);
    case 'cut':
      return reply.raw(
        200,
        { 'content-type': 'application/json', 'content-length': '400' },
        ['{"jsonrpc"'],
        {
          cut: true,
        },
      );
  }
}

/** The fault a call names (its message or query), `ok` when it names none. */
export const faultOf = (text: unknown): Fault =>
  FAULTS.includes(text as Fault) ? (text as Fault) : 'ok';

/** One row of the expected-outcome table: a wire, a fault, the call that plays it, its oracle. */
export interface Row {
  readonly wire: string;
  readonly fault: string;
  readonly tool: AnyRuntimeToolDefinition;
  readonly input: Record<string, unknown>;
  /** The outcomes this row may end in (a cancelled call may also end `CANCELLED`). */
  readonly expected: readonly string[];
  /** The row's own verdict on a success's data. */
  readonly success: (data: unknown) => boolean;
  /** The row never gets an answer: it runs under the short deadline. */
  readonly hangs?: boolean;
}

/** The outcome of a call as the table reads it: `ok`, the code, and a network failure's kind. */
export function outcomeLabel(result: ToolResult): string {
  if (result.ok) return 'ok';
  const failure = (result.details as { failure?: unknown } | undefined)?.failure;
  return result.code === 'CONNECTION_NETWORK_ERROR' && typeof failure === 'string'
    ? `${result.code} ${failure}`
    : result.code;
}

/** A row that expects no success. */
export const never = () => false;
/** A success whose MCP content is exactly the echo of `message`. */
export const echoOf = (message: string) => (data: unknown) =>
  isDeepStrictEqual((data as { content?: unknown } | null)?.content, [
    { type: 'text', text: `Echo: ${message}` },
  ]);

/** What each transport fault ends in, on an MCP Streamable HTTP `tools/call` or an OpenAPI call. */
export const HTTP_FAULT_OUTCOMES: Readonly<Record<Fault, readonly string[]>> = {
  ok: ['ok'],
  hang: ['CONNECTION_TIMEOUT'],
  '401': ['UNAUTHORIZED'],
  '403': ['FORBIDDEN'],
  '500': ['CONNECTION_REQUEST_FAILED'],
  '503': ['CONNECTION_REQUEST_FAILED'],
  oversized: ['CONNECTION_RESPONSE_TOO_LARGE'],
  malformed: ['CONNECTION_PROTOCOL_ERROR'],
  'early-end': ['CONNECTION_PROTOCOL_ERROR'],
  // The answer promised 400 bytes and the socket closed after 10: the connection closed.
  cut: ['CONNECTION_NETWORK_ERROR closed', 'CONNECTION_NETWORK_ERROR reset'],
};

/**
 * An OpenAPI call reads any media type as the tool's data: the stream that ends early is, for it,
 * a complete text answer.
 */
export const OPENAPI_FAULT_OUTCOMES: Readonly<Record<Fault, readonly string[]>> = {
  ...HTTP_FAULT_OUTCOMES,
  'early-end': ['ok'],
};

/** What each fault of the legacy session server ends in. */
export const LEGACY_FAULT_OUTCOMES: Readonly<Record<LegacyFault, readonly string[]>> = {
  ok: ['ok'],
  hang: ['CONNECTION_TIMEOUT'],
  'reset-after-post': ['CONNECTION_NETWORK_ERROR reset', 'CONNECTION_NETWORK_ERROR closed'],
  // The stream ended cleanly before the response: a stream that ended without a response.
  'early-end': ['CONNECTION_PROTOCOL_ERROR'],
  malformed: ['CONNECTION_PROTOCOL_ERROR'],
  oversized: ['CONNECTION_RESPONSE_TOO_LARGE'],
  '401': ['UNAUTHORIZED'],
  '500': ['CONNECTION_REQUEST_FAILED'],
};

/** The MCP answer of a fault server to a 2025 or a 2026 request (a 2026 result says it is complete). */
export function mcpAnswer(request: SeenRequest): string {
  const answer = answerRpc(request);
  const stateless = request.headers['mcp-protocol-version'] === '2026-07-28';
  return JSON.stringify(
    stateless && answer?.result !== undefined
      ? { ...answer, result: { ...(answer.result as object), resultType: 'complete' } }
      : answer,
  );
}

/** The table: one line per (wire, fault, outcome), the row's expected outcomes, and a mark on a deviation. */
export function printTable(rows: readonly Row[], tally: ReadonlyMap<string, number>): void {
  console.log(
    `${'wire'.padEnd(11)}${'fault'.padEnd(17)}${'outcome'.padEnd(36)}${'calls'.padStart(6)}  expected`,
  );
  for (const row of rows.toSorted((a, b) =>
    `${a.wire} ${a.fault}`.localeCompare(`${b.wire} ${b.fault}`),
  )) {
    const prefix = `${row.wire}\t${row.fault}\t`;
    const outcomes = [...tally]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => a.localeCompare(b));
    for (const [key, count] of outcomes) {
      const label = key.slice(prefix.length);
      const mark = row.expected.includes(label) || label === CANCELLED_CODE ? '' : '  <- DEVIATES';
      console.log(
        `${row.wire.padEnd(11)}${row.fault.padEnd(17)}${label.padEnd(36)}${String(count).padStart(6)}  ${row.expected.join(' | ')}${mark}`,
      );
    }
  }
}
