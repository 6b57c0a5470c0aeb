/**
 * The stream `listen` holds on MCP 2026-07-28, reported to the machine, which owns every
 * decision: the answer to one `subscriptions/listen` POST, whose acknowledgement is `OPENED` (or
 * a failure saying the server offers no tool list changes), each
 * `notifications/tools/list_changed` a `CHANGED`, and its end or failure. The 2025 wires' streams
 * are in `listen.sessions.ts`.
 */

import { isRecord } from '../../binding/kernel/type-guards.js';
import { readRefusal } from '../../wire/http/refusal.js';
import {
  ConnectionProtocolError,
  ConnectionRequestError,
  cancelBody,
  fetchWithoutRedirects,
  isEventStream,
  parseJsonText,
  type ReadBudget,
  readSseMessages,
  rpcErrorOf,
  STATELESS_REVISION,
  type WireSend,
} from '../../wire/index.js';
import {
  buildRequestHeaders,
  STREAMABLE_ACCEPT,
  subscriptionsListenMessage,
} from '../mcp-operation/mcp-operation.messages.js';
import type { ListenStreamEvent, ListenStreamInput } from './listen.types.js';

/** The JSON-RPC id of the listen request: the subscription's id on every notification. */
export const LISTEN_REQUEST_ID = 1;
/** Bound on a refused listen request's body, read for its JSON-RPC error. */
export const MAX_REFUSAL_BYTES = 65_536;

/** Whether a message is a `notifications/tools/list_changed`, on whichever wire it came. */
export function isToolListChanged(message: unknown): boolean {
  return isRecord(message) && message.method === 'notifications/tools/list_changed';
}

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
    if (isToolListChanged(parsed)) {
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
