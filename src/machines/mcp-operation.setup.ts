/**
 * The named implementations of `mcpOperation`: its types, actors, delays, guards and actions.
 * The chart itself is in `mcp-operation.machine.ts`; the diagrams show these names.
 */
import { assign, setup } from 'xstate';
import {
  ConnectionAuthorizationRequiredError,
  type ConnectionOperation,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  isInsideFence,
  isResponseTo,
  LATEST_PROTOCOL_VERSION,
  phaseOfOperation,
} from '../wire/index.js';
import { remainingMs } from './deadline.js';
import {
  deleteSession,
  exchange,
  legacyStream,
  resolveCredentials,
} from './mcp-operation.actors.js';
import {
  decodeRpcResponse,
  INITIALIZE_ID,
  isFallbackStatus,
  isUnauthorizedStatus,
  MAX_STREAM_RESUMPTIONS,
  mergeToolPages,
  nextCursorOf,
  REQUEST_ID,
  resumeDelayMs,
  SESSION_END_TIMEOUT_MS,
} from './mcp-operation.policy.js';
import type {
  McpOperationContext,
  McpOperationEvent,
  McpOperationInput,
  McpOperationOutput,
  McpRequestResult,
  McpToolList,
  RpcExchange,
} from './mcp-operation.types.js';

const HANDSHAKE_OPERATIONS: ReadonlySet<ConnectionOperation> = new Set([
  'initialize',
  'notifications/initialized',
  'endpoint',
]);

function isHandshake(context: McpOperationContext): boolean {
  return HANDSHAKE_OPERATIONS.has(context.operation);
}

/** Operation, phase and bytes read, for the errors of the operation in progress. */
export function failureContext(
  context: McpOperationContext,
  observedReadBytes = context.readBytes,
) {
  return {
    operation: context.operation,
    phase: phaseOfOperation(context.operation),
    observedReadBytes,
  };
}

function limitsOf(context: McpOperationContext) {
  return isHandshake(context) ? context.limits.handshake : context.limits.request;
}

/** The settled output of an `exchange` actor, when the event carries one. */
function exchangeOf(event: unknown): RpcExchange | undefined {
  const output = (event as { output?: RpcExchange }).output;
  return typeof output === 'object' && output !== null && 'kind' in output ? output : undefined;
}

/** The refused HTTP status and body of an exchange or of the legacy stream's GET. */
function httpErrorOf(event: McpOperationEvent): { status: number; body: string } | undefined {
  if (event.type === 'STREAM_REJECTED') return event;
  const result = exchangeOf(event);
  return result?.kind === 'http-error' ? result : undefined;
}

function errorOf(event: unknown): unknown {
  return (event as { error?: unknown }).error;
}

/** The decoded answer at hand: an exchange's response, or the legacy stream's last message. */
function answerOf(context: McpOperationContext, event: unknown): unknown {
  const result = exchangeOf(event);
  if (result?.kind === 'response') return result.value;
  return context.received?.ok === true ? context.received.value : undefined;
}

function failed(error: unknown): { outcome: McpOperationOutput } {
  return { outcome: { ok: false, error } };
}

function resultOf(context: McpOperationContext, answer: unknown): McpRequestResult {
  return context.request.method === 'tools/list'
    ? mergeToolPages(context.collected, answer as McpToolList)
    : (answer as McpRequestResult);
}

const hasCursor = (context: McpOperationContext, event: unknown): boolean =>
  context.request.method === 'tools/list' && nextCursorOf(answerOf(context, event)) !== undefined;

/** `mcpOperation`'s setup: every implementation by name. */
export const mcpOperationSetup = setup({
  types: {} as {
    context: McpOperationContext;
    events: McpOperationEvent;
    input: McpOperationInput;
    output: McpOperationOutput;
  },
  actors: { resolveCredentials, exchange, legacyStream, deleteSession },
  delays: {
    HANDSHAKE_DEADLINE: ({ context }) => remainingMs(context.handshakeDeadlineAt, Date.now()),
    REQUEST_DEADLINE: ({ context }) => remainingMs(context.requestDeadlineAt, Date.now()),
    RESUME_DELAY: ({ context }) => resumeDelayMs(context.retryMs),
    SESSION_END_DEADLINE: SESSION_END_TIMEOUT_MS,
  },
  guards: {
    isUnauthorized: ({ event }) => {
      const refused = httpErrorOf(event);
      return refused !== undefined && isUnauthorizedStatus(refused.status);
    },
    isFallbackStatus: ({ event }) => {
      const refused = httpErrorOf(event);
      return refused !== undefined && isFallbackStatus(refused.status);
    },
    isHttpError: ({ event }) => httpErrorOf(event) !== undefined,
    isResponse: ({ event }) => exchangeOf(event)?.kind === 'response',
    hasNextPage: ({ context, event }) =>
      hasCursor(context, event) && context.page + 1 < context.maxListPages,
    hasTooManyPages: ({ context, event }) => hasCursor(context, event),
    canResume: ({ context, event }) =>
      exchangeOf(event)?.kind === 'interrupted' && context.resumeAttempts < MAX_STREAM_RESUMPTIONS,
    isSizeFailure: ({ event }) => ConnectionResponseTooLargeError.isInstance(errorOf(event)),
    exceedsReadBudget: ({ context, event }) =>
      event.type === 'BYTES_READ' && context.readBytes + event.bytes > context.maxBytes,
    isFencedEndpoint: ({ context }) =>
      context.endpoint !== undefined && isInsideFence(new URL(context.endpoint), context.fence),
    isPendingResponse: ({ context, event }) =>
      event.type === 'SSE_MESSAGE' && isResponseTo(event.message, context.pendingId),
    isReceivedOk: ({ context }) => context.received?.ok === true,
    hasSession: ({ context }) => context.sessionId !== undefined,
  },
  actions: {
    assignToken: assign({
      token: ({ event }) => (event as unknown as { output: McpOperationContext['token'] }).output,
    }),
    beginHandshakeStep: assign(
      (
        { context },
        params: { operation: 'initialize' | 'notifications/initialized' | 'endpoint' },
      ) => ({
        operation: params.operation,
        readBytes: 0,
        maxBytes: context.limits.handshake.maxResponseBytes,
        pendingId: INITIALIZE_ID,
      }),
    ),
    beginRequest: assign(({ context }) => ({
      operation: context.request.method,
      readBytes: 0,
      maxBytes: context.limits.request.maxResponseBytes,
      requestDeadlineAt: Date.now() + context.limits.request.timeoutMs,
      pendingId: REQUEST_ID,
    })),
    // The next page keeps the byte budget and the deadline of the whole listing.
    collectPage: assign(({ context, event }) => {
      const answer = answerOf(context, event);
      return {
        collected: mergeToolPages(context.collected, answer as McpToolList),
        cursor: nextCursorOf(answer),
        page: context.page + 1,
        pendingId: context.pendingId + 1,
        received: undefined,
      };
    }),
    recordBytesRead: assign({
      readBytes: ({ context, event }) =>
        context.readBytes + (event.type === 'BYTES_READ' ? event.bytes : 0),
    }),
    assignInitialized: assign(({ context, event }) => {
      const result = exchangeOf(event);
      return {
        protocolVersion: (answerOf(context, event) as { protocolVersion?: string } | undefined)
          ?.protocolVersion,
        sessionId: result?.kind === 'response' ? result.sessionId : undefined,
      };
    }),
    switchToLegacy: assign({ transport: 'sse' as const }),
    assignEndpoint: assign({
      endpoint: ({ event }) => (event.type === 'SSE_ENDPOINT' ? event.url : undefined),
    }),
    assignInterruption: assign(({ context, event }) => {
      const result = exchangeOf(event);
      return result?.kind === 'interrupted'
        ? {
            lastEventId: result.lastEventId,
            retryMs: result.retryMs,
            resumeAttempts: context.resumeAttempts + 1,
          }
        : {};
    }),
    assignReceived: assign(({ context, event }) => ({
      received:
        event.type === 'SSE_MESSAGE'
          ? decodeRpcResponse(event.message, context.pendingId, {
              connectionName: context.connectionName,
              ...failureContext(context),
            })
          : undefined,
    })),
    succeed: assign(({ context, event }) => ({
      outcome: {
        ok: true as const,
        result: resultOf(context, answerOf(context, event)),
        transport: context.transport,
        protocolVersion: context.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      },
    })),
    failUnauthorized: assign(({ context }) =>
      failed(
        new ConnectionAuthorizationRequiredError(context.connectionName, failureContext(context)),
      ),
    ),
    failHttpStatus: assign(({ context, event }) => {
      const refused = httpErrorOf(event) ?? { status: 0, body: '' };
      return failed(
        new ConnectionRequestError(
          context.connectionName,
          refused.status,
          refused.body,
          failureContext(context),
        ),
      );
    }),
    failWithError: assign(({ event }) => failed(errorOf(event))),
    failReceived: assign(({ context }) =>
      failed(context.received?.ok === false ? context.received.error : undefined),
    ),
    failTimeout: assign(({ context }) =>
      failed(
        new ConnectionTimeoutError(
          context.connectionName,
          limitsOf(context).timeoutMs,
          failureContext(context),
        ),
      ),
    ),
    failTooLarge: assign(({ context, event }) =>
      failed(
        new ConnectionResponseTooLargeError(
          context.connectionName,
          context.maxBytes,
          failureContext(
            context,
            context.readBytes + (event.type === 'BYTES_READ' ? event.bytes : 0),
          ),
        ),
      ),
    ),
    failProtocol: assign(({ context }, params: { message: string }) =>
      failed(
        new ConnectionProtocolError(
          context.connectionName,
          params.message,
          failureContext(context),
        ),
      ),
    ),
    failEndpointOutsideFence: assign(({ context }) =>
      failed(
        new ConnectionUrlError(
          `Connection "${context.connectionName}" refused an SSE endpoint outside its host fence`,
          context.endpoint,
          { operation: context.operation, phase: failureContext(context).phase },
        ),
      ),
    ),
    failCancelled: assign(({ event }) =>
      failed(event.type === 'CANCEL' ? event.reason : undefined),
    ),
    // Leaving each state already aborted its requests and stopped its stream reader; teardown
    // wipes the credential and session id this run resolved, so no later holder can use them.
    teardown: ({ context }) => {
      context.token?.wipe();
      context.sessionId?.wipe();
    },
  },
});
