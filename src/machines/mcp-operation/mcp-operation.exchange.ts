/**
 * One HTTP exchange of an MCP client, as the `exchange` actor of `mcpOperation` and the task
 * requests of `mcpTask` both run it: the request with the run's headers under the fence, then its
 * answer read within the operation's byte ceiling (JSON, or an SSE stream whose progress and
 * server requests are handled on the way), with the bytes it read and did not report.
 */
import { readRefusal } from '../../wire/http/refusal.js';
import {
  drainBounded,
  fetchWithoutRedirects,
  isEventStream,
  isResponseTo,
  type OperationScope,
  parseJsonText,
  type ReadBudget,
  readBoundedText,
  readSseBatches,
  rpcErrorOf,
  type WireRequest,
  type WireResponse,
  type WireSend,
} from '../../wire/index.js';
import { type BytesReadCounter, bytesReadCounter } from '../bytes-read.js';
import { SecretValue } from '../secret-value.js';
import {
  buildRequestHeaders,
  SSE_ACCEPT,
  STREAMABLE_ACCEPT,
  type StatelessFraming,
} from './mcp-operation.messages.js';
import { decodeRpcResponse, progressOf } from './mcp-operation.policy.js';
import { handleServerMessage } from './mcp-operation.server-requests.js';
import { reportGrowth } from './mcp-operation.streams.js';
import type { ActorBase, RpcExchange } from './mcp-operation.types.js';

/** Where bytes-read and upstream progress are reported (the parent machine). */
export interface ByteReporter {
  send(
    event:
      | { type: 'BYTES_READ'; bytes: number }
      | { type: 'PROGRESS'; progress: number; total?: number; message?: string },
  ): void;
}

/** Input of the `exchange` actor: one HTTP request and how to read its answer. */
export interface ExchangeInput {
  /** What every actor of the run shares. */
  readonly base: ActorBase;
  readonly reporter: ByteReporter;
  readonly url: string;
  readonly method: 'POST' | 'GET';
  /** The JSON-RPC message to POST. */
  readonly message?: object;
  /** The id of the response to wait for; absent for notifications and legacy POSTs. */
  readonly expectId?: number;
  /** Resume an SSE response after this event id. */
  readonly lastEventId?: string;
  /** The request's progress token: matching progress notifications are reported. */
  readonly progressToken?: string | number;
  /**
   * A stateless request (MCP 2026-07-28), framed with these headers; its answer is a stateless result,
   * whose `resultType` is checked. Absent on the 2025 wires.
   */
  readonly stateless?: StatelessFraming;
  /** The operation's byte ceiling and what it has already read. */
  readonly maxBytes: number;
  readonly alreadyRead: number;
}

/** The read budget of one exchange: its ceiling, what it already read, and its byte counter. */
function exchangeBudget(
  input: ExchangeInput,
  signal: AbortSignal,
  response: WireResponse,
): ReadBudget & Pick<BytesReadCounter, 'bytesRead' | 'closeUnreported'> {
  const counter = bytesReadCounter(
    signal,
    reportGrowth((event) => input.reporter.send(event)),
    input.alreadyRead,
    response.body ?? undefined,
  );
  return {
    bytesRead: counter.bytesRead,
    closeUnreported: counter.closeUnreported,
    onBytes: counter.onBytes,
    maxBytes: input.maxBytes,
    alreadyRead: input.alreadyRead,
    signal,
    ...input.base.scope,
  };
}

/** Reads the awaited response from an SSE answer; an early end is an interruption for the chart. */
async function readSseResponse(
  response: WireResponse,
  input: ExchangeInput,
  budget: ReturnType<typeof exchangeBudget>,
  expectId: number,
  send: WireSend | undefined,
  sessionId: SecretValue | undefined,
): Promise<RpcExchange> {
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  const batches = readSseBatches(response, {
    maxFrameBytes: input.maxBytes,
    onRetry: (ms) => {
      retryMs = ms;
    },
    ...budget,
  });
  for await (const batch of batches) {
    for (const message of batch) {
      if (message.id !== undefined) lastEventId = message.id === '' ? undefined : message.id;
      if (message.data === '') continue; // priming events carry an id and no payload
      const scope = { observedReadBytes: budget.bytesRead(), ...input.base.scope };
      const parsed = parseJsonText(message.data, scope);
      const progress = progressOf(parsed, input.progressToken);
      if (progress !== undefined) {
        if (!budget.signal.aborted) input.reporter.send({ type: 'PROGRESS', ...progress });
        continue;
      }
      if (await handleServerMessage(input.base, parsed, input.url, budget, send)) continue;
      if (!isResponseTo(parsed, expectId)) continue; // notifications and other ids: not ours
      return responseExchange(parsed, expectId, scope, input.stateless !== undefined, sessionId);
    }
  }
  return { kind: 'interrupted', lastEventId, retryMs };
}

/**
 * The exchange of the answer `parsed` to request `expectId`, with the session the server assigned
 * (a malformed answer throws the wire's refusal); a stateless answer's marks (no `resultType`,
 * `input_required`) are present only when set.
 */
function responseExchange(
  parsed: unknown,
  expectId: number,
  scope: OperationScope,
  stateless: boolean,
  sessionId: SecretValue | undefined,
): RpcExchange {
  const decoded = decodeRpcResponse(parsed, expectId, scope, stateless, true);
  if (!decoded.ok) throw decoded.error;
  if (decoded.task !== undefined) {
    return { kind: 'response', value: undefined, sessionId, task: decoded.task };
  }
  if (decoded.inputRequired !== undefined) {
    return {
      kind: 'response',
      value: undefined,
      sessionId,
      inputRequired: decoded.inputRequired,
    };
  }
  return decoded.untyped === true
    ? { kind: 'response', value: decoded.value, sessionId, untyped: true }
    : { kind: 'response', value: decoded.value, sessionId };
}

/**
 * One exchange: the request, then its answer with the bytes it read and did not report. The
 * `exchange` actor runs it, and so do the task requests of `mcpTask`.
 */
export async function runExchange(
  input: ExchangeInput,
  signal: AbortSignal,
  send: WireSend | undefined,
): Promise<RpcExchange> {
  const isPost = input.method === 'POST';
  const request: WireRequest = {
    url: new URL(input.url),
    method: input.method,
    headers: buildRequestHeaders(input.base.headers, {
      accept: isPost ? STREAMABLE_ACCEPT : SSE_ACCEPT,
      ...(isPost ? { contentType: 'application/json' } : {}),
      ...(input.lastEventId === undefined ? {} : { lastEventId: input.lastEventId }),
      ...input.stateless,
    }),
    signal,
    ...(input.message === undefined ? {} : { body: JSON.stringify(input.message) }),
  };
  const response = await fetchWithoutRedirects(request, input.base.scope, input.base.fence, send);
  const budget = exchangeBudget(input, signal, response);
  const answer = await readAnswer(response, input, budget, send);
  return { unreportedBytes: budget.closeUnreported(), ...answer };
}

/** What the answer to one exchange says, read within its budget. */
async function readAnswer(
  response: WireResponse,
  input: ExchangeInput,
  budget: ReturnType<typeof exchangeBudget>,
  send: WireSend | undefined,
): Promise<RpcExchange> {
  if (!response.ok) {
    // The machine's guards decide what a status means; the wire reads a refusal one way for
    // every connection (decision 0041): a 401's body cancelled, any other body to its excerpt.
    const refusal = await readRefusal(response, budget);
    const rpcError = rpcErrorOf(refusal.body);
    return rpcError === undefined
      ? { kind: 'http-error', ...refusal }
      : { kind: 'http-error', rpcError, ...refusal };
  }
  const sessionHeader = response.headers.get('mcp-session-id');
  const sessionId = sessionHeader ? new SecretValue(sessionHeader) : undefined;
  if (input.expectId === undefined) {
    await drainBounded(response, budget);
    return { kind: 'accepted', status: response.status };
  }
  if (isEventStream(response.headers.get('content-type'))) {
    return readSseResponse(response, input, budget, input.expectId, send, sessionId);
  }
  const text = await readBoundedText(response, budget);
  const scope = { observedReadBytes: budget.bytesRead(), ...input.base.scope };
  return responseExchange(
    parseJsonText(text, scope),
    input.expectId,
    scope,
    input.stateless !== undefined,
    sessionId,
  );
}
