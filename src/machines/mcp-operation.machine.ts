/**
 * `mcpOperation`: one MCP client for one operation (DESIGN §3.1). Credentials, then the handshake
 * (Streamable HTTP `initialize`, falling back to legacy HTTP+SSE only on 400/404/405 of that first
 * POST), the best-effort `notifications/initialized`, the request (`tools/list` or `tools/call`,
 * resumable once interrupted), and a teardown every path passes through.
 */
import { assign, setup } from 'xstate';
import {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
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
} from '../wire/index.js';
import { remainingMs } from './deadline.js';
import {
  type ByteReporter,
  deleteSession,
  type ExchangeInput,
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
  REQUEST_ID,
  requestEnvelope,
  resumeDelayMs,
  SESSION_END_TIMEOUT_MS,
} from './mcp-operation.policy.js';
import type {
  McpOperationContext,
  McpOperationEvent,
  McpOperationInput,
  McpOperationOutput,
  McpRequestResult,
  RpcExchange,
} from './mcp-operation.types.js';

const HANDSHAKE_OPERATIONS: ReadonlySet<ConnectionOperation> = new Set([
  'initialize',
  'notifications/initialized',
  'endpoint',
]);

const DEFAULT_CLIENT_INFO = Object.freeze({ name: 'stitchkit-transport', version: '0.1.0' });

function isHandshake(context: McpOperationContext): boolean {
  return HANDSHAKE_OPERATIONS.has(context.operation);
}

function failureContext(context: McpOperationContext, observedReadBytes = context.readBytes) {
  return {
    operation: context.operation,
    phase: isHandshake(context) ? ('discovery' as const) : context.phase,
    observedReadBytes,
  };
}

function limitsOf(context: McpOperationContext) {
  return isHandshake(context) ? context.limits.handshake : context.limits.request;
}

/** The settled output of an `exchange` actor, when the event is one. */
function exchangeOf(event: unknown): RpcExchange | undefined {
  const output = (event as { output?: RpcExchange }).output;
  return typeof output === 'object' && output !== null && 'kind' in output ? output : undefined;
}

function errorOf(event: unknown): unknown {
  return (event as { error?: unknown }).error;
}

function exchangeInput(
  context: McpOperationContext,
  self: ByteReporter,
  shape: Pick<ExchangeInput, 'url' | 'method' | 'message' | 'expectId' | 'lastEventId'>,
): ExchangeInput {
  return {
    ...shape,
    scope: {
      connectionName: context.connectionName,
      operation: context.operation,
      phase: failureContext(context).phase,
      fence: context.fence,
      fetch: context.fetch,
    },
    reporter: self,
    headers: {
      staticHeaders: context.headers,
      token: context.token,
      sessionId: context.sessionId,
      protocolVersion: context.protocolVersion,
    },
    maxBytes: context.maxBytes,
    alreadyRead: context.readBytes,
  };
}

function initializeMessage(context: McpOperationContext) {
  return buildJsonRpcRequest(INITIALIZE_ID, 'initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { ...context.clientInfo },
  });
}

function requestMessage(context: McpOperationContext) {
  const { method, params } = requestEnvelope(context.request);
  return buildJsonRpcRequest(REQUEST_ID, method, params);
}

const initializedMessage = () => buildJsonRpcNotification('notifications/initialized');

/** The `mcpOperation` machine. Run it with `runMachine(mcpOperationMachine, input, options)`. */
export const mcpOperationMachine = setup({
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
      const result = exchangeOf(event);
      return result?.kind === 'http-error' && isUnauthorizedStatus(result.status);
    },
    isFallbackStatus: ({ event }) => {
      const result = exchangeOf(event);
      return result?.kind === 'http-error' && isFallbackStatus(result.status);
    },
    isHttpError: ({ event }) => exchangeOf(event)?.kind === 'http-error',
    isResponse: ({ event }) => exchangeOf(event)?.kind === 'response',
    canResume: ({ context, event }) =>
      exchangeOf(event)?.kind === 'interrupted' && context.resumeAttempts < MAX_STREAM_RESUMPTIONS,
    isSizeFailure: ({ event }) => ConnectionResponseTooLargeError.isInstance(errorOf(event)),
    exceedsReadBudget: ({ context, event }) =>
      event.type === 'BYTES_READ' && context.readBytes + event.bytes > context.maxBytes,
    isFencedEndpoint: ({ context }) =>
      context.endpoint !== undefined && isInsideFence(new URL(context.endpoint), context.fence),
    isResponseTo: ({ event }, params: { id: number }) =>
      event.type === 'SSE_MESSAGE' && isResponseTo(event.message, params.id),
    isReceivedOk: ({ context }) => context.received?.ok === true,
    isStreamUnauthorized: ({ event }) =>
      event.type === 'STREAM_REJECTED' && isUnauthorizedStatus(event.status),
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
      }),
    ),
    beginRequest: assign(({ context }) => ({
      operation: context.request.method,
      readBytes: 0,
      maxBytes: context.limits.request.maxResponseBytes,
      requestDeadlineAt: Date.now() + context.limits.request.timeoutMs,
    })),
    recordBytesRead: assign({
      readBytes: ({ context, event }) =>
        context.readBytes + (event.type === 'BYTES_READ' ? event.bytes : 0),
    }),
    assignInitialized: assign(({ event }) => {
      const result = exchangeOf(event);
      const value =
        result?.kind === 'response' ? (result.value as { protocolVersion: string }) : undefined;
      return {
        protocolVersion: value?.protocolVersion,
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
    assignReceived: assign(({ context, event }, params: { id: number }) => ({
      received:
        event.type === 'SSE_MESSAGE'
          ? decodeRpcResponse(event.message, params.id, {
              connectionName: context.connectionName,
              operation: context.operation,
              phase: failureContext(context).phase,
            })
          : undefined,
    })),
    assignLegacyInitialized: assign(({ context }) => ({
      protocolVersion:
        context.received?.ok === true
          ? (context.received.value as { protocolVersion: string }).protocolVersion
          : undefined,
    })),
    succeed: assign(({ context, event }) => {
      const result = exchangeOf(event);
      return {
        outcome: {
          ok: true as const,
          result: (result?.kind === 'response' ? result.value : undefined) as McpRequestResult,
          transport: context.transport,
          protocolVersion: context.protocolVersion ?? LATEST_PROTOCOL_VERSION,
        },
      };
    }),
    succeedFromReceived: assign(({ context }) => ({
      outcome: {
        ok: true as const,
        result: (context.received?.ok === true
          ? context.received.value
          : undefined) as McpRequestResult,
        transport: context.transport,
        protocolVersion: context.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      },
    })),
    failUnauthorized: assign(({ context }) => ({
      outcome: {
        ok: false as const,
        error: new ConnectionAuthorizationRequiredError(
          context.connectionName,
          failureContext(context),
        ),
      },
    })),
    failHttpStatus: assign(({ context, event }) => {
      const result = exchangeOf(event);
      const status = result?.kind === 'http-error' ? result.status : 0;
      const body = result?.kind === 'http-error' ? result.body : '';
      return {
        outcome: {
          ok: false as const,
          error: new ConnectionRequestError(
            context.connectionName,
            status,
            body,
            failureContext(context),
          ),
        },
      };
    }),
    failStreamStatus: assign(({ context, event }) => ({
      outcome: {
        ok: false as const,
        error:
          event.type === 'STREAM_REJECTED' && isUnauthorizedStatus(event.status)
            ? new ConnectionAuthorizationRequiredError(
                context.connectionName,
                failureContext(context),
              )
            : new ConnectionRequestError(
                context.connectionName,
                event.type === 'STREAM_REJECTED' ? event.status : 0,
                event.type === 'STREAM_REJECTED' ? event.body : '',
                failureContext(context),
              ),
      },
    })),
    failWithError: assign(({ event }) => ({
      outcome: { ok: false as const, error: errorOf(event) },
    })),
    failTimeout: assign(({ context }) => ({
      outcome: {
        ok: false as const,
        error: new ConnectionTimeoutError(
          context.connectionName,
          limitsOf(context).timeoutMs,
          failureContext(context),
        ),
      },
    })),
    failTooLarge: assign(({ context, event }) => ({
      outcome: {
        ok: false as const,
        error: new ConnectionResponseTooLargeError(
          context.connectionName,
          context.maxBytes,
          failureContext(
            context,
            context.readBytes + (event.type === 'BYTES_READ' ? event.bytes : 0),
          ),
        ),
      },
    })),
    failNoResponse: assign(({ context }) => ({
      outcome: {
        ok: false as const,
        error: new ConnectionProtocolError(
          context.connectionName,
          'MCP exchange ended without a response',
          failureContext(context),
        ),
      },
    })),
    failStreamEnded: assign(({ context }) => ({
      outcome: {
        ok: false as const,
        error: new ConnectionProtocolError(
          context.connectionName,
          'MCP SSE stream ended without a response',
          failureContext(context),
        ),
      },
    })),
    failEndpointOutsideFence: assign(({ context }) => ({
      outcome: {
        ok: false as const,
        error: new ConnectionUrlError(
          `Connection "${context.connectionName}" refused an SSE endpoint outside its host fence`,
          context.endpoint,
        ),
      },
    })),
    failReceived: assign(({ context }) => ({
      outcome: {
        ok: false as const,
        error: context.received?.ok === false ? context.received.error : undefined,
      },
    })),
    failCancelled: assign(({ event }) => ({
      outcome: { ok: false as const, error: event.type === 'CANCEL' ? event.reason : undefined },
    })),
    // Leaving each state already aborted its requests and stopped its stream reader; teardown
    // wipes the credential and session id this run resolved, so no later holder can use them.
    teardown: ({ context }) => {
      context.token?.wipe();
      context.sessionId?.wipe();
    },
  },
}).createMachine({
  id: 'mcpOperation',
  initial: 'credentials',
  context: ({ input }) => ({
    ...input,
    fetch: input.fetch ?? globalThis.fetch,
    clientInfo: input.clientInfo ?? DEFAULT_CLIENT_INFO,
    token: undefined,
    transport: 'streamable-http',
    endpoint: undefined,
    sessionId: undefined,
    protocolVersion: undefined,
    handshakeDeadlineAt: Date.now() + input.limits.handshake.timeoutMs,
    requestDeadlineAt: 0,
    operation: 'initialize',
    readBytes: 0,
    maxBytes: input.limits.handshake.maxResponseBytes,
    resumeAttempts: 0,
    lastEventId: undefined,
    retryMs: undefined,
    received: undefined,
    outcome: undefined,
  }),
  on: {
    CANCEL: { target: '.closing', actions: 'failCancelled' },
  },
  states: {
    credentials: {
      meta: { operation: 'initialize' },
      invoke: {
        id: 'resolveCredentials',
        src: 'resolveCredentials',
        input: ({ context }) => ({ resolveToken: context.resolveToken }),
        onDone: { target: 'streamable', actions: 'assignToken' },
        onError: { target: 'closing', actions: 'failWithError' },
      },
      after: { HANDSHAKE_DEADLINE: { target: 'closing', actions: 'failTimeout' } },
    },
    streamable: {
      initial: 'initializing',
      on: {
        BYTES_READ: [
          { guard: 'exceedsReadBudget', target: 'closing', actions: 'failTooLarge' },
          { actions: 'recordBytesRead' },
        ],
      },
      states: {
        initializing: {
          meta: { operation: 'initialize' },
          invoke: {
            id: 'postInitialize',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                url: context.url,
                method: 'POST',
                message: initializeMessage(context),
                expectId: INITIALIZE_ID,
              }),
            onDone: [
              {
                guard: 'isUnauthorized',
                target: '#mcpOperation.closing',
                actions: 'failUnauthorized',
              },
              {
                guard: 'isFallbackStatus',
                target: '#mcpOperation.legacy',
                actions: [
                  'switchToLegacy',
                  { type: 'beginHandshakeStep', params: { operation: 'endpoint' } },
                ],
              },
              { guard: 'isHttpError', target: '#mcpOperation.closing', actions: 'failHttpStatus' },
              {
                guard: 'isResponse',
                target: 'notifying',
                actions: [
                  'assignInitialized',
                  {
                    type: 'beginHandshakeStep',
                    params: { operation: 'notifications/initialized' },
                  },
                ],
              },
              { target: '#mcpOperation.closing', actions: 'failNoResponse' },
            ],
            onError: { target: '#mcpOperation.closing', actions: 'failWithError' },
          },
          after: {
            HANDSHAKE_DEADLINE: { target: '#mcpOperation.closing', actions: 'failTimeout' },
          },
        },
        notifying: {
          meta: { operation: 'notifications/initialized' },
          invoke: {
            id: 'postInitialized',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                url: context.url,
                method: 'POST',
                message: initializedMessage(),
              }),
            // Best effort: any HTTP answer is fine; size, deadline and cancellation are not.
            onDone: {
              target: 'requesting',
              actions: 'beginRequest',
            },
            onError: [
              { guard: 'isSizeFailure', target: '#mcpOperation.closing', actions: 'failWithError' },
              {
                target: 'requesting',
                actions: 'beginRequest',
              },
            ],
          },
          after: {
            HANDSHAKE_DEADLINE: { target: '#mcpOperation.closing', actions: 'failTimeout' },
          },
        },
        requesting: {
          invoke: {
            id: 'postRequest',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                url: context.url,
                method: 'POST',
                message: requestMessage(context),
                expectId: REQUEST_ID,
              }),
            onDone: [
              {
                guard: 'isUnauthorized',
                target: '#mcpOperation.closing',
                actions: 'failUnauthorized',
              },
              { guard: 'isHttpError', target: '#mcpOperation.closing', actions: 'failHttpStatus' },
              { guard: 'isResponse', target: '#mcpOperation.closing', actions: 'succeed' },
              { guard: 'canResume', target: 'awaitingResume', actions: 'assignInterruption' },
              { target: '#mcpOperation.closing', actions: 'failNoResponse' },
            ],
            onError: { target: '#mcpOperation.closing', actions: 'failWithError' },
          },
          after: { REQUEST_DEADLINE: { target: '#mcpOperation.closing', actions: 'failTimeout' } },
        },
        awaitingResume: {
          after: {
            RESUME_DELAY: { target: 'resuming' },
            REQUEST_DEADLINE: { target: '#mcpOperation.closing', actions: 'failTimeout' },
          },
        },
        resuming: {
          invoke: {
            id: 'resumeRequest',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                url: context.url,
                method: 'GET',
                expectId: REQUEST_ID,
                ...(context.lastEventId === undefined ? {} : { lastEventId: context.lastEventId }),
              }),
            onDone: [
              {
                guard: 'isUnauthorized',
                target: '#mcpOperation.closing',
                actions: 'failUnauthorized',
              },
              { guard: 'isHttpError', target: '#mcpOperation.closing', actions: 'failHttpStatus' },
              { guard: 'isResponse', target: '#mcpOperation.closing', actions: 'succeed' },
              { guard: 'canResume', target: 'awaitingResume', actions: 'assignInterruption' },
              { target: '#mcpOperation.closing', actions: 'failNoResponse' },
            ],
            onError: { target: '#mcpOperation.closing', actions: 'failWithError' },
          },
          after: { REQUEST_DEADLINE: { target: '#mcpOperation.closing', actions: 'failTimeout' } },
        },
      },
    },
    legacy: {
      initial: 'connecting',
      invoke: {
        id: 'legacyStream',
        src: 'legacyStream',
        input: ({ context }) => ({
          scope: {
            connectionName: context.connectionName,
            operation: 'endpoint' as const,
            phase: 'discovery' as const,
            fence: context.fence,
            fetch: context.fetch,
          },
          url: context.url,
          headers: {
            staticHeaders: context.headers,
            token: context.token,
            sessionId: undefined,
            protocolVersion: undefined,
          },
          maxFrameBytes: Math.max(
            context.limits.handshake.maxResponseBytes,
            context.limits.request.maxResponseBytes,
          ),
          maxErrorBytes: context.limits.handshake.maxResponseBytes,
        }),
      },
      on: {
        BYTES_READ: [
          { guard: 'exceedsReadBudget', target: 'closing', actions: 'failTooLarge' },
          { actions: 'recordBytesRead' },
        ],
        STREAM_REJECTED: { target: 'closing', actions: 'failStreamStatus' },
        STREAM_ENDED: { target: 'closing', actions: 'failStreamEnded' },
        STREAM_FAILED: { target: 'closing', actions: 'failWithError' },
      },
      states: {
        connecting: {
          meta: { operation: 'endpoint' },
          on: { SSE_ENDPOINT: { target: 'endpointCheck', actions: 'assignEndpoint' } },
          after: {
            HANDSHAKE_DEADLINE: { target: '#mcpOperation.closing', actions: 'failTimeout' },
          },
        },
        endpointCheck: {
          always: [
            {
              guard: 'isFencedEndpoint',
              target: 'initializing',
              actions: [{ type: 'beginHandshakeStep', params: { operation: 'initialize' } }],
            },
            { target: '#mcpOperation.closing', actions: 'failEndpointOutsideFence' },
          ],
        },
        initializing: {
          meta: { operation: 'initialize' },
          invoke: {
            id: 'postLegacyInitialize',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                url: context.endpoint ?? context.url,
                method: 'POST',
                message: initializeMessage(context),
              }),
            onDone: [
              {
                guard: 'isUnauthorized',
                target: '#mcpOperation.closing',
                actions: 'failUnauthorized',
              },
              { guard: 'isHttpError', target: '#mcpOperation.closing', actions: 'failHttpStatus' },
            ],
            onError: { target: '#mcpOperation.closing', actions: 'failWithError' },
          },
          on: {
            SSE_MESSAGE: {
              guard: { type: 'isResponseTo', params: { id: INITIALIZE_ID } },
              target: 'initializeCheck',
              actions: { type: 'assignReceived', params: { id: INITIALIZE_ID } },
            },
          },
          after: {
            HANDSHAKE_DEADLINE: { target: '#mcpOperation.closing', actions: 'failTimeout' },
          },
        },
        initializeCheck: {
          always: [
            {
              guard: 'isReceivedOk',
              target: 'notifying',
              actions: [
                'assignLegacyInitialized',
                { type: 'beginHandshakeStep', params: { operation: 'notifications/initialized' } },
              ],
            },
            { target: '#mcpOperation.closing', actions: 'failReceived' },
          ],
        },
        notifying: {
          meta: { operation: 'notifications/initialized' },
          invoke: {
            id: 'postLegacyInitialized',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                url: context.endpoint ?? context.url,
                method: 'POST',
                message: initializedMessage(),
              }),
            onDone: {
              target: 'requesting',
              actions: 'beginRequest',
            },
            onError: [
              { guard: 'isSizeFailure', target: '#mcpOperation.closing', actions: 'failWithError' },
              {
                target: 'requesting',
                actions: 'beginRequest',
              },
            ],
          },
          after: {
            HANDSHAKE_DEADLINE: { target: '#mcpOperation.closing', actions: 'failTimeout' },
          },
        },
        requesting: {
          invoke: {
            id: 'postLegacyRequest',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                url: context.endpoint ?? context.url,
                method: 'POST',
                message: requestMessage(context),
              }),
            onDone: [
              {
                guard: 'isUnauthorized',
                target: '#mcpOperation.closing',
                actions: 'failUnauthorized',
              },
              { guard: 'isHttpError', target: '#mcpOperation.closing', actions: 'failHttpStatus' },
            ],
            onError: { target: '#mcpOperation.closing', actions: 'failWithError' },
          },
          on: {
            SSE_MESSAGE: {
              guard: { type: 'isResponseTo', params: { id: REQUEST_ID } },
              target: 'responseCheck',
              actions: { type: 'assignReceived', params: { id: REQUEST_ID } },
            },
          },
          after: { REQUEST_DEADLINE: { target: '#mcpOperation.closing', actions: 'failTimeout' } },
        },
        responseCheck: {
          always: [
            {
              guard: 'isReceivedOk',
              target: '#mcpOperation.closing',
              actions: 'succeedFromReceived',
            },
            { target: '#mcpOperation.closing', actions: 'failReceived' },
          ],
        },
      },
    },
    closing: {
      always: [{ guard: 'hasSession', target: 'endingSession' }, { target: 'closed' }],
    },
    endingSession: {
      invoke: {
        id: 'deleteSession',
        src: 'deleteSession',
        input: ({ context }) => ({
          scope: {
            connectionName: context.connectionName,
            operation: context.operation,
            phase: failureContext(context).phase,
            fence: context.fence,
            fetch: context.fetch,
          },
          url: context.url,
          headers: {
            staticHeaders: context.headers,
            token: context.token,
            sessionId: context.sessionId,
            protocolVersion: context.protocolVersion,
          },
        }),
        onDone: { target: 'closed' },
        onError: { target: 'closed' },
      },
      after: { SESSION_END_DEADLINE: { target: 'closed' } },
      // The outcome is already decided; a late cancellation only abandons the session cleanup.
      on: { CANCEL: { target: 'closed' } },
    },
    closed: {
      type: 'final',
      entry: 'teardown',
    },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('mcpOperation reached its final state without an outcome'),
    },
});
