/**
 * The Streamable HTTP region of `mcpOperation`: every message is a POST to the connection URL,
 * answered as JSON or as an SSE stream on the POST. The first `initialize` is the one request
 * whose 400/404/405 leads to the legacy region; the request can be resumed with `GET` and
 * `Last-Event-ID` when its stream breaks off. A state of this region reads here, in the guards
 * and in the actors; `mcp-operation.edges.ts` is the glossary of the fragments it shares.
 */
import { exchangeOf } from '../connection-outcomes.js';
import { exchangeInput } from './mcp-operation.actors.js';
import {
  type Answer,
  beginStep,
  CLOSING,
  type ExchangeDone,
  failOnError,
  failProtocolOn,
  handshakeDeadline,
  httpError,
  notifyingState,
  pageOf,
  pageOutcomes,
  readBudget,
  refusals,
  requestDeadline,
  unauthorized,
  type With,
  type WithContext,
  type WithSelf,
} from './mcp-operation.edges.js';
import { INITIALIZE_ID, initializeMessage, requestMessage } from './mcp-operation.policy.js';
import type { RpcExchange } from './mcp-operation.types.js';

const responseOf = ({ event }: ExchangeDone) =>
  event.output.kind === 'response' ? event.output : undefined;
const answerOf = (args: ExchangeDone): Answer => ({ value: responseOf(args)?.value });
const initializedOf = (args: ExchangeDone) => {
  const response = responseOf(args);
  return { value: response?.value, sessionId: response?.sessionId };
};
const exchangePageOf = (args: WithContext & ExchangeDone) => pageOf(args.context, answerOf(args));

type ProgressReport = { progress: number; total?: number; message?: string };
const progressEventOf = ({ event }: With<ProgressReport>): ProgressReport => ({
  progress: event.progress,
  ...(event.total === undefined ? {} : { total: event.total }),
  ...(event.message === undefined ? {} : { message: event.message }),
});

const extendsDeadline = {
  type: 'extendsDeadline',
  params: ({ context }: WithContext) => ({
    maxTotalTimeoutMs: context.limits.request.maxTotalTimeoutMs,
  }),
} as const;

/** What the request's answer leads to, for the Streamable POST and the resuming GET alike. */
const requestOutcomes = [
  ...refusals,
  ...pageOutcomes(exchangePageOf, answerOf, true),
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

/**
 * The request's deadline, in a child state so that progress can restart it without leaving the
 * state that holds the request: each progress report is relayed, and with `maxTotalTimeoutMs` it
 * re-enters `waiting`, whose deadline is then the new window, capped from the request's start.
 */
const streamableWindow = {
  initial: 'waiting',
  states: {
    // The request is out; its answer, its progress or its deadline comes next.
    waiting: {
      after: requestDeadline,
      on: {
        PROGRESS: [
          {
            guard: extendsDeadline,
            target: 'waiting',
            reenter: true,
            actions: [{ type: 'relayProgress', params: progressEventOf }, 'extendDeadline'],
          },
          { actions: { type: 'relayProgress', params: progressEventOf } },
        ],
      },
    },
  },
} as const;

/** After the handshake: hold the standalone stream first when the call relays. */
const afterHandshake = [
  {
    guard: {
      type: 'relaysToCaller',
      params: ({ context }: WithContext) => ({ capabilities: context.callerCapabilities }),
    },
    target: 'openingCallerStream',
    actions: beginStep('standalone-stream'),
  },
  { target: 'requesting', actions: 'beginRequest' },
] as const;

/** Streamable HTTP: every message is a POST to the connection URL. */
export const streamableRegion = {
  initial: 'initializing',
  on: readBudget,
  states: {
    // The first POST: the only one whose 400/404/405 means "speak legacy SSE instead".
    initializing: {
      meta: { operation: 'initialize' },
      invoke: {
        id: 'postInitialize',
        src: 'exchange',
        input: ({ context, self }: WithSelf) =>
          exchangeInput(context, self, {
            method: 'POST',
            message: initializeMessage(context.callerCapabilities),
            expectId: INITIALIZE_ID,
          }),
        onDone: [
          unauthorized,
          {
            guard: {
              type: 'isFallbackStatus',
              params: ({ context, event }: WithContext & ExchangeDone) => ({
                exchange: event.output,
                transportType: context.transportType,
              }),
            },
            target: '#mcpOperation.legacy',
            actions: ['switchToLegacy', beginStep('endpoint')],
          },
          httpError,
          {
            guard: { type: 'isResponse', params: exchangeOf<RpcExchange> },
            target: 'notifying',
            actions: [
              { type: 'assignInitialized', params: initializedOf },
              beginStep('notifications/initialized'),
            ],
          },
          failProtocolOn('ended MCP initialize without a response'),
        ],
        onError: failOnError,
      },
      after: handshakeDeadline,
    },
    // Tell the server the handshake is done (best effort).
    notifying: notifyingState('postInitialized', afterHandshake),
    // The session's standalone GET stream, held for the call's life: open (or refused, which
    // the specification allows) before the request, so no server request sent on it is lost.
    openingCallerStream: {
      meta: { operation: 'standalone-stream' },
      entry: 'openCallerStream',
      on: {
        CALLER_STREAM_OPEN: { target: 'requesting', actions: 'beginRequest' },
        CALLER_STREAM_CLOSED: { target: 'requesting', actions: 'beginRequest' },
      },
      after: handshakeDeadline,
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
            ),
            expectId: context.pendingId,
          }),
        onDone: [...requestOutcomes],
        onError: failOnError,
      },
      ...streamableWindow,
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
      ...streamableWindow,
    },
  },
} as const;
