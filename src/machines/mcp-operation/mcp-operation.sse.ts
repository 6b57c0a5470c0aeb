/**
 * The sse region of `mcpOperation` (HTTP+SSE, the transport the specification calls legacy): one
 * GET stream carries every answer, and messages are POSTed to the endpoint it announces, once that
 * endpoint passed the fence. A POST's own answer only says whether the message was accepted; its
 * JSON-RPC answer arrives on the stream, in either order (decision 0019). The actions only this
 * wire takes are at the end (`sseActions`). A state of this region reads here, in the glossary
 * (`mcp-operation.edges.ts`), the guards and the actors.
 */

import { type AuthChallenge, ConnectionUrlError, streamFailureIn } from '../../wire/index.js';
import { readSoFar } from '../bytes-read.js';
import { failed, type With } from '../connection-outcomes.js';
import { exchangeInput, legacyStreamInput } from './mcp-operation.actors.js';
import {
  type Answer,
  assignRun,
  beginStep,
  bytesReadEdges,
  CLOSING,
  countBytes,
  failOnError,
  failProtocolOn,
  handshakeDeadline,
  notifyingState,
  overReadBudget,
  pageOf,
  pageOutcomes,
  recordBytes,
  refusals,
  requestDeadline,
  type WithContext,
  type WithSelf,
} from './mcp-operation.edges.js';
import { initializeMessage, requestMessage } from './mcp-operation.messages.js';
import { decodeRpcResponse, progressOf, runScopeOf } from './mcp-operation.policy.js';
import type { McpOperationContext } from './mcp-operation.types.js';

type StreamMessage = With<{ readonly message: unknown }>;

const messageOf = ({ event }: StreamMessage) => ({ message: event.message });
const legacyAnswerOf = ({ context }: WithContext): Answer => ({
  value: context.legacyAnswer?.ok === true ? context.legacyAnswer.value : undefined,
});
const legacyDecodedOf = ({ context }: WithContext) => ({ answer: context.legacyAnswer });
const legacyErrorOf = ({ context }: WithContext) => ({
  error: context.legacyAnswer?.ok === false ? context.legacyAnswer.error : undefined,
});
const legacyPageOf = (args: WithContext) => pageOf(args.context, legacyAnswerOf(args));
// The stream is opened for `endpoint` and outlives it: a reset or a broken framing on it is told
// as the failure of the operation in progress (decision 0035).
const streamFailureOf = ({ context, event }: WithContext & With<{ readonly error: unknown }>) => ({
  error: streamFailureIn(event.error, runScopeOf(context, context.readBytes)),
});
// Taken only after `isProgressNotice`, so the zero report is never relayed.
const legacyProgressOf = (args: WithContext & StreamMessage) =>
  progressOf(args.event.message, args.context.progressToken) ?? { progress: 0 };

const isProgressNotice = {
  type: 'isProgressNotice',
  params: ({ context, event }: WithContext & StreamMessage) => ({
    message: event.message,
    progressToken: context.progressToken,
  }),
} as const;

/**
 * A legacy stream event carries the bytes read since the stream's last report (decision 0018):
 * each edge that takes one records them after the budget edge, and an event no state takes is
 * still counted here, on `legacy` itself.
 */
const streamBytes = { SSE_ENDPOINT: countBytes, SSE_MESSAGE: countBytes } as const;

const holdsLegacyAnswer = { type: 'holdsLegacyAnswer', params: legacyDecodedOf } as const;

/**
 * The legacy request's deadline: once its answer is held, the deadline only ends the wait for the
 * POST's own answer, and the call goes on with what the server said. The handshake has no such
 * edge: its deadline bounds the whole handshake, so with it spent `notifications/initialized`
 * could not be sent either, and the handshake times out as before.
 */
const legacyRequestDeadline = {
  REQUEST_DEADLINE: [
    { guard: holdsLegacyAnswer, target: '#mcpOperation.sse.responseCheck' },
    requestDeadline.REQUEST_DEADLINE,
  ],
} as const;

/** The request's deadline on the legacy stream, where progress arrives as a stream message. */
const legacyWindow = {
  initial: 'waiting',
  states: {
    // The request is out; its answer, its progress or its deadline comes next.
    waiting: {
      after: legacyRequestDeadline,
      on: {
        SSE_MESSAGE: [
          overReadBudget,
          {
            guard: {
              type: 'isDeadlineExtendingNotice',
              params: ({ context, event }: WithContext & StreamMessage) => ({
                message: event.message,
                progressToken: context.progressToken,
                maxTotalTimeoutMs: context.limits.request.maxTotalTimeoutMs,
              }),
            },
            target: 'waiting',
            reenter: true,
            actions: [
              recordBytes,
              { type: 'relayProgress', params: legacyProgressOf },
              'extendDeadline',
            ],
          },
          {
            guard: isProgressNotice,
            actions: [recordBytes, { type: 'relayProgress', params: legacyProgressOf }],
          },
        ],
      },
    },
  },
} as const;

/** After the handshake on legacy SSE, whose one stream already carries every server request. */
const afterHandshake = [{ target: 'requesting', actions: 'beginRequest' }] as const;

/** The stream message and where the legacy step stands, for the guards that take its answer. */
const legacyStepOf = ({ context, event }: WithContext & StreamMessage) => ({
  message: event.message,
  pendingId: context.pendingId,
  accepted: context.legacyAccepted,
  answer: context.legacyAnswer,
});

/**
 * A legacy POST to the announced endpoint. Its HTTP answer only says whether the message was
 * accepted; the JSON-RPC response arrives on the stream, in either order, and the step waits for
 * both (decision 0019), so no POST is aborted on its way and its connection is kept. The second
 * to arrive moves on to `check`; once the answer is held, the POST's status and its failure lead
 * there too (the server has answered), and so does the request's deadline.
 */
function legacyPostState(
  id: 'postLegacyInitialize' | 'postLegacyRequest',
  message: (context: McpOperationContext) => object,
  check: 'initializeCheck' | 'responseCheck',
) {
  const takeAnswer = [recordBytes, { type: 'assignLegacyAnswer', params: messageOf }] as const;
  return {
    invoke: {
      id,
      src: 'exchange',
      input: ({ context, self }: WithSelf) =>
        exchangeInput(context, self, { method: 'POST', message: message(context) }),
      onDone: [{ guard: holdsLegacyAnswer, target: check }, ...refusals, { actions: 'acceptPost' }],
      onError: [{ guard: holdsLegacyAnswer, target: check }, failOnError],
    },
    on: {
      SSE_MESSAGE: [
        overReadBudget,
        {
          guard: { type: 'isAcceptedResponse', params: legacyStepOf },
          target: check,
          actions: takeAnswer,
        },
        { guard: { type: 'isEarlyResponse', params: legacyStepOf }, actions: takeAnswer },
      ],
    },
  } as const;
}

type StreamRejected = With<{
  readonly status: number;
  readonly body: string;
  readonly challenge?: AuthChallenge;
}>;

/** Legacy HTTP+SSE: one GET stream carries every answer; messages are POSTed to its endpoint. */
export const sseRegion = {
  initial: 'connecting',
  invoke: {
    id: 'legacyStream',
    src: 'legacyStream',
    input: ({ context }: WithContext) => legacyStreamInput(context),
  },
  on: {
    ...bytesReadEdges,
    ...streamBytes,
    STREAM_REJECTED: [
      {
        guard: {
          type: 'isUnauthorized',
          params: ({ event }: StreamRejected) => ({
            exchange: { kind: 'http-error' as const, status: event.status, body: event.body },
          }),
        },
        target: CLOSING,
        actions: {
          type: 'failUnauthorized',
          params: ({ event }: StreamRejected) => ({ challenge: event.challenge }),
        },
      },
      {
        target: CLOSING,
        actions: {
          type: 'failHttpStatus',
          params: ({ event }: StreamRejected) => ({
            status: event.status,
            body: event.body,
            challenge: event.challenge,
          }),
        },
      },
    ],
    STREAM_ENDED: failProtocolOn('ended the MCP SSE stream without a response'),
    STREAM_FAILED: {
      target: CLOSING,
      actions: { type: 'failWithError', params: streamFailureOf },
    },
  },
  states: {
    // Wait, under the handshake deadline, for the stream to announce its POST endpoint.
    connecting: {
      meta: { operation: 'endpoint' },
      on: {
        SSE_ENDPOINT: [
          overReadBudget,
          {
            target: 'endpointCheck',
            actions: [
              recordBytes,
              {
                type: 'assignEndpoint',
                params: ({ event }: With<{ readonly url: string }>) => ({ url: event.url }),
              },
            ],
          },
        ],
      },
      after: handshakeDeadline,
    },
    // Fence the endpoint before any request, and so any bearer, is sent to it.
    endpointCheck: {
      always: [
        {
          guard: {
            type: 'isFencedEndpoint',
            params: ({ context }: WithContext) => ({
              endpoint: context.endpoint,
              fence: context.fence,
            }),
          },
          target: 'initializing',
          actions: beginStep('initialize'),
        },
        { target: CLOSING, actions: 'failEndpointOutsideFence' },
      ],
    },
    // POST initialize to the endpoint; its answer arrives on the stream.
    initializing: {
      meta: { operation: 'initialize' },
      ...legacyPostState(
        'postLegacyInitialize',
        (context) => initializeMessage(context.callerCapabilities, context.trace),
        'initializeCheck',
      ),
      after: handshakeDeadline,
    },
    // Was the initialize answer a valid result?
    initializeCheck: {
      always: [
        {
          guard: { type: 'isAnswered', params: legacyDecodedOf },
          target: 'notifying',
          actions: [
            {
              type: 'assignInitialized',
              params: (args: WithContext) => ({
                value: legacyAnswerOf(args).value,
                sessionId: undefined,
              }),
            },
            beginStep('notifications/initialized'),
          ],
        },
        { target: CLOSING, actions: { type: 'failWithError', params: legacyErrorOf } },
      ],
    },
    // Tell the server the handshake is done (best effort).
    notifying: notifyingState('postLegacyInitialized', afterHandshake),
    // POST the request to the endpoint; its answer arrives on the stream.
    requesting: {
      ...legacyPostState(
        'postLegacyRequest',
        (context) =>
          requestMessage(
            context.request,
            context.pendingId,
            context.cursor,
            context.progressToken,
            context.trace,
          ),
        'responseCheck',
      ),
      ...legacyWindow,
    },
    // What the request's answer leads to: the next page, the result, or its refusal.
    responseCheck: {
      always: [
        ...pageOutcomes(legacyPageOf, legacyAnswerOf, false),
        {
          guard: { type: 'isAnswered', params: legacyDecodedOf },
          target: CLOSING,
          actions: { type: 'succeed', params: legacyAnswerOf },
        },
        { target: CLOSING, actions: { type: 'failWithError', params: legacyErrorOf } },
      ],
    },
  },
} as const;

/** The actions only the HTTP+SSE wire takes, spread into the setup of `mcpOperation`. */
export const sseActions = {
  assignEndpoint: assignRun((_, params: { url: string }) => ({ endpoint: params.url })),
  // The endpoint accepted the legacy POST; its answer's bytes count (decision 0019).
  acceptPost: assignRun(({ context, event }) => ({
    legacyAccepted: true,
    readBytes: readSoFar(context, event),
  })),
  assignLegacyAnswer: assignRun(({ context }, params: { message: unknown }) => ({
    legacyAnswer: decodeRpcResponse(
      params.message,
      context.pendingId,
      runScopeOf(context, context.readBytes),
    ),
  })),
  failEndpointOutsideFence: assignRun(({ context }) =>
    failed(
      new ConnectionUrlError({
        ...runScopeOf(context, context.readBytes),
        refusal: 'refused an SSE endpoint outside its host fence',
        url: context.endpoint,
      }),
    ),
  ),
};
