/**
 * The session region of `mcpOperation` (the 2025-11-25 handshake over Streamable HTTP): every
 * message is a POST to the connection URL, answered as JSON or as an SSE stream on the POST. The
 * first `initialize` is the one request whose 400/404/405 leads to the sse region; the request can
 * be resumed with `GET` and `Last-Event-ID` when its stream breaks off, and sent again in a new
 * session, once, when the server lost the one it carried (404). The actions only this wire takes
 * are at the end (`sessionActions`). A state of this region reads here, in the glossary
 * (`mcp-operation.edges.ts`), the guards and the actors.
 */
import { spawnChild } from 'xstate';
import { readSoFar } from '../bytes-read.js';
import { exchangeOf } from '../connection-outcomes.js';
import {
  callerStreamInput,
  exchangeInput,
  type makeMcpOperationActors,
} from './mcp-operation.actors.js';
import {
  answerOf,
  assignRun,
  beginStep,
  bytesReadEdges,
  CLOSING,
  type ExchangeDone,
  exchangePageOf,
  failOnError,
  failProtocolOn,
  handshakeDeadline,
  httpError,
  notifyingState,
  pageOutcomes,
  refusals,
  requestDeadline,
  requestWindow,
  responseOf,
  supportedOf,
  switchOf,
  taskCreated,
  unauthorized,
  type WithContext,
  type WithSelf,
} from './mcp-operation.edges.js';
import {
  initializeMessage,
  requestMessage,
  requestProgressToken,
} from './mcp-operation.messages.js';
import { INITIALIZE_ID } from './mcp-operation.policy.js';
import type { McpOperationContext, McpOperationEvent, RpcExchange } from './mcp-operation.types.js';

/** What `initialize` answered: its value and the session the server assigned. */
const initializedOf = (args: ExchangeDone) => {
  const response = responseOf(args);
  return { value: response?.value, sessionId: response?.sessionId };
};
/** The status of the exchange that sent the run to legacy SSE (taken after `isFallbackStatus`). */
const fallbackStatusOf = ({ event }: ExchangeDone) => ({
  status: event.output.kind === 'http-error' ? event.output.status : 0,
});

/** The `initialize` POST, first or in a new session: no session id is held yet for either. */
const initializeInput = ({ context, self }: WithSelf) =>
  exchangeInput(context, self, {
    method: 'POST',
    message: initializeMessage(context.callerCapabilities, context.trace),
    expectId: INITIALIZE_ID,
  });

/** What the request's answer leads to, for the Streamable POST and the resuming GET alike. */
const requestOutcomes = [
  ...refusals,
  ...pageOutcomes(exchangePageOf, answerOf, true),
  taskCreated,
  {
    guard: { type: 'isResponse', params: exchangeOf<RpcExchange> },
    target: CLOSING,
    actions: { type: 'succeed', params: answerOf },
  },
  {
    guard: {
      type: 'canResume',
      params: ({ context, event }: WithContext & ExchangeDone) => ({
        exchange: event.output,
        resumeAttempts: context.resumeAttempts,
      }),
    },
    target: 'awaitingResume',
    actions: { type: 'assignInterruption', params: ({ event }: ExchangeDone) => event.output },
  },
  failProtocolOn('ended the MCP exchange without a response'),
] as const;

/** What `initialize` answered, first or in a new session: the handshake goes on, or it broke. */
const initializeAnswered = [
  {
    guard: { type: 'isResponse', params: exchangeOf<RpcExchange> },
    target: 'notifying',
    actions: [
      { type: 'assignInitialized', params: initializedOf },
      beginStep('notifications/initialized'),
    ],
  },
  failProtocolOn('ended MCP initialize without a response'),
] as const;

const relaysToCaller = {
  type: 'relaysToCaller',
  params: ({ context }: WithContext) => ({ capabilities: context.callerCapabilities }),
} as const;

/** The request, sent once the standalone stream is settled (or without one). */
const toRequest = { target: 'requesting', actions: 'beginRequest' } as const;

/**
 * After the handshake: hold the session's standalone stream first when the call relays, or when
 * it asked for progress in a stateful session (some servers send a call's progress only there).
 */
const afterHandshake = [
  { guard: relaysToCaller, target: 'openingCallerStream', actions: beginStep('standalone-stream') },
  {
    guard: {
      type: 'listensForSessionProgress',
      params: ({ context }: WithContext) => ({
        progressToken: requestProgressToken(context.request, context.progressToken),
        sessionId: context.sessionId,
      }),
    },
    target: 'openingCallerStream',
    actions: beginStep('standalone-stream'),
  },
  toRequest,
] as const;

/**
 * A 404 to the request that carried the session id: the server lost the session and never
 * processed the request, so a new session is opened and the request sent again, once (decision
 * 0037). The old session's stream is stopped first; the new session opens its own.
 */
const lostSession = {
  guard: {
    type: 'isLostSession',
    params: ({ context, event }: WithContext & ExchangeDone) => ({
      exchange: event.output,
      sessionId: context.sessionId,
      reopened: context.sessionReopened,
    }),
  },
  target: 'reinitializing',
  actions: ['closeCallerStream', 'reopenSession', beginStep('initialize')],
} as const;

/** Streamable HTTP: every message is a POST to the connection URL. */
export const sessionRegion = {
  initial: 'initializing',
  on: bytesReadEdges,
  states: {
    // The first POST: the only one whose 400/404/405 means "speak legacy SSE instead".
    initializing: {
      meta: { operation: 'initialize' },
      invoke: {
        id: 'postInitialize',
        src: 'exchange',
        input: initializeInput,
        onDone: [
          unauthorized,
          // A 2026-07-28 server refusing the 2025 handshake: switch to its wire, or say why not.
          {
            guard: { type: 'offersStatelessRevision', params: switchOf },
            target: '#mcpOperation.stateless',
            actions: ['markSwitched', 'switchToStateless', 'beginRequest'],
          },
          {
            guard: { type: 'isUnsupportedVersion', params: exchangeOf<RpcExchange> },
            target: CLOSING,
            actions: { type: 'failUnsupportedVersion', params: supportedOf },
          },
          {
            guard: {
              type: 'isFallbackStatus',
              params: ({ context, event }: WithContext & ExchangeDone) => ({
                exchange: event.output,
                transportType: context.transportType,
              }),
            },
            target: '#mcpOperation.sse',
            actions: [
              { type: 'recordFallback', params: fallbackStatusOf },
              'switchToSse',
              beginStep('endpoint'),
            ],
          },
          httpError,
          ...initializeAnswered,
        ],
        onError: failOnError,
      },
      after: handshakeDeadline,
    },
    // A new session after the server lost ours: a fresh `initialize` without a session id. Not
    // the first `initialize`, so no status of it leads to legacy SSE or to another revision.
    reinitializing: {
      meta: { operation: 'initialize' },
      invoke: {
        id: 'postReinitialize',
        src: 'exchange',
        input: initializeInput,
        onDone: [...refusals, ...initializeAnswered],
        onError: failOnError,
      },
      after: handshakeDeadline,
    },
    // Tell the server the handshake is done (best effort).
    notifying: notifyingState('postInitialized', afterHandshake),
    // The session's standalone GET stream, held for the call's life: open (or refused, which
    // the specification allows) before the request, so nothing the server sends on it for the call
    // is lost. A stream held only for progress never fails the call: past the deadline, the call
    // goes on without it.
    openingCallerStream: {
      meta: { operation: 'standalone-stream' },
      entry: 'openCallerStream',
      on: { CALLER_STREAM_OPEN: toRequest, CALLER_STREAM_CLOSED: toRequest },
      after: {
        HANDSHAKE_DEADLINE: [
          { guard: relaysToCaller, ...handshakeDeadline.HANDSHAKE_DEADLINE },
          toRequest,
        ],
      },
    },
    // POST the request; the answer is JSON or an SSE stream on the POST.
    requesting: {
      invoke: {
        id: 'postRequest',
        src: 'exchange',
        input: ({ context, self }: WithSelf) =>
          exchangeInput(context, self, {
            method: 'POST',
            message: requestMessage(
              context.request,
              context.pendingId,
              context.cursor,
              context.progressToken,
              context.trace,
            ),
            expectId: context.pendingId,
          }),
        onDone: [lostSession, ...requestOutcomes],
        onError: failOnError,
      },
      ...requestWindow,
    },
    // The SSE answer broke off after an event id: wait the server's (clamped) retry advice.
    awaitingResume: {
      after: { RESUME_DELAY: { target: 'resuming' }, ...requestDeadline },
    },
    // GET with Last-Event-ID: the same answer, continued; the same outcomes as `requesting`.
    resuming: {
      invoke: {
        id: 'resumeRequest',
        src: 'exchange',
        input: ({ context, self }: WithSelf) =>
          exchangeInput(context, self, {
            method: 'GET',
            expectId: context.pendingId,
            ...(context.lastEventId === undefined ? {} : { lastEventId: context.lastEventId }),
          }),
        onDone: [...requestOutcomes],
        onError: failOnError,
      },
      ...requestWindow,
    },
  },
} as const;

/** The standalone-stream actor as the spawn below names it. */
type CallerStreamActor = {
  src: 'callerStream';
  logic: ReturnType<typeof makeMcpOperationActors>['callerStream'];
  id: string | undefined;
};

/** The actions only the session wire takes, spread into the setup of `mcpOperation`. */
export const sessionActions = {
  // The Streamable HTTP status that sent the run to legacy SSE: its errors will name it.
  recordFallback: assignRun((_, params: { status: number }) => ({ fallbackStatus: params.status })),
  assignInterruption: assignRun(({ context, event }, params: RpcExchange) =>
    params.kind === 'interrupted'
      ? {
          readBytes: readSoFar(context, event),
          lastEventId: params.lastEventId,
          retryMs: params.retryMs,
          resumeAttempts: context.resumeAttempts + 1,
        }
      : {},
  ),
  // The server lost the session: a new client's handshake, with no session id and no version
  // header, inside the request's window (never past the run's deadlines); a listing starts
  // over, since its cursor belonged to the lost session (decision 0037). Never again in a run.
  reopenSession: assignRun(({ context }) => ({
    sessionId: undefined,
    sessionReopened: true,
    protocolVersion: undefined,
    handshakeDeadlineAt: Math.min(
      Date.now() + context.limits.handshake.timeoutMs,
      context.requestDeadlineAt,
    ),
    collected: undefined,
    cursor: undefined,
    page: 0,
  })),
  // The session's standalone GET stream of a relaying or progress-listening call; it lives until
  // the outcome is decided, or until the session it belongs to is lost.
  openCallerStream: spawnChild<
    McpOperationContext,
    McpOperationEvent,
    undefined,
    McpOperationEvent,
    CallerStreamActor
  >('callerStream', {
    id: 'callerStream',
    input: ({ context }: WithContext) => callerStreamInput(context),
  }),
};
