/**
 * What an MCP client run answers the server during a call, for every stream actor of
 * `mcpOperation`: a server request is answered locally (`ping`, or `-32601` for what the caller
 * never declared) or by the call's caller through its relay, and the answer is POSTed back with
 * the run's headers; a log message is passed on to the caller (decisions 0012 and 0014). The
 * rules (which message is a server request, what is answered locally) are pure functions here,
 * beside the I/O that follows them.
 */

import {
  CALLER_METHOD_NOT_FOUND,
  callerServes,
  isToolCallerMethod,
  type ToolCallerAnswer,
  type ToolCallerCapabilities,
  type ToolCallerMethod,
  type ToolLogMessage,
} from '../../binding/contract/caller.js';
import {
  ConnectionProtocolError,
  drainBounded,
  fetchWithoutRedirects,
  type InputRequest,
  type ReadBudget,
  type WireSend,
} from '../../wire/index.js';
import { buildRequestHeaders, STREAMABLE_ACCEPT } from './mcp-operation.messages.js';
import type { ActorBase } from './mcp-operation.types.js';

/** A JSON-RPC answer the client posts back to the server. */
export interface JsonRpcAnswer {
  readonly jsonrpc: '2.0';
  readonly id: string | number;
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** A request the server sent the client during the call. */
export interface ServerRequestMessage {
  readonly id: string | number;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** The server request in `message`, or `undefined` for anything else (responses, notifications). */
export function serverRequestOf(message: unknown): ServerRequestMessage | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) {
    return undefined;
  }
  const plain = typeof params === 'object' && params !== null && !Array.isArray(params);
  return { id, method, params: plain ? (params as Record<string, unknown>) : {} };
}

/**
 * The client's own answer to a server request, or `undefined` when the caller must answer it.
 * `ping` gets the empty result the specification requires; a method the caller declared (through
 * its capabilities) is the caller's; every other method is refused with -32601.
 */
export function localAnswer(
  request: ServerRequestMessage,
  capabilities: ToolCallerCapabilities,
): JsonRpcAnswer | undefined {
  if (request.method === 'ping') return { jsonrpc: '2.0', id: request.id, result: {} };
  if (callerServes(capabilities, request.method)) return undefined;
  return {
    jsonrpc: '2.0',
    id: request.id,
    error: { code: CALLER_METHOD_NOT_FOUND, message: 'Method not found' },
  };
}

/** The caller's answer, as the JSON-RPC answer posted back under the server's request id. */
export function relayedAnswer(id: string | number, answer: ToolCallerAnswer): JsonRpcAnswer {
  return 'result' in answer
    ? { jsonrpc: '2.0', id, result: answer.result }
    : { jsonrpc: '2.0', id, error: answer.error };
}

/** The params of a `notifications/message` (a log message), or `undefined` for anything else. */
export function logMessageOf(message: unknown): ToolLogMessage | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params, id } = message as { method?: unknown; params?: unknown; id?: unknown };
  if (method !== 'notifications/message' || id !== undefined) return undefined;
  if (typeof params !== 'object' || params === null) return undefined;
  const log = params as Record<string, unknown>;
  if (typeof log.level !== 'string' || !('data' in log)) return undefined;
  return log as unknown as ToolLogMessage;
}

/**
 * True for what a stream actor handles itself rather than passing to the machine: a server
 * request (answered) or a log message (passed on to the caller).
 */
export function isServerMessage(message: unknown): boolean {
  return serverRequestOf(message) !== undefined || logMessageOf(message) !== undefined;
}

/**
 * POSTs the client's answer to a server request, with the run's headers, and drains the server's
 * acknowledgement within `budget` (its bytes count toward the operation's ceiling).
 */
async function postAnswer(
  base: ActorBase,
  url: string,
  answer: JsonRpcAnswer,
  budget: ReadBudget,
  send: WireSend | undefined,
): Promise<void> {
  const response = await fetchWithoutRedirects(
    {
      url: new URL(url),
      method: 'POST',
      headers: buildRequestHeaders(base.headers, {
        accept: STREAMABLE_ACCEPT,
        contentType: 'application/json',
      }),
      signal: budget.signal,
      body: JSON.stringify(answer),
    },
    base.scope,
    base.fence,
    send,
  );
  await drainBounded(response, budget);
}

/** Asks the caller a request it declared it can answer; the run's signal bounds the wait. */
async function askCaller(
  base: ActorBase,
  request: ServerRequestMessage,
  signal: AbortSignal,
): Promise<JsonRpcAnswer> {
  const relay = base.relay?.reveal();
  if (relay === undefined) throw new TypeError('a caller capability was declared without a relay');
  const method = request.method as ToolCallerMethod;
  // A 2025 upstream asks mid-call, while this caller answers only by a retry of the whole call
  // (a gateway's 2026 client, stateless): the revisions cannot be bridged without holding the
  // upstream's call open across the caller's requests.
  if (relay.defersInput) {
    throw new ConnectionProtocolError({
      ...base.scope,
      violation: `asked its caller for ${method} in the middle of a 2025-11-25 call, which a caller on MCP 2026-07-28 answers only by a retry`,
      safeMessage: `The upstream asked for ${method} in the middle of its call (MCP 2025-11-25), which a client on MCP 2026-07-28 cannot answer through this gateway.`,
    });
  }
  return relayedAnswer(
    request.id,
    await relay.request({ method, params: request.params }, { signal }),
  );
}

/**
 * Handles what the server sends besides our answer: a server request is answered (by us, or by
 * the caller it was meant for) and the answer POSTed to `answerUrl`; a log message is passed on to
 * the caller. Returns whether `message` was one of those.
 */
export async function handleServerMessage(
  base: ActorBase,
  message: unknown,
  answerUrl: string,
  budget: ReadBudget,
  send: WireSend | undefined,
): Promise<boolean> {
  const request = serverRequestOf(message);
  if (request !== undefined) {
    const answer =
      localAnswer(request, base.callerCapabilities) ??
      (await askCaller(base, request, budget.signal));
    // The server waits for this before it answers us: post it back, then keep reading.
    await postAnswer(base, answerUrl, answer, budget, send);
    return true;
  }
  const log = logMessageOf(message);
  if (log === undefined) return false;
  await base.relay?.reveal().log(log);
  return true;
}

/** Input of the `answerInputRequests` actor: what the server asks, and the caller to ask. */
export interface AnswerInputInput {
  readonly base: ActorBase;
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
}

/**
 * Answers an `input_required` round (MCP 2026-07-28): each entry goes to the call's caller, as a
 * 2025 server request would, and its result is the entry's response. An entry the caller never
 * declared, or one the caller refuses, ends the call typed: the server was told what the caller
 * can answer, and no answer can be made up for it.
 */
export async function answerInputRequests(
  input: AnswerInputInput,
  signal: AbortSignal,
): Promise<Readonly<Record<string, unknown>>> {
  const { base } = input;
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(input.inputRequests)) {
    const relay = base.relay?.reveal();
    const method = request.method;
    if (
      relay === undefined ||
      !isToolCallerMethod(method) ||
      !callerServes(base.callerCapabilities, method)
    ) {
      throw new ConnectionProtocolError({
        ...base.scope,
        violation: `asked for client input the caller did not declare (${
          isToolCallerMethod(method) ? method : 'an unknown method'
        })`,
      });
    }
    const answer = await relay.request({ method, params: request.params }, { signal });
    if ('error' in answer) {
      throw new ConnectionProtocolError({
        ...base.scope,
        violation: `asked the caller for ${method}, which it refused (code ${answer.error.code})`,
        rpcCode: answer.error.code,
        rpcMessage: answer.error.message,
      });
    }
    responses[key] = answer.result;
  }
  return responses;
}
