/**
 * The streams `listen` holds on the 2025-11-25 wires, each in a session of its own and reported
 * to the machine as the 2026 stream is (`listen.streams.ts`): on Streamable HTTP the standalone
 * GET of a session opened for it (`initialize`, `notifications/initialized`), ended with a
 * bounded `DELETE`; on HTTP+SSE the GET stream itself, whose `endpoint` takes the handshake and
 * on which the notifications arrive, ended by closing it. A server that declares no tool list
 * changes, or serves no stream (404, 405), offers none. A session the stream opens is reported
 * to the machine (`SESSION_OPENED`), which ends it with a bounded `DELETE` (`deleteListenSession`)
 * in a state of its own once the stream stops.
 */
import { isRecord } from '../../binding/kernel/type-guards.js';
import { readRefusal } from '../../wire/http/refusal.js';
import {
  type ConnectionOperation,
  ConnectionProtocolError,
  ConnectionRequestError,
  cancelBody,
  type InitializeOutcome,
  isEventStream,
  type OperationScope,
  operationScope,
  parseInitializeResult,
  parseJsonText,
  type ReadBudget,
  readSseMessages,
  resolveEndpointUrl,
  unwrapJsonRpcResponse,
  type WireResponse,
  type WireSend,
} from '../../wire/index.js';
import { runExchange } from '../mcp-operation/mcp-operation.exchange.js';
import { initializedMessage, initializeMessage } from '../mcp-operation/mcp-operation.messages.js';
import { INITIALIZE_ID } from '../mcp-operation/mcp-operation.policy.js';
import { handleServerMessage } from '../mcp-operation/mcp-operation.server-requests.js';
import { deleteStreamableSession, openSseGet } from '../mcp-operation/mcp-operation.streams.js';
import type { ActorBase, HeaderParts, RpcExchange } from '../mcp-operation/mcp-operation.types.js';
import { isToolListChanged, MAX_REFUSAL_BYTES } from './listen.streams.js';
import type { ListenSession, ListenStreamEvent, ListenStreamInput } from './listen.types.js';

/** A stream failure the machine judges, from a refused answer. */
export function refusedFailure(
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
 * 405: a server without sessions), offers none. The session is reported as soon as the server
 * names it, so the machine ends it however the stream ends.
 */
export async function readSessionStream(
  input: ListenStreamInput,
  signal: AbortSignal,
  sendBack: (event: ListenStreamEvent) => void,
  send: WireSend | undefined,
): Promise<void> {
  const headers = sessionlessHeaders(input);
  const base = (operation: ConnectionOperation, parts: HeaderParts): ActorBase =>
    sessionBase(input, operation, parts);
  const exchange = (
    operation: ConnectionOperation,
    parts: HeaderParts,
    message: object,
    expectId?: number,
  ) => postMessage(input, base(operation, parts), input.url, message, signal, send, expectId);
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
  if (initialized.sessionId !== undefined) {
    sendBack({
      type: 'SESSION_OPENED',
      session: { sessionId: initialized.sessionId, protocolVersion },
    });
  }
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
  await readStandaloneStream(input, base('standalone-stream', session), signal, sendBack, send);
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
  streamBase: ActorBase,
  signal: AbortSignal,
  sendBack: (event: ListenStreamEvent) => void,
  send: WireSend | undefined,
): Promise<void> {
  const response = await openStream(
    streamBase,
    new URL(input.url),
    'answered the standalone GET without text/event-stream',
    signal,
    sendBack,
    send,
  );
  if (response === undefined) return;
  const budget: ReadBudget = { maxBytes: MAX_REFUSAL_BYTES, signal, ...streamBase.scope };
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
    if (isToolListChanged(parsed)) {
      sendBack({ type: 'CHANGED' });
      continue;
    }
    // A ping, or a request nobody here can answer: answered (or refused) on the session.
    await handleServerMessage(streamBase, parsed, input.url, budget, send);
  }
  if (!signal.aborted) sendBack({ type: 'STREAM_ENDED' });
}

/**
 * Ends a listen session with its `DELETE` (the `deleteSession` actor of `listen`, bounded by the
 * machine's `SESSION_END_DEADLINE`); any answer is accepted.
 */
export function deleteListenSession(
  input: ListenStreamInput,
  session: ListenSession,
  signal: AbortSignal,
  send: WireSend | undefined,
): Promise<void> {
  const parts: HeaderParts = {
    ...sessionlessHeaders(input),
    sessionId: session.sessionId,
    protocolVersion: session.protocolVersion,
  };
  return deleteStreamableSession(
    sessionBase(input, 'standalone-stream', parts),
    new URL(input.url),
    signal,
    send,
  );
}

/** A listen session's headers before the server names the session: the token, the static ones. */
function sessionlessHeaders(input: ListenStreamInput): HeaderParts {
  return {
    staticHeaders: input.headers,
    token: input.token,
    sessionId: undefined,
    protocolVersion: undefined,
  };
}

/** The actor base of one step of a listen session, for its scope and its headers. */
function sessionBase(
  input: ListenStreamInput,
  operation: ConnectionOperation,
  parts: HeaderParts,
): ActorBase {
  return {
    scope: operationScope(input.scope.connectionName, operation),
    fence: input.fence,
    headers: parts,
    relay: undefined,
    callerCapabilities: {},
  };
}

/**
 * POSTs one message of a listen session (through the exchange every MCP request runs): the
 * answer to `expectId`, or for a notification (and a legacy endpoint POST, answered on the stream)
 * its acceptance; a refusal is the stream's failure.
 */
async function postMessage(
  input: ListenStreamInput,
  base: ActorBase,
  url: string,
  message: object,
  signal: AbortSignal,
  send: WireSend | undefined,
  expectId?: number,
): Promise<RpcExchange> {
  return runExchange(
    {
      base,
      reporter: { send: () => undefined },
      url,
      method: 'POST',
      message,
      ...(expectId === undefined ? {} : { expectId }),
      maxBytes: input.maxFrameBytes,
      alreadyRead: 0,
    },
    signal,
    send,
  );
}

/**
 * Opens a stream's GET: the response once it streams, else `undefined` after its refusal is
 * reported (a 404 or 405 says the server has none to give); an answer that is not a stream is
 * the failure `violation` names.
 */
async function openStream(
  base: ActorBase,
  url: URL,
  violation: string,
  signal: AbortSignal,
  sendBack: (event: ListenStreamEvent) => void,
  send: WireSend | undefined,
): Promise<WireResponse | undefined> {
  const response = await openSseGet(base, url, signal, send);
  if (!response.ok) {
    const budget: ReadBudget = { maxBytes: MAX_REFUSAL_BYTES, signal, ...base.scope };
    sendBack(
      refusedFailure(base.scope, { kind: 'http-error', ...(await readRefusal(response, budget)) }),
    );
    return undefined;
  }
  if (!isEventStream(response.headers.get('content-type'))) {
    cancelBody(response);
    throw new ConnectionProtocolError({ ...base.scope, violation });
  }
  return response;
}

/** The refusal of a legacy endpoint POST as the stream's failure; nothing for one accepted. */
function refusedPost(base: ActorBase, exchange: RpcExchange): ListenStreamEvent | undefined {
  return exchange.kind === 'http-error' ? refusedFailure(base.scope, exchange) : undefined;
}

/**
 * The legacy HTTP+SSE stream: the GET, its `endpoint`, the handshake POSTed there and answered
 * on the stream (`OPENED` once the server says it tells of tool list changes), then a `CHANGED`
 * per notification. Closing the stream ends the session.
 */
export async function readLegacyStream(
  input: ListenStreamInput,
  signal: AbortSignal,
  sendBack: (event: ListenStreamEvent) => void,
  send: WireSend | undefined,
): Promise<void> {
  const parts = sessionlessHeaders(input);
  const base = sessionBase(input, 'endpoint', parts);
  const url = new URL(input.url);
  const response = await openStream(
    base,
    url,
    'answered the legacy SSE GET without text/event-stream',
    signal,
    sendBack,
    send,
  );
  if (response === undefined) return;
  const budget: ReadBudget = { maxBytes: MAX_REFUSAL_BYTES, signal, ...base.scope };
  const messages = readSseMessages(response, {
    signal,
    maxBytes: Number.POSITIVE_INFINITY,
    maxFrameBytes: input.maxFrameBytes,
    ...base.scope,
  });
  let endpoint: URL | undefined;
  for await (const message of messages) {
    if (signal.aborted) return;
    if (message.event === 'endpoint') {
      if (endpoint !== undefined) continue;
      endpoint = resolveEndpointUrl(message.data, url, base.scope);
      const initializing = sessionBase(input, 'initialize', parts);
      const refused = refusedPost(
        initializing,
        await postMessage(input, initializing, endpoint.href, initializeMessage(), signal, send),
      );
      if (refused !== undefined) {
        sendBack(refused);
        return;
      }
      continue;
    }
    if (message.data === '' || endpoint === undefined) continue;
    const parsed = parseJsonText(message.data, base.scope);
    if (isRecord(parsed) && parsed.id === INITIALIZE_ID && parsed.method === undefined) {
      const scope = operationScope(input.scope.connectionName, 'initialize');
      const outcome = parseInitializeResult(
        unwrapJsonRpcResponse(parsed, INITIALIZE_ID, scope),
        scope,
      );
      if (!outcome.toolsListChanged) {
        sendBack({
          type: 'STREAM_FAILED',
          failure: { unoffered: true, error: unofferedError(input) },
        });
        return;
      }
      const noting = sessionBase(input, 'notifications/initialized', parts);
      const refused = refusedPost(
        noting,
        await postMessage(input, noting, endpoint.href, initializedMessage(), signal, send),
      );
      sendBack(refused ?? { type: 'OPENED' });
      if (refused !== undefined) return;
      continue;
    }
    if (isToolListChanged(parsed)) {
      sendBack({ type: 'CHANGED' });
      continue;
    }
    // A ping, or a request nobody here can answer: answered (or refused) on the endpoint.
    await handleServerMessage(base, parsed, endpoint.href, budget, send);
  }
  if (!signal.aborted) sendBack({ type: 'STREAM_ENDED' });
}
