/**
 * What an MCP client run answers the server during a call, for every stream actor of
 * `mcpOperation`: a server request is answered locally (`ping`, or `-32601` for what the caller
 * never declared) or by the call's caller through its relay, and the answer is POSTed back with
 * the run's headers; a log message is passed on to the caller (decisions 0012 and 0014).
 */

import type { ToolCallerCapabilities, ToolCallerMethod } from '../../binding/caller.js';
import {
  drainBounded,
  fetchWithoutRedirects,
  type HostFence,
  type OperationScope,
  type ReadBudget,
  type WireSend,
} from '../../wire/index.js';
import type { SecretValue } from '../secret-value.js';
import {
  buildRequestHeaders,
  type HeaderParts,
  type JsonRpcAnswer,
  localAnswer,
  logMessageOf,
  relayedAnswer,
  type ServerRequestMessage,
  STREAMABLE_ACCEPT,
  serverRequestOf,
} from './mcp-operation.policy.js';
import type { McpCallerRelay } from './mcp-operation.types.js';

/**
 * What every stream actor of a run shares: the operation's scope, the fence, the headers known so
 * far, and the caller the upstream's requests and log messages are relayed to (still wrapped).
 */
export interface ServerRequestScope {
  readonly scope: OperationScope;
  readonly fence: HostFence;
  readonly headers: HeaderParts;
  readonly relay: SecretValue<McpCallerRelay> | undefined;
  readonly callerCapabilities: ToolCallerCapabilities;
}

/**
 * POSTs the client's answer to a server request, with the run's headers, and drains the server's
 * acknowledgement within `budget` (its bytes count toward the operation's ceiling).
 */
async function postAnswer(
  base: ServerRequestScope,
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
  base: ServerRequestScope,
  request: ServerRequestMessage,
  signal: AbortSignal,
): Promise<JsonRpcAnswer> {
  const relay = base.relay?.reveal();
  if (relay === undefined) throw new TypeError('a caller capability was declared without a relay');
  const method = request.method as ToolCallerMethod;
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
  base: ServerRequestScope,
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
