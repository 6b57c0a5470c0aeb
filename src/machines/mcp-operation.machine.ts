/**
 * `mcpOperation`: one MCP client for one operation (DESIGN §3.1). Credentials, then the handshake
 * (Streamable HTTP `initialize`, falling back to legacy HTTP+SSE only on 400/404/405 of that first
 * POST), the best-effort `notifications/initialized`, the request (`tools/list`, page by page, or
 * `tools/call`, resumable once interrupted), and a teardown every path passes through.
 * The named guards, actions, delays and actors are in `mcp-operation.setup.ts`.
 */

import type { ByteReporter } from './mcp-operation.actors.js';
import {
  deleteSessionInput,
  exchangeInput,
  initializedMessage,
  initializeMessage,
  legacyStreamInput,
  postUrl,
  requestMessage,
} from './mcp-operation.inputs.js';
import { INITIALIZE_ID, MAX_TOOL_LIST_PAGES } from './mcp-operation.policy.js';
import { mcpOperationSetup } from './mcp-operation.setup.js';
import type { McpOperationContext } from './mcp-operation.types.js';

const DEFAULT_CLIENT_INFO = Object.freeze({ name: 'stitchkit-transport', version: '0.1.0' });
const CLOSING = '#mcpOperation.closing';

/** A refused HTTP exchange: 401 is authorization required; any other status a request error. */
const refusals = [
  { guard: 'isUnauthorized', target: CLOSING, actions: 'failUnauthorized' },
  { guard: 'isHttpError', target: CLOSING, actions: 'failHttpStatus' },
] as const;

/** What the request's answer leads to, for the Streamable POST and the resuming GET alike. */
const requestOutcomes = [
  ...refusals,
  { guard: 'hasNextPage', target: 'requesting', reenter: true, actions: 'collectPage' },
  {
    guard: 'hasTooManyPages',
    target: CLOSING,
    actions: { type: 'failProtocol', params: { message: 'MCP tools/list did not end' } },
  },
  { guard: 'isResponse', target: CLOSING, actions: 'succeed' },
  { guard: 'canResume', target: 'awaitingResume', actions: 'assignInterruption' },
  {
    target: CLOSING,
    actions: { type: 'failProtocol', params: { message: 'MCP exchange ended without a response' } },
  },
] as const;

const handshakeDeadline = {
  HANDSHAKE_DEADLINE: { target: CLOSING, actions: 'failTimeout' },
} as const;

const requestDeadline = {
  REQUEST_DEADLINE: { target: CLOSING, actions: 'failTimeout' },
} as const;

/**
 * The best-effort `notifications/initialized` POST, on either wire: any HTTP answer or transport
 * error moves on to the request; a size failure, the deadline and cancellation do not.
 */
function notifyingState(id: 'postInitialized' | 'postLegacyInitialized') {
  return {
    meta: { operation: 'notifications/initialized' },
    invoke: {
      id,
      src: 'exchange',
      input: ({ context, self }: { context: McpOperationContext; self: ByteReporter }) =>
        exchangeInput(context, self, {
          url: postUrl(context),
          method: 'POST',
          message: initializedMessage(),
        }),
      onDone: { target: 'requesting', actions: 'beginRequest' },
      onError: [
        { guard: 'isSizeFailure', target: CLOSING, actions: 'failWithError' },
        { target: 'requesting', actions: 'beginRequest' },
      ],
    },
    after: handshakeDeadline,
  } as const;
}

/**
 * A legacy POST to the announced endpoint: the HTTP answer only says whether it was refused; the
 * JSON-RPC response arrives on the stream, and the pending one is decoded in `check`.
 */
function legacyPostState(
  id: 'postLegacyInitialize' | 'postLegacyRequest',
  message: (context: McpOperationContext) => object,
  check: 'initializeCheck' | 'responseCheck',
) {
  return {
    invoke: {
      id,
      src: 'exchange',
      input: ({ context, self }: { context: McpOperationContext; self: ByteReporter }) =>
        exchangeInput(context, self, {
          url: postUrl(context),
          method: 'POST',
          message: message(context),
        }),
      onDone: [...refusals],
      onError: { target: CLOSING, actions: 'failWithError' },
    },
    on: {
      SSE_MESSAGE: { guard: 'isPendingResponse', target: check, actions: 'assignReceived' },
    },
  } as const;
}

/** The `mcpOperation` machine. Run it with `runMachine(mcpOperationMachine, input, options)`. */
export const mcpOperationMachine = mcpOperationSetup.createMachine({
  id: 'mcpOperation',
  initial: 'credentials',
  context: ({ input }) => ({
    ...input,
    fetch: input.fetch ?? globalThis.fetch,
    clientInfo: input.clientInfo ?? DEFAULT_CLIENT_INFO,
    maxListPages: input.maxListPages ?? MAX_TOOL_LIST_PAGES,
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
    pendingId: INITIALIZE_ID,
    collected: undefined,
    cursor: undefined,
    page: 0,
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
              { guard: 'isUnauthorized', target: CLOSING, actions: 'failUnauthorized' },
              {
                guard: 'isFallbackStatus',
                target: '#mcpOperation.legacy',
                actions: [
                  'switchToLegacy',
                  { type: 'beginHandshakeStep', params: { operation: 'endpoint' } },
                ],
              },
              { guard: 'isHttpError', target: CLOSING, actions: 'failHttpStatus' },
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
              {
                target: CLOSING,
                actions: {
                  type: 'failProtocol',
                  params: { message: 'MCP initialize ended without a response' },
                },
              },
            ],
            onError: { target: CLOSING, actions: 'failWithError' },
          },
          after: handshakeDeadline,
        },
        notifying: notifyingState('postInitialized'),
        requesting: {
          invoke: {
            id: 'postRequest',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                url: context.url,
                method: 'POST',
                message: requestMessage(context),
                expectId: context.pendingId,
              }),
            onDone: [...requestOutcomes],
            onError: { target: CLOSING, actions: 'failWithError' },
          },
          after: requestDeadline,
        },
        awaitingResume: {
          after: {
            RESUME_DELAY: { target: 'resuming' },
            REQUEST_DEADLINE: { target: CLOSING, actions: 'failTimeout' },
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
                expectId: context.pendingId,
                ...(context.lastEventId === undefined ? {} : { lastEventId: context.lastEventId }),
              }),
            onDone: [...requestOutcomes],
            onError: { target: CLOSING, actions: 'failWithError' },
          },
          after: requestDeadline,
        },
      },
    },
    legacy: {
      initial: 'connecting',
      invoke: {
        id: 'legacyStream',
        src: 'legacyStream',
        input: ({ context }) => legacyStreamInput(context),
      },
      on: {
        BYTES_READ: [
          { guard: 'exceedsReadBudget', target: 'closing', actions: 'failTooLarge' },
          { actions: 'recordBytesRead' },
        ],
        STREAM_REJECTED: [
          { guard: 'isUnauthorized', target: 'closing', actions: 'failUnauthorized' },
          { target: 'closing', actions: 'failHttpStatus' },
        ],
        STREAM_ENDED: {
          target: 'closing',
          actions: {
            type: 'failProtocol',
            params: { message: 'MCP SSE stream ended without a response' },
          },
        },
        STREAM_FAILED: { target: 'closing', actions: 'failWithError' },
      },
      states: {
        connecting: {
          meta: { operation: 'endpoint' },
          on: { SSE_ENDPOINT: { target: 'endpointCheck', actions: 'assignEndpoint' } },
          after: handshakeDeadline,
        },
        endpointCheck: {
          always: [
            {
              guard: 'isFencedEndpoint',
              target: 'initializing',
              actions: { type: 'beginHandshakeStep', params: { operation: 'initialize' } },
            },
            { target: CLOSING, actions: 'failEndpointOutsideFence' },
          ],
        },
        initializing: {
          meta: { operation: 'initialize' },
          ...legacyPostState('postLegacyInitialize', initializeMessage, 'initializeCheck'),
          after: handshakeDeadline,
        },
        initializeCheck: {
          always: [
            {
              guard: 'isReceivedOk',
              target: 'notifying',
              actions: [
                'assignInitialized',
                {
                  type: 'beginHandshakeStep',
                  params: { operation: 'notifications/initialized' },
                },
              ],
            },
            { target: CLOSING, actions: 'failReceived' },
          ],
        },
        notifying: notifyingState('postLegacyInitialized'),
        requesting: {
          ...legacyPostState('postLegacyRequest', requestMessage, 'responseCheck'),
          after: requestDeadline,
        },
        responseCheck: {
          always: [
            { guard: 'hasNextPage', target: 'requesting', actions: 'collectPage' },
            {
              guard: 'hasTooManyPages',
              target: CLOSING,
              actions: { type: 'failProtocol', params: { message: 'MCP tools/list did not end' } },
            },
            { guard: 'isReceivedOk', target: CLOSING, actions: 'succeed' },
            { target: CLOSING, actions: 'failReceived' },
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
        input: ({ context }) => deleteSessionInput(context),
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
