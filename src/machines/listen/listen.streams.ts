/**
 * The streams `listen` holds, each reported to the machine, which owns every decision: the
 * server's acknowledgement (`OPENED`, or a failure saying it offers no tool list changes), each
 * `notifications/tools/list_changed` (`CHANGED`), and the stream's end or failure. On MCP
 * 2026-07-28 the stream is the answer to one `subscriptions/listen` POST; on 2025-11-25 it is the
 * standalone GET of a session opened for it (`initialize`, `notifications/initialized`), whose
 * `DELETE` ends it.
 */

import { isRecord } from '../../binding/kernel/type-guards.js';
import { readRefusal } from '../../wire/http/refusal.js';
import {
  type ConnectionOperation,
  ConnectionProtocolError,
  ConnectionRequestError,
  cancelBody,
  fetchWithoutRedirects,
  type InitializeOutcome,
  isEventStream,
  type OperationScope,
  operationScope,
  parseJsonText,
  type ReadBudget,
  readSseMessages,
  rpcErrorOf,
  STATELESS_REVISION,
  type WireSend,
} from '../../wire/index.js';
import { runExchange } from '../mcp-operation/mcp-operation.exchange.js';
import {
  buildRequestHeaders,
  initializedMessage,
  initializeMessage,
  SSE_ACCEPT,
  STREAMABLE_ACCEPT,
  subscriptionsListenMessage,
} from '../mcp-operation/mcp-operation.messages.js';
import { INITIALIZE_ID } from '../mcp-operation/mcp-operation.policy.js';
import { handleServerMessage } from '../mcp-operation/mcp-operation.server-requests.js';
import type { ActorBase, HeaderParts, RpcExchange } from '../mcp-operation/mcp-operation.types.js';
import type { ListenStreamEvent, ListenStreamInput } from './listen.types.js';

/** The JSON-RPC id of the listen request: the subscription's id on every notification. */
export const LISTEN_REQUEST_ID = 1;
/** Bound on a refused listen request's body, read for its JSON-RPC error. */
const MAX_REFUSAL_BYTES = 65_536;

/** The `notifications/subscriptions/acknowledged` of a message, when it is one. */
function acknowledgedOf(message: unknown): { toolsListChanged: boolean } | undefined {
  if (!isRecord(message) || message.method !== 'notifications/subscriptions/acknowledged') {
    return undefined;
  }
  const honored = isRecord(message.params) ? message.params.notifications : undefined;
  return { toolsListChanged: isRecord(honored) && honored.toolsListChanged === true };
}

/** What the stream's answer to the listen request itself says: a clean end, or an error. */
function answerOf(message: unknown, input: ListenStreamInput): ListenStreamEvent | undefined {
  if (!isRecord(message) || message.id !== LISTEN_REQUEST_ID) return undefined;
  if (!isRecord(message.error)) return { type: 'STREAM_ENDED' };
  const code = Number.isInteger(message.error.code) ? (message.error.code as number) : undefined;
  const text = typeof message.error.message === 'string' ? message.error.message : '';
  return {
    type: 'STREAM_FAILED',
    failure: {
      error: new ConnectionProtocolError({
        ...input.scope,
        violation: `refused subscriptions/listen (${code ?? 'no code'}: ${text.slice(0, 200)})`,
        ...(code === undefined ? {} : { rpcCode: code, rpcMessage: text }),
      }),
      ...(code === undefined ? {} : { rpcCode: code }),
    },
  };
}

/** Opens the listen stream and reports what it carries until it ends or the machine stops it. */
export async function readListenStream(
  input: ListenStreamInput,
  signal: AbortSignal,
  sendBack: (event: ListenStreamEvent) => void,
  send: WireSend | undefined,
): Promise<void> {
  const headers = buildRequestHeaders(
    {
      staticHeaders: input.headers,
      token: input.token,
      sessionId: undefined,
      protocolVersion: STATELESS_REVISION,
    },
    {
      accept: STREAMABLE_ACCEPT,
      contentType: 'application/json',
      mcpMethod: 'subscriptions/listen',
    },
  );
  const body = JSON.stringify(subscriptionsListenMessage(LISTEN_REQUEST_ID));
  const url = new URL(input.url);
  const response = await fetchWithoutRedirects(
    { url, method: 'POST', headers, body, signal },
    input.scope,
    input.fence,
    send,
  );
  const budget: ReadBudget = { maxBytes: MAX_REFUSAL_BYTES, signal, ...input.scope };
  if (!response.ok) {
    const refusal = await readRefusal(response, budget);
    const rpc = rpcErrorOf(refusal.body);
    sendBack({
      type: 'STREAM_FAILED',
      failure: {
        error: new ConnectionRequestError({ ...input.scope, ...refusal }),
        status: refusal.status,
        ...(rpc === undefined ? {} : { rpcCode: rpc.code }),
      },
    });
    return;
  }
  if (!isEventStream(response.headers.get('content-type'))) {
    // A JSON answer is the request's own answer: an error, or an end with nothing to listen to.
    const refusal = await readRefusal(response, budget).catch(() => undefined);
    const rpc = refusal === undefined ? undefined : rpcErrorOf(refusal.body);
    cancelBody(response);
    sendBack({
      type: 'STREAM_FAILED',
      failure: {
        error: new ConnectionProtocolError({
          ...input.scope,
          violation: 'answered subscriptions/listen without an SSE stream',
          ...(rpc === undefined ? {} : { rpcCode: rpc.code, rpcMessage: rpc.message }),
        }),
        ...(rpc === undefined ? {} : { rpcCode: rpc.code }),
      },
    });
    return;
  }
  const messages = readSseMessages(response, {
    signal,
    maxBytes: Number.POSITIVE_INFINITY,
    maxFrameBytes: input.maxFrameBytes,
    ...input.scope,
  });
  for await (const message of messages) {
    if (signal.aborted) return;
    if (message.data === '') continue;
    const parsed = parseJsonText(message.data, input.scope);
    const acknowledged = acknowledgedOf(parsed);
    if (acknowledged !== undefined) {
      sendBack(
        acknowledged.toolsListChanged
          ? { type: 'OPENED' }
          : {
              type: 'STREAM_FAILED',
              failure: {
                unoffered: true,
                error: new ConnectionProtocolError({
                  ...input.scope,
                  violation: 'acknowledged subscriptions/listen without tool list changes',
                }),
              },
            },
      );
      continue;
    }
    if (isRecord(parsed) && parsed.method === 'notifications/tools/list_changed') {
      sendBack({ type: 'CHANGED' });
      continue;
    }
    const answer = answerOf(parsed, input);
    if (answer !== undefined) {
      cancelBody(response);
      sendBack(answer);
      return;
    }
  }
  if (!signal.aborted) sendBack({ type: 'STREAM_ENDED' });
}

/** How long the `DELETE` that ends a listen session may take. */
const SESSION_DELETE_MS = 2_000;

/** A stream failure the machine judges, from a refused answer. */
function refusedFailure(
  scope: OperationScope,
  exchange: Extract<RpcExchange, { readonly kind: 'http-error' }>,
): ListenStreamEvent {
  return {
    type: 'STREAM_FAILED',
    failure: {
      error: new ConnectionRequestError({ ...scope, ...exchange }),
      status: exchange.status,
      ...(exchange.rpcError === undefined ? {} : { rpcCode: exchange.rpcError.code }),
    },
  };
}

/**
 * The 2025-11-25 stream: a session of its own (`initialize`, `notifications/initialized`), then
 * its standalone GET. A server that declares no tool list changes, or serves no GET stream (404,
 * 405: a server without sessions), offers none. The session is ended with a bounded `DELETE`
 * however the stream ends.
 */
export async function readSessionStream(
  input: ListenStreamInput,
  signal: AbortSignal,
  sendBack: (event: ListenStreamEvent) => void,
  send: WireSend | undefined,
): Promise<void> {
  const headers: HeaderParts = {
    staticHeaders: input.headers,
    token: input.token,
    sessionId: undefined,
    protocolVersion: undefined,
  };
  const base = (operation: ConnectionOperation, parts: HeaderParts): ActorBase => ({
    scope: operationScope(input.scope.connectionName, operation),
    fence: input.fence,
    headers: parts,
    relay: undefined,
    callerCapabilities: {},
  });
  const exchange = (
    operation: ConnectionOperation,
    parts: HeaderParts,
    message: object,
    expectId?: number,
  ) =>
    runExchange(
      {
        base: base(operation, parts),
        reporter: { send: () => undefined },
        url: input.url,
        method: 'POST',
        message,
        ...(expectId === undefined ? {} : { expectId }),
        maxBytes: input.maxFrameBytes,
        alreadyRead: 0,
      },
      signal,
      send,
    );
  const initialized = await exchange('initialize', headers, initializeMessage(), INITIALIZE_ID);
  if (initialized.kind === 'http-error') {
    sendBack(refusedFailure(base('initialize', headers).scope, initialized));
    return;
  }
  if (initialized.kind !== 'response') {
    throw new ConnectionProtocolError({
      ...base('initialize', headers).scope,
      violation: 'sent no answer to initialize',
    });
  }
  const { protocolVersion, toolsListChanged } = initialized.value as InitializeOutcome;
  const session: HeaderParts = { ...headers, sessionId: initialized.sessionId, protocolVersion };
  try {
    if (!toolsListChanged) {
      sendBack({
        type: 'STREAM_FAILED',
        failure: { unoffered: true, error: unofferedError(input) },
      });
      return;
    }
    const noted = await exchange('notifications/initialized', session, initializedMessage());
    if (noted.kind === 'http-error') {
      sendBack(refusedFailure(base('notifications/initialized', session).scope, noted));
      return;
    }
    await readStandaloneStream(
      input,
      session,
      base('standalone-stream', session),
      signal,
      sendBack,
      send,
    );
  } finally {
    if (session.sessionId !== undefined)
      await deleteSession(input, base('standalone-stream', session), send);
  }
}

/** The failure of a server that offers no tool list changes. */
function unofferedError(input: ListenStreamInput): Error {
  return new ConnectionProtocolError({
    ...input.scope,
    violation: 'offers no tool list changes (capabilities.tools.listChanged)',
  });
}

/** The session's standalone GET: `OPENED` once it streams, `CHANGED` per notification. */
async function readStandaloneStream(
  input: ListenStreamInput,
  session: HeaderParts,
  streamBase: ActorBase,
  signal: AbortSignal,
  sendBack: (event: ListenStreamEvent) => void,
  send: WireSend | undefined,
): Promise<void> {
  const response = await fetchWithoutRedirects(
    {
      url: new URL(input.url),
      method: 'GET',
      headers: buildRequestHeaders(session, { accept: SSE_ACCEPT }),
      signal,
    },
    streamBase.scope,
    input.fence,
    send,
  );
  const budget: ReadBudget = { maxBytes: MAX_REFUSAL_BYTES, signal, ...streamBase.scope };
  if (!response.ok) {
    const refusal = await readRefusal(response, budget);
    sendBack(refusedFailure(streamBase.scope, { kind: 'http-error', ...refusal }));
    return;
  }
  if (!isEventStream(response.headers.get('content-type'))) {
    cancelBody(response);
    throw new ConnectionProtocolError({
      ...streamBase.scope,
      violation: 'answered the standalone GET without text/event-stream',
    });
  }
  sendBack({ type: 'OPENED' });
  const messages = readSseMessages(response, {
    signal,
    maxBytes: Number.POSITIVE_INFINITY,
    maxFrameBytes: input.maxFrameBytes,
    ...streamBase.scope,
  });
  for await (const message of messages) {
    if (signal.aborted) return;
    if (message.data === '') continue;
    const parsed = parseJsonText(message.data, streamBase.scope);
    if (isRecord(parsed) && parsed.method === 'notifications/tools/list_changed') {
      sendBack({ type: 'CHANGED' });
      continue;
    }
    // A ping, or a request nobody here can answer: answered (or refused) on the session.
    await handleServerMessage(streamBase, parsed, input.url, budget, send);
  }
  if (!signal.aborted) sendBack({ type: 'STREAM_ENDED' });
}

/** Ends the listen session; any answer is accepted, and a failure is not the stream's. */
async function deleteSession(
  input: ListenStreamInput,
  streamBase: ActorBase,
  send: WireSend | undefined,
): Promise<void> {
  try {
    const response = await fetchWithoutRedirects(
      {
        url: new URL(input.url),
        method: 'DELETE',
        headers: buildRequestHeaders(streamBase.headers, { accept: STREAMABLE_ACCEPT }),
        signal: AbortSignal.timeout(SESSION_DELETE_MS),
      },
      streamBase.scope,
      input.fence,
      send,
    );
    cancelBody(response);
  } catch {
    // The server ends an idle session itself; the stream is over either way.
  }
}
